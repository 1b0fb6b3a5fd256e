// tests/reports/triage_test.cpp: `concord triage` (runners/triage/triage.hpp, reports/triage_page.hpp) on the hand
// case fifo_mailbox against bent copies of the oracle, whose differences are known
// by construction: `ready7` rewrites the second "ready":1 of each answer line to 7,
// which in fifo_mailbox's journal (start s, start r, deliver go, deliver push(1),
// ...) is event 3, the first push; `refuser` answers UNSUPPORTED to everything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/shown_path.hpp"
#include "reports/spec_rule.hpp"
#include "reports/triage_page.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/runners/bent_oracles.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const std::string kCase = std::string(build_paths::source_dir) + "/corpus/hand/fifo_mailbox.case.json";

using test_backends::honest;

BackendSpec ready7() { return test_backends::bent("ready7", test_backends::kSecondReady1Is7); }
BackendSpec refuser() {
  return test_backends::shell_backend(
      "refuser", "while read -r l; do echo '{\"ok\":false,\"code\":\"UNSUPPORTED\",\"message\":\"no\"}'; done");
}

CommandResult run_concord(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, cwd, {}}, "", 120);
}

// fifo_mailbox copied into `dir` (the case and its program), with `signature` recorded.
std::string copy_case(const std::string& dir, const std::string& signature) {
  std::string hand = std::string(build_paths::source_dir) + "/corpus/hand/";
  fs::copy_file(hand + "fifo_mailbox.conc", dir + "/fifo_mailbox.conc");
  ojson c = ojson::parse(read_file(kCase));
  if (!signature.empty()) c["signature"] = signature;
  std::string path = dir + "/fifo_mailbox.case.json";
  std::ofstream(path) << c.dump(1);
  return path;
}

const std::string kReady7Option = test_backends::bent_option("ready7", test_backends::kSecondReady1Is7);

}  // namespace

TEST(Triage, LocatesTheFirstDifferenceAndItsField) {
  Triage t = triage_case(kCase, load_case(kCase), {honest(), ready7()}, "");
  ASSERT_EQ(t.targets.size(), 2u);
  EXPECT_EQ(t.targets[0].state, TargetTriage::State::kAgree);
  const TargetTriage& d = t.targets[1];
  ASSERT_EQ(d.state, TargetTriage::State::kDiffer);
  EXPECT_EQ(d.run, 0u);
  EXPECT_EQ(d.pointer, "/journal/3/ready");
  EXPECT_EQ(d.kind, "journal/deliver/ready");
  EXPECT_EQ(d.rule, "§8.2 draw");  // as many messages in the mailboxes: another number ready is the draw's
  EXPECT_EQ(t.signature, "ready7:§8.2 draw");
  EXPECT_TRUE(t.oracle_changed.empty());
  // Rows 0..7 around event 3 (the journal has 7 events), event 3 marked first.
  EXPECT_EQ(d.around.section, "journal");
  EXPECT_EQ(d.around.field, "ready");
  ASSERT_FALSE(d.around.rows.empty());
  EXPECT_EQ(d.around.rows.front().index, 0u);
  size_t firsts = 0;
  for (const SideRow& r : d.around.rows) {
    if (!r.first) continue;
    firsts++;
    EXPECT_EQ(r.index, 3u);
    EXPECT_EQ(r.left["ready"], 1);
    EXPECT_EQ(r.right["ready"], 7);
    EXPECT_EQ(r.left["tag"], "push");
  }
  EXPECT_EQ(firsts, 1u);
  EXPECT_FALSE(d.around.rows[2].differs);
  EXPECT_EQ(d.journal.rows.size(), t.oracle[0].json["journal"].size());
}

TEST(Triage, TextAndPageMarkTheFieldAndSayHowToReproduce) {
  Triage t = triage_case(kCase, load_case(kCase), {ready7()}, " --backend X");
  std::string text = triage_text(t);
  EXPECT_NE(text.find(">>ready=1<<"), std::string::npos) << text;
  EXPECT_NE(text.find(">>ready=7<<"), std::string::npos) << text;
  EXPECT_NE(text.find("journal around element 3, field ready"), std::string::npos) << text;
  EXPECT_NE(text.find("concord run " + shown_path(kCase) +
                      " --seed 1 --turns 1000 --max-processes 10000 --target ready7 --backend X"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kind Acc()"), std::string::npos);  // the program, in text syntax
  std::string page = triage_html(t);
  EXPECT_NE(page.find("<mark class=\"field\" data-field=\"ready\">ready=1</mark>"), std::string::npos);
  EXPECT_NE(page.find("<mark class=\"field\" data-field=\"ready\">ready=7</mark>"), std::string::npos);
  EXPECT_NE(page.find("<details class=\"journal\">"), std::string::npos);
  EXPECT_EQ(page.find("http"), std::string::npos);  // nothing fetched: one self-contained file
}

// The rule behind the first difference, named, linked to its section of SPEC.md
// and quoted from it: the text here is read from SPEC.md by the test itself.
TEST(Triage, ThePageNamesTheRuleLinksItsSectionAndQuotesIt) {
  Triage t = triage_case(kCase, load_case(kCase), {ready7()}, "");
  ASSERT_EQ(t.targets.size(), 1u);
  ASSERT_EQ(t.targets[0].rule, "§8.2 draw");
  std::string spec_md = std::string(build_paths::source_dir) + "/spec/SPEC.md";
  std::ifstream in(spec_md);
  std::string line, draw_step, heading;
  while (std::getline(in, line)) {
    if (line == "### 8.2 The run") heading = line;
    if (!heading.empty() && draw_step.empty() && line.rfind("4. Draw x", 0) == 0) draw_step = line;
  }
  ASSERT_FALSE(draw_step.empty()) << "SPEC.md §8.2 has no step drawing the process";
  std::string page = triage_html(t);
  EXPECT_NE(page.find("ready7: §8.2 draw"), std::string::npos) << page;
  EXPECT_NE(page.find("href=\"" + shown_path(spec_md) + "#82-the-run\""), std::string::npos) << page;
  EXPECT_NE(page.find(draw_step), std::string::npos) << "the rule's text is not quoted: " << draw_step;
  EXPECT_NE(page.find("<blockquote class=\"spec-quote\">"), std::string::npos);
  std::string text = triage_text(t);
  EXPECT_NE(text.find("SPEC 8.2 The run (" + shown_path(spec_md) + "#82-the-run)"), std::string::npos) << text;
}

// Every section a version 2 rule names (runners/triage/attribution_v2.hpp) is a heading of
// SPEC.md, and the quote is the paragraph of the clause: the trapping one for a
// trapped link signal, the row of §20's table for a request.
TEST(Triage, VersionTwoRulesNameTheirSectionsAndQuoteTheirClause) {
  std::string spec_md = std::string(build_paths::source_dir) + "/spec/SPEC.md";
  std::ifstream in(spec_md);
  std::stringstream text;
  text << in.rdbuf();
  const std::pair<const char*, const char*> rules[] = {
      {"§16.2 link", "16.2 Statements"},
      {"§16.3 link signal trapped", "16.3 Signals and their effect"},
      {"§17.1 signal order", "17.1 What an exit does"},
      {"§17.2 settle order", "17.2 Settling"},
      {"§18.1 calling self", "18.1 `call` and `reply`"},
      {"§18.2 failed call", "18.2 Failed calls"},
      {"§18.3 deadlock", "18.3 Readiness and deadlock"},
      {"§19.4 spawn", "19.4 When a process is spawned"},
      {"§20 terminate_child", "20. The supervisor API"},
      {"§21 auto_shutdown", "21. Significant children and auto_shutdown"},
      {"§22 failures", "22. Results of version 2"},
      {"§2 spawned names, decimal", "2. Names"},
  };
  for (const auto& [rule, heading] : rules) {
    std::optional<SpecRule> r = spec_rule(rule, text.str(), spec_md);
    ASSERT_TRUE(r) << rule;
    EXPECT_EQ(r->heading, heading) << rule;
    EXPECT_FALSE(r->quote.empty()) << rule;
  }
  EXPECT_NE(spec_rule("§16.3 link signal trapped", text.str(), spec_md)->quote.find("traps exits: the message"),
            std::string::npos);
  EXPECT_NE(spec_rule("§20 terminate_child", text.str(), spec_md)->quote.find("- `terminate_child(s, c)`"),
            std::string::npos);
}

TEST(Triage, AnOutcomeDifferenceIsMarkedAndTheJournalsEndsShown) {
  Triage t = triage_case(kCase, load_case(kCase), {test_backends::bent("liar", test_backends::kSaysTurnLimit)}, "");
  const TargetTriage& d = t.targets[0];
  ASSERT_EQ(d.state, TargetTriage::State::kDiffer);
  EXPECT_EQ(d.around.section, "outcome");
  EXPECT_EQ(d.around.field, "outcome");
  std::string text = triage_text(t);
  EXPECT_NE(text.find(">>outcome=quiescent<<"), std::string::npos) << text;
  EXPECT_NE(text.find(">>outcome=turn_limit<<"), std::string::npos) << text;
  EXPECT_NE(text.find("the journals' last events (7 in all)"), std::string::npos) << text;
  EXPECT_NE(text.find("t5 deliver ready=1 to=r from=r tag=push args=[9]"), std::string::npos) << text;
}

TEST(Triage, ADifferenceAfterANoVerdictIsTheVerdictAsInTheSignature) {
  Case c = load_case(kCase);
  // run 0: killed from outside (no verdict, runners/campaign/failure.hpp); run 1: turn_limit
  // (differs). The first line answers the warm-up: triage times hangs as a campaign
  // does, so a fresh backend first answers a trivial program (Backend::warm_up).
  c.runs.push_back(c.runs[0]);
  BackendSpec flaky = test_backends::shell_backend(
      "killed_then_liar",
      "\"$CONCORD\" backend oracle | { read -r l; echo \"$l\"; read -r l; "
      "echo '{\"ok\":false,\"code\":\"CRASH\",\"message\":\"x: killed by signal 9 (SIGKILL)\"}'; "
      "sed -u 's/\"outcome\":\"quiescent\"/\"outcome\":\"turn_limit\"/'; }");
  Triage t = triage_case(kCase, c, {flaky}, "");
  EXPECT_EQ(t.signature, "killed_then_liar:§8.2 run");
  const TargetTriage& d = t.targets[0];
  EXPECT_EQ(d.state, TargetTriage::State::kDiffer);
  EXPECT_EQ(d.run, 1u);
  EXPECT_EQ(d.kind, "outcome");
}

TEST(Triage, ARecordedTargetThatIsNotRunIsNamed) {
  Case c = load_case(kCase);
  c.signature = "mine:journal/deliver/to";
  Triage t = triage_case(kCase, c, {honest()}, "");
  ASSERT_EQ(t.not_run, std::vector<std::string>{"mine"});
  EXPECT_NE(triage_text(t).find("names mine, not run here"), std::string::npos) << triage_text(t);
}

TEST(Triage, AVeryLongJournalIsCutAroundTheFirstDifference) {
  ojson journal = ojson::array();
  for (int i = 0; i < 5000; i++) journal.push_back(ojson{{"ev", "deliver"}, {"turn", i}, {"to", "a"}});
  Answer a{"", ojson{{"ok", true}, {"journal", journal}}};
  journal[4000]["to"] = "b";
  Answer b{"", ojson{{"ok", true}, {"journal", journal}}};
  SideBySide s = whole_journals(a, b);
  EXPECT_EQ(s.total, 5000u);
  ASSERT_EQ(s.rows.size(), kJournalRows);
  EXPECT_EQ(s.rows.front().index, 3000u);
  size_t at = 4000 - s.rows.front().index;
  EXPECT_TRUE(s.rows[at].first);
  EXPECT_EQ(s.rows[at].right["to"], "b");
  SideBySide near_end = whole_journals(a, a);  // no difference: the start
  EXPECT_EQ(near_end.rows.front().index, 0u);
}

TEST(Triage, AnErrorAnswerIsShownAgainstTheResult) {
  Triage t = triage_case(kCase, load_case(kCase), {refuser()}, "");
  const TargetTriage& d = t.targets[0];
  ASSERT_EQ(d.state, TargetTriage::State::kDiffer);
  EXPECT_EQ(d.kind, "error/UNSUPPORTED");
  EXPECT_EQ(d.around.section, "answer");
  ASSERT_EQ(d.around.rows.size(), 1u);
  EXPECT_EQ(d.around.rows[0].left["outcome"], "quiescent");
  EXPECT_EQ(d.around.rows[0].right["code"], "UNSUPPORTED");
}

// Issue 37: an error's message of megabytes is shown by its start only.
TEST(Triage, AnErrorAnswersMessageIsBounded) {
  Answer result{"", ojson{{"ok", true}, {"outcome", "quiescent"}, {"turns", 3}}};
  Answer refused{"", ojson{{"ok", false}, {"code", "UNSUPPORTED"}, {"message", std::string(100000, 'x')}}};
  SideBySide s = around_first_difference(result, refused, 4);
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0].right["code"], "UNSUPPORTED");
  EXPECT_EQ(s.rows[0].right["message"], std::string(kMessageShown, 'x') + "... (100000 bytes)");
}

TEST(TriageCli, ExitCodesAndThePage) {
  TempDir dir("concord-triage");
  std::string page = dir.path() + "/page.html";
  CommandResult r = run_concord({"triage", kCase, "--target", "ready7", "--backend", kReady7Option, "--html", page});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("DIFFERS from run 0: §8.2 draw at journal/deliver/ready"), std::string::npos) << r.out;
  EXPECT_NE(read_file(page).find("id=\"first-difference\""), std::string::npos);
  CommandResult agree = run_concord({"triage", kCase, "--target", "oracle"});
  EXPECT_EQ(agree.status.code, 2) << agree.out;  // nothing to compare with
  // Bad input: a truncated case, a program file, a missing file: exit 2, located.
  std::string cut = dir.path() + "/cut.case.json";
  std::string text = read_file(kCase);
  std::ofstream(cut) << text.substr(0, text.size() / 2);
  CommandResult b = run_concord({"triage", cut, "--target", "ready7", "--backend", kReady7Option});
  EXPECT_EQ(b.status.code, 2);
  EXPECT_NE(b.err.find("cut.case.json"), std::string::npos) << b.err;
  EXPECT_EQ(run_concord({"triage", std::string(build_paths::source_dir) + "/corpus/hand/drops.conc"}).status.code, 2);
  EXPECT_EQ(run_concord({"triage", dir.path() + "/none.case.json"}).status.code, 2);
  EXPECT_FALSE(fs::exists(dir.path() + "/none.case.json"));
}

TEST(TriageCli, EveryTargetAgreesIsExit0) {
  CommandResult r = run_concord({"triage", kCase, "--target", "honest", "--backend", test_backends::honest_option()});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("agrees on every run"), std::string::npos) << r.out;
}

// Issue 37: "is it fixed?" in CI. A case found on the user's backend `mine`, triaged
// without declaring mine: nothing checked it, so never exit 0; the message says what
// is missing.
TEST(TriageCli, ATargetTheSignatureNamesThatDidNotRunIsExit2) {
  TempDir dir("concord-triage");
  std::string file = copy_case(dir.path(), "mine:§6.5 fifo");
  CommandResult r = run_concord({"triage", file, "--target", "honest", "--backend", test_backends::honest_option()});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("its recorded signature names mine, not run here"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--backend NAME=COMMAND"), std::string::npos) << r.err;
  // Run, and agreeing: fixed.
  CommandResult fixed = run_concord({"triage", file, "--target", "mine", "--backend",
                                     "mine=" + std::string(build_paths::concord_binary) + " backend oracle"});
  EXPECT_EQ(fixed.status.code, 0) << fixed.out << fixed.err;
}

// A page names no absolute path: the case relative to the working directory (where
// its commands are run again), SPEC.md relative to the page's folder.
TEST(TriageCli, APageNamesNoAbsolutePath) {
  TempDir dir("concord-triage");
  std::string file = copy_case(dir.path(), "");
  fs::create_directories(dir.path() + "/pages");
  CommandResult r = run_concord(
      {"triage", file, "--target", "ready7", "--backend", kReady7Option, "--html", dir.path() + "/pages/page.html"},
      dir.path());
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  std::string page = read_file(dir.path() + "/pages/page.html");
  // A path is absolute where it starts the text it is in (a relative one that climbs
  // to the same folder has ".." before it).
  auto absolute = [&](const std::string& path) {
    for (size_t at = page.find(path); at != std::string::npos; at = page.find(path, at + 1))
      if (at == 0 || page[at - 1] != '.') return true;
    return false;
  };
  EXPECT_FALSE(absolute(dir.path())) << "the case's absolute path";
  EXPECT_FALSE(absolute(std::string(build_paths::source_dir) + "/spec")) << "SPEC.md's";
  EXPECT_EQ(page.find("file://"), std::string::npos);
  EXPECT_NE(page.find("concord run fifo_mailbox.case.json --seed 1"), std::string::npos);
  EXPECT_NE(page.find("class=\"spec-link\" href=\"../"), std::string::npos);  // from pages/, up
  EXPECT_NE(page.find("spec/SPEC.md#82-the-run"), std::string::npos);
}
