// runners/cli/cmd_corpus.cpp: `concord corpus`: every case of a corpus against its
// expected results.
#include <iostream>
#include <map>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_case.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"

namespace concord {

// `concord corpus DIR [--target NAME|all]`: every case's runs against its expected
// result, on the oracle in-process by default, or on backends through the
// protocol (one backend process per target for the whole corpus).
namespace {

// `concord corpus merge --into OUT DIR...`
int corpus_merge(int argc, char** argv) {
  Args a = parse_args(argc - 1, argv + 1, {"--into"}, {});
  if (!a.option("--into") || a.positional.empty())
    throw InputError("", "usage: concord corpus merge --into OUT DIR... (see concord --help)");
  MergeReport r = merge_corpora(*a.option("--into"), a.positional);
  std::cout << "merged " << a.positional.size() << " corpora into " << *a.option("--into") << ": " << r.added
            << " new signatures, " << r.replaced << " replaced by a smaller case, " << r.kept
            << " duplicates dropped (a case at least as small was there), " << r.held
            << " cases of a signature already in " << *a.option("--into") << " not written (its case is kept), "
            << r.copied << " other cases copied, " << r.same << " already there\n";
  for (const std::string& c : r.conflicts) std::cout << "CONFLICT " << c << "\n";
  return r.conflicts.empty() ? kOk : kBadInput;
}

// ", K skipped (not claimed by NAME)" of the totals line; with several targets, how
// many cases each did not claim (a case another target claims runs there). "" when
// every target claimed every case.
std::string skipped_text(int skipped, const std::map<std::string, int>& by, size_t targets) {
  if (by.empty()) return "";
  std::string names;
  for (const auto& [name, n] : by)
    names += (names.empty() ? "" : ", ") + name + (targets > 1 ? ": " + std::to_string(n) + " cases" : "");
  return ", " + std::to_string(skipped) + " skipped (not claimed by " + names + ")";
}

}  // namespace

int cmd_corpus(int argc, char** argv) {
  if (argc > 2 && std::string(argv[2]) == "merge") return corpus_merge(argc, argv);
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout", "--mode", "--runs"},
                      {"--verbose", "--fail-fast"});
  if (a.positional.size() > 1) throw InputError("", "usage: concord corpus [DIR|CASE] [--target NAME|all]");
  RunMode mode = RunMode::Conducted;
  if (const std::string* m = a.option("--mode"); m && !parse_mode(*m, mode))
    throw InputError("--mode", "conducted or free, not " + *m);
  std::string dir = a.positional.empty() ? "corpus" : a.positional[0];
  if (mode == RunMode::Free || is_free_case_file(dir)) return corpus_free(a);
  if (a.option("--runs")) throw InputError("--runs", "free runs only (--mode free)");
  // One case file is a corpus of one (concord_add_corpus makes a test of each).
  std::vector<std::string> files = is_case_file(dir) ? std::vector<std::string>{dir} : find_cases(dir);
  if (files.empty()) throw InputError(dir, "no *.case.json files found");
  const std::string* target = a.option("--target");
  Targets t;
  std::vector<std::unique_ptr<Backend>> backends;  // none: the oracle in-process
  if (target) {
    t = choose_targets(a, *target);
    for (const BackendSpec* s : t.chosen) backends.push_back(std::make_unique<Backend>(*s));
  }
  std::string names = target ? "" : "oracle";
  for (const BackendSpec* s : t.chosen) names += (names.empty() ? "" : ", ") + s->name;

  int pass = 0, fail = 0, bad = 0, unknown = 0, deviations = 0, skipped = 0;
  std::map<std::string, int> skipped_by;  // per target: the cases its declaration does not claim (supports.hpp)
  size_t not_run = 0;
  for (size_t n = 0; n < files.size(); n++) {
    const std::string& f = files[n];
    // --fail-fast: stop at the first failing (or unreadable) case, the rest not run.
    if (a.flag("--fail-fast") && (fail || bad)) {
      not_run = files.size() - n;
      break;
    }
    Case c;
    try {
      c = load_case(f);
    } catch (const InputError& e) {
      std::cout << "BAD   " << f << "\n      " << e.what() << "\n";
      bad++;
      continue;
    }
    std::vector<RunSettings> runs;
    for (const CaseRun& cr : c.runs) runs.push_back(cr.settings);
    // Each target's answers: from a backend, or the oracle's own results.
    struct Answers {
      std::string name;
      std::vector<Answer> got;
      Backend* backend = nullptr;  // none: the oracle in-process
    };
    std::vector<Answers> answers;
    if (backends.empty()) {
      std::vector<Answer> got;
      for (const RunSettings& r : runs) got.push_back(oracle_answer(c.program, r));
      answers.push_back({"oracle", std::move(got)});
    }
    for (auto& b : backends) {
      const BackendSpec& spec = b->spec();
      if (std::vector<std::string> missing = unclaimed(spec.supports, c.program); !missing.empty()) {
        std::cout << "SKIP  " << c.name << " on " << spec.name << ": not claimed (it uses " << joined(missing) << ")\n";
        skipped_by[spec.name]++;
        continue;
      }
      answers.push_back({spec.name, b->request(program_to_json(c.program), runs), b.get()});
    }
    if (answers.empty()) {  // no target claims it: skipped, neither passed nor failed
      skipped++;
      continue;
    }
    bool ok = true, deviates = false;
    for (const auto& [name, got, backend] : answers) {
      const BackendSpec* spec = target ? t.reg->find(name) : nullptr;
      AskAnswer ask = backend ? answering(*backend) : AskAnswer{};
      CaseVerdict v = check_case_answers(c, name, got, spec ? spec->deviations : std::vector<Deviation>{}, ask);
      if (v.pass && !v.deviation.empty()) {  // shown and counted, not failing
        deviates = true;
        std::cout << "DEVIATION " << c.name << " on " << name << " (run " << v.deviation_run << "): known deviation "
                  << v.deviation << " declared by " << name << "\n";
      }
      if (v.pass) continue;
      if (v.no_verdict) unknown++;
      ok = false;
      const RunSettings& r = runs[v.run];
      std::cout << (v.no_verdict ? "NOVERDICT " : "FAIL  ") << c.name << " on " << name << " (run " << v.run
                << ")\n    " << v.message << "      reproduce: concord run " << shell_quote(f) << " --seed " << r.seed
                << " --turns " << r.turns << " --max-processes " << r.max_processes
                << (target ? " --target " + name + t.declared : std::string()) << "\n";
    }
    if (ok) {
      pass++;
      deviations += deviates;
      if (a.flag("--verbose")) std::cout << "ok    " << c.name << "  " << c.about << "\n";
    } else {
      fail++;
    }
  }
  size_t free_cases = find_free_cases(dir).size();
  if (free_cases)
    std::cout << free_cases << " free case(s) too, checked by free runs: concord corpus " << shell_quote(dir)
              << " --mode free\n";
  std::cout << "corpus " << dir << ": " << files.size() << " cases on " << names << "\n"
            << pass << " passed" << (deviations ? " (" + std::to_string(deviations) + " by a known deviation)" : "")
            << ", " << fail << " failed" << (bad ? ", " + std::to_string(bad) + " unreadable" : "")
            << skipped_text(skipped, skipped_by, t.chosen.size())
            << (not_run ? ", " + std::to_string(not_run) + " not run (--fail-fast)" : "") << "\n";
  if (bad) return kBadInput;
  if (fail > 0 && fail == unknown) return kInternal;
  if (!fail && !pass && skipped) return kNotClaimed;  // nothing judged: every case uses what no target claims
  return fail ? kDisagree : kOk;
}

}  // namespace concord
