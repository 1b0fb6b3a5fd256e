// runners/cli/cmd_corpus_free.cpp: `concord corpus [DIR|CASE] --mode free`: free runs
// (SPEC §25) of every case of a corpus, each trace checked: a conducted case's
// program with its first run's settings, `--runs` times (default 3); a free case
// (*.free.json, runners/free/free_case.hpp) its own number of times. A case passes
// when every trace is admissible; a target that does not run free runs (or not
// this program: UNSUPPORTED) skips it, counted apart.
#include <iostream>
#include <set>

#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/free/from_run.hpp"
#include "oracle/free/trace.hpp"
#include "oracle/json_text.hpp"
#include "oracle/printable.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_case.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

struct Item {
  std::string path, name;
  Program program;
  RunSettings settings;
  int runs = 3;
  bool free_case = false;
  std::string status = "regression";
};

}  // namespace

int corpus_free(const Args& a) {
  std::string dir = a.positional.empty() ? "corpus" : a.positional[0];
  int runs = 3;
  if (const std::string* s = a.option("--runs")) runs = static_cast<int>(parse_i64(*s, "--runs"));
  if (runs < 1 || runs > 10000) throw InputError("--runs", "must be 1..10000");
  std::vector<Item> items;
  int bad = 0;
  std::vector<std::string> cases = is_case_file(dir)        ? std::vector<std::string>{dir}
                                   : is_free_case_file(dir) ? std::vector<std::string>{}
                                                            : find_cases(dir);
  for (const std::string& f : cases) {
    try {
      Case c = load_case(f);
      items.push_back({f, c.name, std::move(c.program), c.runs.at(0).settings, runs, false, c.status});
    } catch (const InputError& e) {
      std::cout << "BAD   " << f << "\n      " << e.what() << "\n";
      bad++;
    }
  }
  for (const std::string& f : find_free_cases(dir)) {
    try {
      FreeCase c = load_free_case(f);
      items.push_back(
          {f, c.name, std::move(c.checked), c.settings, a.option("--runs") ? runs : c.free_runs, true, c.status});
    } catch (const InputError& e) {
      std::cout << "BAD   " << f << "\n      " << e.what() << "\n";
      bad++;
    }
  }
  if (items.empty() && bad == 0) throw InputError(dir, "no *.case.json or *.free.json files found");

  const std::string* target = a.option("--target");
  Targets t;
  std::vector<std::unique_ptr<Backend>> backends;  // none: the oracle's conducted runs, as traces
  if (target) {
    t = choose_targets(a, *target);
    for (const BackendSpec* s : t.chosen) backends.push_back(std::make_unique<Backend>(*s));
  }
  int pass = 0, fail = 0, skipped = 0, unknown = 0, several = 0;
  for (const Item& it : items) {
    // Each target's answers: free runs from a backend, or the oracle's trace.
    std::vector<std::pair<std::string, std::vector<Answer>>> answers;
    if (backends.empty()) {
      std::string line = trace_line(it.program, it.settings);
      line.pop_back();
      Answer ans;
      ans.line = line;
      ans.json = parse_json_text(line);
      answers.push_back({"oracle", {ans}});
    }
    for (auto& b : backends)
      answers.push_back({b->spec().name, b->request(program_to_json(it.program),
                                                    std::vector<RunSettings>(static_cast<size_t>(it.runs), it.settings),
                                                    {}, RunMode::Free)});
    bool ok = true, skip = false, no_verdict = false;
    std::string shown;
    for (const auto& [name, got] : answers) {
      std::set<std::string> distinct;
      int admissible = 0;
      for (size_t k = 0; k < got.size(); k++) {
        const Answer& ans = got[k];
        if (!ans.ok()) {
          if (ans.code() == "UNSUPPORTED") {
            skip = true;
            if (a.flag("--verbose"))
              std::cout << "skip  " << it.name << " on " << name << ": " << printable(ans.json.value("message", ""))
                        << "\n";
            break;
          }
          ok = false;
          no_verdict = no_verdict || !is_definite(ans.code());
          std::cout << (is_definite(ans.code()) ? "FAIL  " : "NOVERDICT ") << it.name << " on " << name << " (free run "
                    << k + 1 << "): " << ans.code() << ": " << printable(ans.json.value("message", "")) << "\n";
          break;
        }
        distinct.insert(trace_identity(ans.json));
        TraceVerdict v;
        try {
          v = check_trace(it.program, ans.json);
        } catch (const InputError& e) {
          v.admissible = false;
          v.violations.push_back({"malformed trace", e.what(), {e.where}});
        }
        if (v.admissible) {
          admissible++;
          continue;
        }
        ok = false;
        std::cout << "FAIL  " << it.name << " on " << name << " (free run " << k + 1 << " of " << got.size()
                  << "): " << printable(violation_line(v.violations[0])) << "\n      reproduce: concord run "
                  << shell_quote(it.path) << " --mode free --runs " << it.runs
                  << (target ? " --target " + name + t.declared : std::string()) << " --keep DIR\n";
        break;
      }
      if (distinct.size() > 1) several++;
      if (admissible == static_cast<int>(got.size()))
        shown += (shown.empty() ? "" : ", ") + name + " " + std::to_string(got.size()) + " runs, " +
                 std::to_string(distinct.size()) + " distinct trace" + (distinct.size() == 1 ? "" : "s");
    }
    if (!ok) {
      fail++;
      unknown += no_verdict;
    } else if (skip && shown.empty()) {
      skipped++;
    } else {
      pass++;
      if (a.flag("--verbose")) std::cout << "ok    " << it.name << "  (" << shown << ")\n";
    }
  }
  std::string names = target ? "" : "oracle";
  for (const BackendSpec* s : t.chosen) names += (names.empty() ? "" : ", ") + s->name;
  std::cout << "corpus " << dir << " (free runs): " << items.size() << " cases on " << names << "\n"
            << pass << " passed, " << fail << " failed"
            << (skipped ? ", " + std::to_string(skipped) + " skipped (UNSUPPORTED)" : "")
            << (bad ? ", " + std::to_string(bad) + " unreadable" : "") << "; " << several
            << " case-target pairs gave more than one distinct trace\n";
  if (bad) return kBadInput;
  if (fail > 0 && fail == unknown) return kInternal;
  // A target that answered every case UNSUPPORTED judged nothing: no verdict, never a pass.
  if (pass == 0 && fail == 0 && skipped > 0) {
    std::cerr << "concord corpus: no verdict: no target answered a free run with a trace\n";
    return kInternal;
  }
  return fail ? kDisagree : kOk;
}

}  // namespace concord
