// runners/cli/cmd_run.cpp: `concord run`: one program, one run, on the oracle
// in-process or through the backend protocol on one target or all of them.
#include <iostream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/limits.hpp"
#include "oracle/printable.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/cli/cli.hpp"
#include "runners/cli/run_free.hpp"
#include "runners/free/free_case.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

// "a,b": the dialect ids of the alternatives the declarations are, for --dialect.
std::string dialect_ids(const std::vector<const Deviation*>& ds) {
  std::string out;
  for (const Deviation* d : ds) out += (out.empty() ? "" : ",") + std::string(alternative(d->dialect).id);
  return out;
}

// `concord run FILE --target ...`: through the protocol, one target or all.
int run_on_targets(const Args& a, const std::string& file, const Program& p, const RunSettings& r) {
  std::string repro = "concord run " + shell_quote(file) + " --seed " + std::to_string(r.seed) + " --turns " +
                      std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes);
  const std::string target = *a.option("--target");
  Targets t = choose_targets(a, target);
  const std::vector<const BackendSpec*>& chosen = t.chosen;
  const std::string& declared = t.declared;
  ojson program = program_to_json(p);
  auto reproduce = [&](const std::string& name) {
    return "  reproduce: " + repro + " --target " + name + declared + "\n";
  };

  // A target whose declaration does not claim the program is not asked (supports.hpp).
  auto not_claimed = [&](const BackendSpec& s) {
    std::vector<std::string> missing = unclaimed(s.supports, p);
    return missing.empty() ? std::string()
                           : s.name + " does not claim this program: it uses " + joined(missing) + " (" + s.name +
                                 " claims " + describe(s.supports) + ")";
  };

  // One target: its answer line. A list (`c,erlang`) is compared like `all`, name by
  // name: running its first name only would hide the others' verdicts.
  if (chosen.size() == 1 && target != "all") {
    if (std::string why = not_claimed(*chosen[0]); !why.empty()) {
      std::cerr << "concord: not run: " << why << "\n";
      return kNotClaimed;
    }
    Backend backend(*chosen[0]);
    Answer got = backend.request(program, {r})[0];
    std::cout << got.line << "\n";
    if (got.ok()) return kOk;
    std::cerr << "concord: target " << target << ": " << got.code() << ": " << printable(got.json.value("message", ""))
              << "\n"
              << reproduce(target);
    return is_definite(got.code()) ? kDisagree : kInternal;
  }

  Answer ref = oracle_answer(p, r);
  std::vector<std::string> agreed, differed, unknown, unasked;
  for (const BackendSpec* s : chosen) {
    if (std::string why = not_claimed(*s); !why.empty()) {
      std::cout << "not claimed " << why << "\n";
      unasked.push_back(s->name);
      continue;
    }
    Backend backend(*s);
    Answer got = backend.request(program, {r})[0];
    std::string label = s->name == "oracle" ? "oracle (protocol)" : s->name;
    Comparison c = compare_answers("oracle", ref, label, got);
    if (c.verdict == Verdict::kAgree) {
      std::cout << "agree   " << s->name << "\n";
      agreed.push_back(s->name);
      continue;
    }
    bool differs = c.verdict == Verdict::kDiffer;
    if (std::vector<const Deviation*> ex =
            differs ? explaining(s->deviations, p, r, got) : std::vector<const Deviation*>{};
        !ex.empty()) {  // the oracle in the dialect of its declarations gives its result: known, not failing
      std::cout << "known deviation " << s->name << ": " << deviation_ids(ex) << " (concord run " << shell_quote(file)
                << " --seed " << r.seed << " --dialect " << dialect_ids(ex) << " gives its result)\n";
      agreed.push_back(s->name + " (by a declared deviation)");
      continue;
    }
    std::cout << (differs ? "DIFFER  " : "UNKNOWN ") << s->name << "\n" << c.report << reproduce(s->name);
    (differs ? differed : unknown).push_back(s->name);
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none") : out;
  };
  std::cout << "agreed with the oracle: " << list(agreed) << "\n";
  if (!differed.empty()) std::cout << "disagreed: " << list(differed) << "\n";
  if (!unknown.empty()) std::cout << "no verdict: " << list(unknown) << "\n";
  if (!unasked.empty()) std::cout << "not claimed, not run: " << list(unasked) << "\n";
  bool none_run = agreed.empty() && differed.empty() && unknown.empty();
  return !differed.empty() ? kDisagree : !unknown.empty() ? kInternal : none_run ? kNotClaimed : kOk;
}

}  // namespace

int cmd_run(int argc, char** argv) {
  Args a = parse_args(argc, argv,
                      {"--seed", "--turns", "--max-processes", "--target", "--backend", "--backends", "--timeout",
                       "--mode", "--runs", "--keep", "--dialect"},
                      {});
  std::string file = one_file(a, "run");
  if (!a.option("--target") && (a.option("--backend") || a.option("--backends") || a.option("--timeout")))
    throw InputError("", "--backend, --backends and --timeout need --target (see concord --help)");
  RunSettings r;
  r.turns = kDefaultTurns;
  r.max_processes = kDefaultProcesses;
  Program p;
  if (is_free_case_file(file)) {  // a free case: its program and its free runs' settings
    FreeCase c = load_free_case(file);
    p = std::move(c.checked);
    r = c.settings;
  } else if (is_case_file(file)) {  // a corpus case: its program, and its first run's settings by default
    Case c = load_case(file);
    p = std::move(c.program);
    r = c.runs[0].settings;
  } else {
    p = load_program(file);
  }
  if (auto* s = a.option("--seed")) r.seed = parse_u64(*s, "--seed");
  if (auto* s = a.option("--turns")) r.turns = parse_i64(*s, "--turns");
  if (auto* s = a.option("--max-processes")) r.max_processes = parse_i64(*s, "--max-processes");
  check_settings(r);
  RunMode mode = RunMode::Conducted;
  if (const std::string* m = a.option("--mode"); m && !parse_mode(*m, mode))
    throw InputError("--mode", "conducted or free, not " + *m);
  if (mode == RunMode::Free) return run_free(a, file, p, r);
  if (a.option("--runs") || a.option("--keep"))
    throw InputError("", "--runs and --keep are options of free runs (--mode free)");
  if (a.option("--dialect") && a.option("--target"))
    throw InputError("--dialect", "runs the oracle in a dialect: not with --target");
  if (a.option("--target")) return run_on_targets(a, file, p, r);
  Dialect dialect = a.option("--dialect") ? dialect_named(*a.option("--dialect"), "--dialect") : Dialect{};
  std::string line = answer_line(p, r, {}, dialect);
  std::cout << line;
  if (line.rfind("{\"ok\":true", 0) == 0) return kOk;
  // Past the oracle's limits (SPEC §11): MEMORY or TIMEOUT, no verdict.
  ojson e = ojson::parse(line);
  std::cerr << "concord: oracle: " << e["code"].get<std::string>() << ": " << printable(e["message"].get<std::string>())
            << "\n";
  return kInternal;
}

}  // namespace concord
