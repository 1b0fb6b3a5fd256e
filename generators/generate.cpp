// generators/generate.cpp: the generators of whole programs and run settings,
// instantiated once for every user of generate.hpp, and generation by seed.
#include "generators/generate.hpp"

#include <algorithm>
#include <mutex>
#include <set>

#include "generators/programs.hpp"
#include "generators/settings.hpp"
#include "oracle/check.hpp"
#include "oracle/splitmix.hpp"
#include "oracle/text.hpp"

namespace concord::gen {

rc::Gen<Program> any_program(const Profile& p) { return program(p); }
rc::Gen<Program> any_program() { return program(); }
rc::Gen<RunSettings> any_run_settings() { return run_settings(); }

const Profile& profile_of_seed(uint64_t seed, const Profile& p) {
  if (p.scale_one_in <= 0) return p;
  SplitMix64 g{seed ^ 0x5ca1e5ca1e5ca1e5ULL};  // a stream of its own: the program's draws stay as they were
  return g.next() % static_cast<uint64_t>(p.scale_one_in) == 0 ? profile_named("scale") : p;
}

Program generate_program(uint64_t seed, const Profile& profile) {
  static std::mutex rapidcheck_state;
  const Profile& p = profile_of_seed(seed, profile);
  Program prog;
  {
    std::lock_guard<std::mutex> lock(rapidcheck_state);
    prog = program(p)(rc::Random(seed), p.size).value();
  }
  check(prog);
  return prog;
}

std::vector<RunSettings> generate_runs(uint64_t seed, const Profile& profile, int count) {
  const Profile& p = profile_of_seed(seed, profile);
  if (p.max_runs > 0) count = std::min(count, p.max_runs);
  SplitMix64 g{seed};
  auto in_range = [&g](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(g.next() % static_cast<uint64_t>(hi - lo + 1));
  };
  std::vector<RunSettings> out;
  std::set<uint64_t> seen;
  while (static_cast<int>(out.size()) < count) {
    RunSettings r;
    r.seed = g.next();
    r.turns = in_range(p.min_turns, p.max_turns);
    r.max_processes = in_range(p.min_processes, p.max_processes);
    if (seen.insert(r.seed).second) out.push_back(r);
  }
  return out;
}

}  // namespace concord::gen

namespace concord {

void showValue(const Program& p, std::ostream& os) { os << "\n" << print_program(p); }

void showValue(const RunSettings& r, std::ostream& os) {
  os << "{seed " << r.seed << ", turns " << r.turns << ", max_processes " << r.max_processes << "}";
}

}  // namespace concord
