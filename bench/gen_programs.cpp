// bench/gen_programs.cpp: prints COUNT generated programs (generators/, the same
// ones the property tests and campaigns draw from), one JSON program per line, for
// stands that need "a typical generated program". Deterministic in SEED.
// usage: gen_programs SEED COUNT [SIZE]     (SIZE: RapidCheck's size, default 50)
#include <cstdlib>
#include <iostream>

#include <rapidcheck.h>

#include "generators/generate.hpp"
#include "oracle/program_json.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: gen_programs SEED COUNT [SIZE]\n";
    return 2;
  }
  uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  int count = std::atoi(argv[2]);
  int size = argc > 3 ? std::atoi(argv[3]) : 50;
  rc::Random random(rc::Random::Key{seed, 0x636f6e636f7264ULL, 0, 0});
  for (int i = 0; i < count; i++) {
    rc::Random r = random.split();  // one independent stream per program
    concord::Program p = concord::gen::any_program()(r, size).value();
    std::cout << concord::program_to_json(p).dump() << "\n";
  }
}
