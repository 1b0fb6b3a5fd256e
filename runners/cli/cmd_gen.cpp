// runners/cli/cmd_gen.cpp: `concord gen`: the program a seed and a profile make,
// exactly as a campaign makes it (generators/generate.hpp).
#include <iostream>

#include "generators/generate.hpp"
#include "oracle/error.hpp"
#include "oracle/text.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

int cmd_gen(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--seed", "--profile", "--runs"}, {"--json"});
  if (!a.positional.empty() || !a.option("--seed"))
    throw InputError("", "usage: concord gen --seed S [--profile P] [--runs K] [--json] (see concord --help)");
  uint64_t seed = parse_u64(*a.option("--seed"), "--seed");
  std::string profile = a.option("--profile") ? *a.option("--profile") : "default";
  const gen::Profile& prof = gen::profile_named(profile);
  int runs = a.option("--runs") ? static_cast<int>(parse_i64(*a.option("--runs"), "--runs")) : 0;
  if (runs < 0 || runs > 1000) throw InputError("--runs", "must be 0..1000");
  Program p = gen::generate_program(seed, prof);
  std::vector<RunSettings> settings = gen::generate_runs(seed, prof, runs);
  if (a.flag("--json") && runs > 0) {  // the program and its runs, as a campaign has them
    ojson j{{"program", program_to_json(p)}, {"runs", ojson::array()}};
    for (const RunSettings& r : settings)
      j["runs"].push_back(ojson{{"seed", r.seed}, {"turns", r.turns}, {"max_processes", r.max_processes}});
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  if (a.flag("--json")) {
    std::cout << program_to_json(p).dump(2) << "\n";
    return kOk;
  } else {
    std::cout << "# concord gen --seed " << seed << " --profile " << profile << " (generator version "
              << gen::kGeneratorVersion << ")\n";
    std::cout << print_program(p);
  }
  for (const RunSettings& r : settings)
    std::cout << "# run: --seed " << r.seed << " --turns " << r.turns << " --max-processes " << r.max_processes << "\n";
  return kOk;
}

}  // namespace concord
