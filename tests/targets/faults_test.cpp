// tests/targets/faults_test.cpp: the planted faults (runners/campaign/faults.hpp,
// targets/FAULTS.md). The catalogue is well formed and matches the switches in the
// runtimes' sources; and for every fault, the program tests/targets/faults/<name>.conc
// run with the settings of its `# settings: SEED TURNS MAX_PROCESSES` line gives the
// oracle's result line on the normal build of its target and a different line on a
// build of that target's runtime with the fault switched on: another result, or the
// failure the catalogue says (a crash, a hang: then within 5 s, the backend warmed
// up first, an internal error).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "oracle/free/check_trace.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/campaign/faults.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/targets/c_backend.hpp"
#include "tests/targets/erlang_backend.hpp"
#include "tests/targets/js_backend.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

const std::string kSource = build_paths::source_dir;

// The one `concord backend elixir` of this binary (the build's runtime).
Backend& elixir_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "elixir";
    s.command = {build_paths::concord_binary, "backend", "elixir"};
    s.run_timeout = 60;
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

Backend& normal_backend(const std::string& target) {
  if (target == "c") return c_backend();
  if (target == "erlang") return erlang_backend();
  if (target == "js") return js_backend();
  return elixir_backend();
}

std::string program_path(const Fault& f) { return kSource + "/tests/targets/faults/" + f.name + ".conc"; }

// The run settings of a fault's program: its `# settings: SEED TURNS MAX_PROCESSES` line.
RunSettings settings_of(const std::string& path) {
  std::istringstream in(read_file(path));
  const std::string key = "# settings:";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      std::istringstream words(line.substr(key.size()));
      RunSettings r;
      if (words >> r.seed >> r.turns >> r.max_processes) return r;
    }
  throw std::runtime_error(path + ": no `# settings: SEED TURNS MAX_PROCESSES` line");
}

// The one answer of a backend for one run, as a line (an error line on a fault).
std::string answer(Backend& b, const Program& p, const RunSettings& r) {
  std::vector<Answer> got = b.request(program_to_json(p), {r});
  return got.size() == 1 ? got[0].line : "(" + std::to_string(got.size()) + " answers)";
}

std::string base_cc() {
  const char* cc = std::getenv("CONCORD_CC");
  return cc && *cc ? cc : "cc -O1";
}

std::string repro(const Fault& f, const RunSettings& r) {
  return "concord run " + program_path(f) + " --seed " + std::to_string(r.seed) + " --turns " +
         std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes) + " --target " + f.target +
         "   (with the environment of build_fault for " + f.name + ", targets/FAULTS.md)";
}

// The guarantee a free fault's program breaks with the fault on: its `# violates:
// G<n> <name>` line ("G4 pair order", as oracle/free/violation.hpp names it).
std::string violates_of(const std::string& path) {
  std::istringstream in(read_file(path));
  const std::string key = "# violates:";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) {
      size_t b = line.find_first_not_of(' ', key.size());
      if (b != std::string::npos) return line.substr(b);
    }
  throw std::runtime_error(path + ": no `# violates: G<n> <name>` line");
}

// n free runs of p (SPEC §25) in one request, seeds r.seed, r.seed + 1, ... (a free
// run draws nothing: the seeds only tell the runs apart).
std::vector<Answer> free_runs(Backend& b, const Program& p, RunSettings r, int n) {
  std::vector<RunSettings> runs;
  for (int k = 0; k < n; k++, r.seed++) runs.push_back(r);
  return b.request(program_to_json(p), runs, {}, RunMode::Free);
}

// A free run's verdict in one line: "admissible", "G4 pair order: ...", or what went
// wrong before there was a trace to check.
std::string verdict_line(const Program& p, const Answer& a) {
  if (!a.ok()) return "no trace: " + a.line;
  try {
    TraceVerdict v = check_trace(p, a.json);
    return v.admissible ? "admissible" : violation_line(v.violations.at(0));
  } catch (const std::exception& e) {
    return std::string("not checked: ") + e.what();
  }
}

std::string free_repro(const Fault& f, const RunSettings& r, int n, bool faulty) {
  return "concord run " + program_path(f) + " --mode free --runs " + std::to_string(n) + " --turns " +
         std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes) + " --target " + f.target +
         (faulty ? "   (with the environment of build_fault for " + f.name + ", targets/FAULTS.md)" : "");
}

}  // namespace

TEST(FaultCatalogue, HasTwelveOrMoreDistinctFaultsOnEveryTarget) {
  const std::vector<Fault>& all = fault_catalogue();
  EXPECT_GE(all.size(), 12u);
  std::set<std::string> names, targets;
  for (const Fault& f : all) {
    EXPECT_TRUE(names.insert(f.name).second) << "two faults are named " << f.name;
    EXPECT_TRUE(f.target == "c" || f.target == "erlang" || f.target == "js" || f.target == "elixir")
        << f.name << ": target " << f.target;
    EXPECT_FALSE(f.about.empty()) << f.name;
    EXPECT_EQ(find_fault(f.name), &f);
    targets.insert(f.target);
  }
  EXPECT_EQ(targets, (std::set<std::string>{"c", "erlang", "js", "elixir"}));
  EXPECT_EQ(find_fault("no_such_fault"), nullptr);
}

// Each fault's switch is in its file, its program exists; and every switch in the
// runtimes' sources is a fault of the catalogue (none is planted unlisted).
TEST(FaultCatalogue, MatchesTheSwitchesInTheRuntimes) {
  std::set<std::string> listed;
  for (const Fault& f : fault_catalogue()) {
    std::string text = read_file(kSource + "/" + f.file);
    std::string guard = fault_guard(f);
    EXPECT_NE(text.find(guard), std::string::npos) << f.file << " has no " << guard;
    EXPECT_TRUE(fs::exists(program_path(f))) << program_path(f);
    listed.insert(fault_macro(f));
  }
  // A switch: CONCORD_FAULT_<NAME> in the C runtime, 'FAULT_<NAME>' in the Erlang,
  // JavaScript and Elixir ones.
  const std::pair<std::string, std::string> switches[] = {{"/targets/c/runtime", "CONCORD_FAULT_"},
                                                          {"/targets/erlang/runtime", "'FAULT_"},
                                                          {"/targets/js/runtime", "'FAULT_"},
                                                          {"/targets/elixir/runtime", "'FAULT_"}};
  for (const auto& [dir, prefix] : switches)
    for (const auto& e : fs::recursive_directory_iterator(kSource + dir)) {
      if (!e.is_regular_file()) continue;  // c/runtime/free: the threaded runtime's folder
      std::string text = read_file(e.path().string());
      for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
        size_t begin = text[at] == '\'' ? at + 1 : at, end = begin;
        while (end < text.size() && (isupper(static_cast<unsigned char>(text[end])) ||
                                     isdigit(static_cast<unsigned char>(text[end])) || text[end] == '_'))
          end++;
        std::string macro = text.substr(begin, end - begin);
        EXPECT_TRUE(listed.count(macro)) << e.path() << ": " << macro << " is not in the catalogue";
      }
    }
}

class PlantedFault : public testing::TestWithParam<std::string> {};

// A fault of a free mode (Fault::free): the normal build's free runs of its program
// are all admissible; with the fault on, every free run of it breaks the guarantee
// of its `# violates:` line (its trigger is deterministic, not a race's luck). A
// race between threads (failure "race": its trigger makes the race likely, never
// certain, and sleeps nowhere) must show in one run of 20 at least, and every run
// that is not admissible must break that guarantee.
void check_free_fault(const Fault& f, const Program& p, const RunSettings& r) {
  const bool race = f.failure == "race";
  constexpr int kOffRuns = 8;
  const int on_runs = race ? 20 : 6;
  const std::string violates = violates_of(program_path(f));
  // "G4 pair order or G7 exactly once": a lost message is named by the check that
  // meets it first, which depends on where in the stream it was lost.
  std::vector<std::string> names;
  for (size_t at = 0;;) {
    size_t next = violates.find(" or ", at);
    names.push_back(violates.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 4;
  }
  auto breaks = [&](const std::string& v) {
    for (const std::string& n : names)
      if (v.rfind(n + ": ", 0) == 0) return true;
    return false;
  };
  for (const Answer& a : free_runs(normal_backend(f.target), p, r, kOffRuns))
    EXPECT_EQ(verdict_line(p, a), "admissible")
        << "the normal " << f.target << " build's free run is not admissible: " << free_repro(f, r, kOffRuns, false);

  TempDir work("concord-fault-" + f.name);
  BackendSpec spec;
  spec.name = f.target + "+" + f.name;
  spec.command = {build_paths::concord_binary, "backend", f.target};
  spec.run_timeout = 60;
  spec.request_timeout = 300;
  spec.env = build_fault(f, work.path(),
                         FaultSources{kSource + "/targets/c/runtime", kSource + "/targets/erlang/runtime", base_cc(),
                                      kSource + "/targets/js/runtime", kSource + "/targets/elixir/runtime"});
  std::vector<Answer> got;
  {
    Backend b(spec);  // stopped before `work` goes
    got = free_runs(b, p, r, on_runs);
  }
  ASSERT_EQ(got.size(), static_cast<size_t>(on_runs));
  int broken = 0;
  for (size_t k = 0; k < got.size(); k++) {
    std::string v = verdict_line(p, got[k]);
    if (race && v == "admissible") continue;
    broken++;
    EXPECT_TRUE(breaks(v)) << f.name << " (" << f.about << "): free run " << k + 1 << " of " << on_runs
                           << " does not break " << violates << ": " << v << "\n  " << free_repro(f, r, on_runs, true);
  }
  EXPECT_GT(broken, 0) << f.name << " (" << f.about << "): no free run of " << on_runs << " shows it\n  "
                       << free_repro(f, r, on_runs, true);
}

TEST_P(PlantedFault, AgreesWhenOffDiffersWhenOn) {
  const Fault* f = find_fault(GetParam());
  ASSERT_NE(f, nullptr);
  Program p = load_program(program_path(*f));
  RunSettings r = settings_of(program_path(*f));
  if (f->free) return check_free_fault(*f, p, r);
  std::string oracle = result_line(run(p, r));
  oracle.pop_back();  // the newline

  Backend& normal = normal_backend(f->target);
  EXPECT_EQ(answer(normal, p, r), oracle) << "the normal " << f->target << " build differs from the oracle";

  TempDir work("concord-fault-" + f->name);
  BackendSpec spec;
  spec.name = f->target + "+" + f->name;
  spec.command = {build_paths::concord_binary, "backend", f->target};
  spec.run_timeout = 60;
  spec.request_timeout = 120;
  spec.env = build_fault(*f, work.path(),
                         FaultSources{kSource + "/targets/c/runtime", kSource + "/targets/erlang/runtime", base_cc(),
                                      kSource + "/targets/js/runtime", kSource + "/targets/elixir/runtime"});
  Answer faulty;
  {
    Backend b(spec);  // stopped before `work` goes
    RequestLimits limits;
    if (f->failure == "hang") limits = RequestLimits{5, 10};  // warmed up first: compiling is not counted
    std::vector<Answer> got = b.request(program_to_json(p), {r}, limits);
    ASSERT_EQ(got.size(), 1u);
    faulty = got[0];
  }
  EXPECT_NE(faulty.line, oracle) << f->name << " (" << f->about << ") goes unnoticed: " << repro(*f, r);
  if (f->failure.empty())
    EXPECT_EQ(faulty.line.rfind("{\"ok\":true", 0), 0u) << f->name << ": not a result: " << faulty.line;
  else
    EXPECT_EQ(difference_kind(oracle_answer(p, r), faulty), f->failure) << f->name << ": " << faulty.line;
  // The js and erlang runtimes say where they met a bug (runners/PROTOCOL.md, "[at
  // WHERE]"): in the file the fault is planted in.
  if (f->failure == "error/INTERNAL" && (f->target == "js" || f->target == "erlang")) {
    std::string file = std::filesystem::path(f->file).filename().string();  // journal.js, concord_conductor.erl
    std::string where = f->target == "js" ? file : file.substr(0, file.size() - 4) + ":";
    EXPECT_NE(faulty.line.find("[at " + where), std::string::npos) << f->name << ": " << faulty.line;
  }
}

INSTANTIATE_TEST_SUITE_P(Faults, PlantedFault, testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const Fault& f : fault_catalogue()) names.push_back(f.name);
                           return names;
                         }()),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });
