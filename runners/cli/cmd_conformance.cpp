// runners/cli/cmd_conformance.cpp: `concord conformance`: the scoreboard of
// runners/conformance/scoreboard.hpp for the targets --target names, in the terminal
// (or --json, --markdown), and with --out a folder: the page, the table in Markdown
// and JSON, each failing generated program as a case and each failing case's triage page.
#include <filesystem>
#include <iostream>
#include <map>

#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "reports/conformance_page.hpp"
#include "reports/triage_page.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/cli/cli.hpp"
#include "runners/process/files.hpp"
#include "runners/protocol/load.hpp"

namespace concord {

namespace fs = std::filesystem;

namespace {

// A triage page per failing case file (one per file), linked from its failures.
void write_triage_pages(Scoreboard& b, const std::vector<BackendSpec>& targets, const std::string& out) {
  Differ differ(targets);
  differ.set_hang_limits(kDetectHangs);
  std::map<std::string, std::string> made;  // case file -> its page, relative to out ("" when it could not be made)
  for (TargetScore& t : b.targets)
    for (ScoreFailure& f : t.failures) {
      if (f.case_file.empty()) continue;
      auto it = made.find(f.case_file);
      if (it == made.end()) {
        std::string page;
        try {
          Triage tr = triage_case(f.case_file, load_case(f.case_file), differ, b.settings.declared);
          tr.page_dir = (fs::path(out) / "triage").string();
          std::string stem = fs::path(f.case_file).filename().string();
          page = "triage/" + stem.substr(0, stem.find('.')) + ".html";
          write_file_atomic((fs::path(out) / page).string(), triage_html(tr));
        } catch (const std::exception& e) {
          std::cerr << "concord conformance: no triage page for " << printable(f.case_file) << ": " << e.what() << "\n";
          page = "";
        }
        it = made.emplace(f.case_file, page).first;
      }
      f.triage = it->second;
    }
}

}  // namespace

int cmd_conformance(int argc, char** argv) {
  Args a = parse_args(argc, argv,
                      {"--target", "--backend", "--backends", "--timeout", "--programs", "--seed", "--profile",
                       "--corpus", "--runs", "--out"},
                      {"--json", "--markdown", "--no-corpus"});
  if (!a.positional.empty())
    throw InputError("",
                     "usage: concord conformance [--target NAME|all] [--programs N] [--profile P]... "
                     "[--corpus DIR]... [--out DIR] [--json|--markdown] (see concord conformance --help)");
  if (a.flag("--json") && a.flag("--markdown")) throw InputError("--json", "--json or --markdown, not both");
  ScoreSettings s;
  s.programs = a.option("--programs") ? static_cast<int>(parse_i64(*a.option("--programs"), "--programs")) : 20;
  if (s.programs > 1000000) throw InputError("--programs", "at most 1000000 per profile");
  s.seed = a.option("--seed") ? parse_u64(*a.option("--seed"), "--seed") : 1;
  s.runs = a.option("--runs") ? static_cast<int>(parse_i64(*a.option("--runs"), "--runs")) : 8;
  if (s.runs < 1 || s.runs > 1000) throw InputError("--runs", "must be 1..1000");
  s.profiles = a.all("--profile");
  if (s.profiles.empty()) s.profiles = gen::profile_names();
  for (const std::string& p : s.profiles) gen::profile_named(p);  // an unknown one is bad input now, not later
  if (a.flag("--no-corpus") && !a.all("--corpus").empty())
    throw InputError("--no-corpus", "--no-corpus or --corpus, not both");
  if (!a.flag("--no-corpus")) {
    s.corpus_dirs = a.all("--corpus");
    if (s.corpus_dirs.empty()) s.corpus_dirs = {"corpus/hand", "corpus/hand_v2"};
    for (const std::string& d : s.corpus_dirs)
      if (!fs::is_directory(d))
        throw InputError("--corpus", "no folder " + printable(d) +
                                         " (the hand corpus: run from concord's source tree, name it with "
                                         "--corpus DIR, or leave it out with --no-corpus)");
  }
  if (const std::string* o = a.option("--out")) s.out = *o;
  if (s.corpus_dirs.empty() && s.programs == 0)
    throw InputError("--programs", "nothing to judge: no corpus and 0 programs");

  Targets t = choose_targets(a, a.option("--target") ? *a.option("--target") : "all");
  std::vector<BackendSpec> targets = compared_targets(t);
  s.declared = t.declared;

  const std::atomic<bool>& stop = install_stop_handlers();
  Scoreboard b =
      score(s, targets, &stop, [](const std::string& line) { std::cerr << "conformance: " << line << "\n"; });

  if (!s.out.empty()) {
    write_triage_pages(b, targets, s.out);
    write_file_atomic((fs::path(s.out) / "conformance.json").string(), scoreboard_json(b).dump(2) + "\n");
    write_file_atomic((fs::path(s.out) / "conformance.md").string(), scoreboard_markdown(b));
    write_file_atomic((fs::path(s.out) / "index.html").string(), scoreboard_html(b));
  }
  if (a.flag("--json"))
    std::cout << scoreboard_json(b).dump(2) << "\n";
  else if (a.flag("--markdown"))
    std::cout << scoreboard_markdown(b);
  else
    std::cout << scoreboard_text(b) << (s.out.empty() ? "" : "written: " + s.out + "/index.html\n");

  bool failed = false, judged = false;
  for (const TargetScore& ts : b.targets) {
    failed = failed || ts.total.hand.fail + ts.total.generated.fail > 0;
    judged = judged || ts.total.hand.judged() + ts.total.generated.judged() > 0;
  }
  if (b.stopped) return kInternal;  // interrupted: no verdict on what did not run
  if (failed) return kDisagree;
  return judged ? kOk : kNotClaimed;
}

}  // namespace concord
