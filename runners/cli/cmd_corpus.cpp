// runners/cli/cmd_corpus.cpp: `concord corpus`: every case of a corpus against its
// expected results.
#include <iostream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/backend.hpp"
#include "runners/cli/cli.hpp"
#include "runners/diff.hpp"
#include "runners/load.hpp"

namespace concord {

// `concord corpus DIR [--target NAME|all]`: every case's runs against its expected
// result, on the oracle in-process by default, or on backends through the
// protocol (one backend process per target for the whole corpus).
int cmd_corpus(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout"}, {"--verbose"});
  if (a.positional.size() > 1) throw InputError("", "usage: concord corpus [DIR] [--target NAME|all]");
  std::string dir = a.positional.empty() ? "corpus" : a.positional[0];
  std::vector<std::string> files = find_cases(dir);
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

  int pass = 0, fail = 0, bad = 0, unknown = 0;
  for (const std::string& f : files) {
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
    std::vector<std::pair<std::string, std::vector<ojson>>> answers;
    if (backends.empty()) {
      std::vector<ojson> got;
      for (const RunSettings& r : runs) got.push_back(result_to_json(run(c.program, r)));
      answers.emplace_back("oracle", std::move(got));
    }
    for (auto& b : backends) {
      std::vector<ojson> got;
      for (Answer& ans : b->request(program_to_json(c.program), runs)) got.push_back(std::move(ans.json));
      answers.emplace_back(b->spec().name, std::move(got));
    }
    bool ok = true;
    for (const auto& [name, got] : answers)
      for (size_t i = 0; i < runs.size(); i++) {
        auto d = first_difference(c.runs[i].expect, got[i]);
        if (!d) continue;
        bool indefinite = got[i].value("ok", true) == false && !is_definite(got[i].value("code", ""));
        if (indefinite) unknown++;
        ok = false;
        std::cout << (indefinite ? "NOVERDICT " : "FAIL  ") << c.name << " on " << name << " (run " << i << ")\n      "
                  << describe(*d, "expected", name) << "      reproduce: concord run " << shell_quote(f) << " --seed "
                  << runs[i].seed << " --turns " << runs[i].turns << " --max-processes " << runs[i].max_processes
                  << (target ? " --target " + name + t.declared : std::string()) << "\n";
      }
    if (ok) {
      pass++;
      if (a.flag("--verbose")) std::cout << "ok    " << c.name << "  " << c.about << "\n";
    } else {
      fail++;
    }
  }
  std::cout << "corpus " << dir << ": " << files.size() << " cases on " << names << "\n"
            << pass << " passed, " << fail << " failed" << (bad ? ", " + std::to_string(bad) + " unreadable" : "")
            << "\n";
  if (bad) return kBadInput;
  if (fail > 0 && fail == unknown) return kInternal;
  return fail ? kDisagree : kOk;
}

}  // namespace concord
