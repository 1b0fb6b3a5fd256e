// tests/runners/fuzz_cli_test.cpp: `concord gen`, `fuzz`, `shrink` and `corpus merge`
// as a user runs them: exit codes, what is printed and written, bad input, and
// Ctrl-C in the middle of a campaign. The divergent target is the oracle with its
// output bent by sed (a planted divergence), so no compiler is involved.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/runners/bent_oracles.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const std::string kLiar = test_backends::bent_option("liar", test_backends::kSaysTurnLimit);

CommandResult run_concord(std::vector<std::string> args, const std::string& dir = "") {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, dir, {}}, "", 300);
}

std::vector<std::string> find_cases_or_none(const std::string& dir) {
  return fs::is_directory(dir) ? find_cases(dir) : std::vector<std::string>{};
}

}  // namespace

TEST(GenCli, TheSameSeedPrintsTheSameProgramAndProfilesDiffer) {
  CommandResult a = run_concord({"gen", "--seed", "12345"}), b = run_concord({"gen", "--seed", "12345"});
  ASSERT_EQ(a.status.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("kind "), std::string::npos);
  CommandResult c = run_concord({"gen", "--seed", "12345", "--profile", "supervision"});
  EXPECT_EQ(c.status.code, 0) << c.err;
  EXPECT_NE(a.out, c.out);
  CommandResult j = run_concord({"gen", "--seed", "12345", "--json", "--runs", "3"});
  ASSERT_EQ(j.status.code, 0) << j.err;
  ojson parsed = ojson::parse(j.out);
  EXPECT_EQ(parsed["runs"].size(), 3u);
  EXPECT_TRUE(parsed["program"].contains("kinds"));
}

TEST(GenCli, BadInputIsExit2WithTheReason) {
  CommandResult r = run_concord({"gen", "--seed", "1", "--profile", "nope"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("spawn-heavy"), std::string::npos) << r.err;  // names the known ones
  EXPECT_EQ(run_concord({"gen"}).status.code, 2);
  EXPECT_EQ(run_concord({"gen", "--seed", "x1"}).status.code, 2);
}

TEST(FuzzCli, BadOptionsAreExit2) {
  for (auto shard : {"3/2", "0/0", "2", "a/b"}) {
    CommandResult r = run_concord({"fuzz", "--cases", "1", "--shard", shard});
    EXPECT_EQ(r.status.code, 2) << shard << ": " << r.err;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_concord({"fuzz", "--cases", "0"}).status.code, 2);
  EXPECT_EQ(run_concord({"fuzz", "--time", "soon"}).status.code, 2);
  EXPECT_EQ(run_concord({"fuzz", "--cases", "1", "--profile", "nope"}).status.code, 2);
  EXPECT_EQ(run_concord({"fuzz", "--cases", "1", "--target", "nope"}).status.code, 2);
}

TEST(FuzzCli, AgreeingTargetsPrintTheReportAndWriteNothing) {
  TempDir dir("concord-fuzz");
  CommandResult r = run_concord({"fuzz", "--seed", "9", "--cases", "20", "--target", "honest", "--backend",
                                 test_backends::honest_option(), "--corpus", dir.path() + "/found", "--report",
                                 dir.path() + "/report"});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("concord fuzz: seed 9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("20 programs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing new: no file written"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("coverage"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir.path() + "/found"));
  ojson s = ojson::parse(read_file(dir.path() + "/report/summary.json"));
  EXPECT_EQ(s["programs"], 20);
  EXPECT_EQ(s["runs"], 160);
}

TEST(FuzzCli, ADivergenceIsStoredShrunkReplayableAndShrinkableAgain) {
  TempDir dir("concord-fuzz");
  std::string found = dir.path() + "/found";
  std::string report = dir.path() + "/report";
  CommandResult r = run_concord({"fuzz", "--seed", "5", "--cases", "10", "--target", "liar", "--backend", kLiar,
                                 "--corpus", found, "--report", report});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NEW  liar:§8.2 run"), std::string::npos) << r.out;
  std::vector<std::string> files = find_cases(found);
  ASSERT_EQ(files.size(), 1u) << r.out;
  Case c = load_case(files[0]);
  EXPECT_EQ(c.signature, "liar:§8.2 run");
  // The report folder: the signature with its corpus file and triage page, a
  // failing JUnit test case for it, the index linking the page.
  ojson sum = ojson::parse(read_file(report + "/summary.json"));
  ASSERT_EQ(sum["signatures"].size(), 1u) << sum.dump(2);
  const ojson& sig = sum["signatures"][0];
  EXPECT_EQ(sig["signature"], "liar:§8.2 run");
  EXPECT_EQ(sig["status"], "new");
  EXPECT_EQ(sig["corpus_file"], files[0]);
  EXPECT_EQ(sig["first_case"], c.found["case"]);
  ASSERT_TRUE(sig.contains("triage")) << sig.dump(2);
  std::string page = read_file(report + "/" + sig["triage"].get<std::string>());
  EXPECT_NE(page.find("<mark class=\"field\""), std::string::npos);
  EXPECT_NE(page.find("turn_limit"), std::string::npos);
  std::string junit = read_file(report + "/junit.xml");
  EXPECT_NE(junit.find("name=\"liar:§8.2 run\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure type=\"divergence\""), std::string::npos) << junit;
  EXPECT_NE(read_file(report + "/index.html").find("href=\"" + sig["triage"].get<std::string>() + "\""),
            std::string::npos);
  EXPECT_NE(read_file(report + "/summary.md").find("### NEW `liar:§8.2 run`"), std::string::npos);
  // The printed reproduce line replays the case as found.
  std::string case_index = std::to_string(c.found["case"].get<uint64_t>());
  EXPECT_NE(r.out.find("reproduce: concord fuzz --seed 5 --profile default --seeds-per-program 8 --target liar "
                       "--backend "),
            std::string::npos)
      << r.out;
  CommandResult replay =
      run_concord({"fuzz", "--seed", "5", "--target", "liar", "--backend", kLiar, "--case", case_index}, dir.path());
  EXPECT_EQ(replay.status.code, 1) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("1 programs"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("liar:§8.2 run"), std::string::npos) << replay.out;
  EXPECT_FALSE(fs::exists(dir.path() + "/campaigns"));  // a replay writes no report unless asked
  // `concord shrink` on the stored case keeps its signature (it is already small).
  CommandResult s = run_concord({"shrink", files[0], "--target", "liar", "--backend", kLiar, "--out",
                                 dir.path() + "/again.case.json", "--quiet"});
  ASSERT_EQ(s.status.code, 0) << s.out << s.err;
  EXPECT_EQ(load_case(dir.path() + "/again.case.json").signature, "liar:§8.2 run");
  // A second campaign knows the signature: nothing new, exit 0.
  CommandResult again = run_concord({"fuzz", "--seed", "5", "--cases", "10", "--target", "liar", "--backend", kLiar,
                                     "--corpus", found, "--report", report});
  EXPECT_EQ(again.status.code, 0) << again.out;
  EXPECT_NE(again.out.find("known  liar:§8.2 run"), std::string::npos) << again.out;
  EXPECT_NE(read_file(report + "/junit.xml").find("<skipped message=\"known divergence"), std::string::npos);
  ojson known = ojson::parse(read_file(report + "/summary.json"))["signatures"][0];
  EXPECT_EQ(known["status"], "known");
  EXPECT_EQ(known["corpus_file"], files[0]);  // the stored case, with its triage page
  EXPECT_TRUE(fs::exists(report + "/" + known.value("triage", std::string("none")))) << known.dump(2);
  EXPECT_EQ(find_cases(found).size(), 1u);
}

TEST(ShrinkCli, ACaseWithoutDivergenceIsExit2) {
  CommandResult r = run_concord({"shrink", std::string(build_paths::source_dir) + "/corpus/hand/drops.case.json",
                                 "--target", "honest", "--backend", test_backends::honest_option()});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("no divergence"), std::string::npos) << r.err;
}

TEST(FuzzCli, CtrlCStopsCleanlyAndKeepsWhatWasFound) {
  TempDir dir("concord-fuzz");
  std::string found = dir.path() + "/found";
  Subprocess p(Command{{build_paths::concord_binary, "fuzz", "--seed", "5", "--time", "120", "--target", "liar",
                        "--backend", kLiar, "--corpus", found, "--report", dir.path() + "/report", "--quiet"},
                       {},
                       "",
                       {}});
  // Wait until the first divergence is stored, then interrupt.
  auto give_up = Clock::now() + std::chrono::seconds(60);
  while (find_cases_or_none(found).empty() && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_FALSE(find_cases_or_none(found).empty());
  ::kill(p.pid(), SIGINT);
  std::string out;
  p.read_to_eof(out, deadline_after(30));
  std::optional<ExitStatus> st = p.wait_until(deadline_after(30));
  ASSERT_TRUE(st.has_value());
  EXPECT_FALSE(st->signaled) << st->describe();
  EXPECT_EQ(st->code, 1) << out;
  EXPECT_NE(out.find("interrupted after"), std::string::npos) << out;
  EXPECT_NE(out.find("NEW  liar:§8.2 run"), std::string::npos) << out;
  EXPECT_EQ(find_cases(found).size(), 1u);
  EXPECT_EQ(ojson::parse(read_file(dir.path() + "/report/summary.json"))["interrupted"], true);
  for (const auto& e : fs::directory_iterator(found))  // no temporary file left
    EXPECT_NE(e.path().string().find(".case.json"), std::string::npos) << e.path();
}

TEST(FuzzCli, ACorruptCaseInTheCorpusStopsTheCampaignBeforeItStarts) {
  TempDir dir("concord-fuzz");
  std::string found = dir.path() + "/found";
  fs::create_directories(found);
  std::ofstream(found + "/div_0123456789abcdef.case.json") << "{\"concord_case\":1,\"signature\":\"liar:out";
  CommandResult r = run_concord({"fuzz", "--seed", "5", "--cases", "10", "--target", "liar", "--backend", kLiar,
                                 "--corpus", found, "--report", dir.path() + "/report"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("div_0123456789abcdef.case.json"), std::string::npos) << r.err;
  EXPECT_EQ(find_cases(found).size(), 1u);
  EXPECT_EQ(read_file(found + "/div_0123456789abcdef.case.json"), "{\"concord_case\":1,\"signature\":\"liar:out");
  EXPECT_FALSE(fs::exists(dir.path() + "/report"));
}

TEST(CorpusMergeCli, MergesAndRefusesACorruptInput) {
  TempDir dir("concord-merge");
  std::string out = dir.path() + "/out";
  CommandResult r =
      run_concord({"corpus", "merge", "--into", out, std::string(build_paths::source_dir) + "/corpus/hand"});
  ASSERT_EQ(r.status.code, 0) << r.err;
  size_t n = find_cases(out).size();
  EXPECT_GT(n, 30u);
  EXPECT_EQ(run_concord({"corpus", out}).status.code, 0);
  std::string bad = dir.path() + "/bad";
  fs::create_directories(bad);
  std::ofstream(bad + "/broken.case.json") << "{\"concord_case\":1,\"name\":";
  CommandResult b = run_concord({"corpus", "merge", "--into", out, bad});
  EXPECT_EQ(b.status.code, 2);
  EXPECT_NE(b.err.find("broken.case.json"), std::string::npos) << b.err;
  EXPECT_EQ(find_cases(out).size(), n);
}

// A backend that declares a deviation (runners/PROTOCOL.md, "Declared deviations"):
// what it explains is a known deviation everywhere, counted and shown, never
// stored, never failing; what it does not explain still fails. The backend is the
// oracle in the dialect dynamic-supervisor-terminates-in-map-order (concord backend
// oracle --dialect): `declared` names that dialect, `other` another one, which
// explains nothing here.
TEST(DeviationsCli, ADeclaredDeviationIsShownAndCountedAndDoesNotFail) {
  TempDir dir("concord-deviation");
  const std::string kDialect = "dynamic-supervisor-terminates-in-map-order";
  auto backends = [&](const std::string& file, const std::string& declared_dialect) {
    std::string path = dir.path() + "/" + file;
    std::ofstream(path) << R"({"backends":{"liar":{"command":[")" << build_paths::concord_binary
                        << R"(","backend","oracle","--dialect",")" << kDialect << R"("],"deviations":[
        {"id":"map-order","dialect":")"
                        << declared_dialect << R"(",
         "about":"It ends its children oldest first.","experiment":"none","source":"dialect"}]}}})";
    return path;
  };
  std::string declared = backends("declared.json", kDialect),
              other = backends("other.json", "dynamic-supervisor-removes-transient");
  std::string found = dir.path() + "/found", report = dir.path() + "/report";

  CommandResult r = run_concord({"fuzz", "--seed", "5", "--cases", "300", "--profile", "dynamic-supervision",
                                 "--target", "liar", "--backends", declared, "--corpus", found, "--report", report});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("known deviation  liar:§7.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("liar: declared deviation map-order"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("known deviations: 0"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(found)) << "a known deviation is not stored";
  ojson sum = ojson::parse(read_file(report + "/summary.json"));
  ASSERT_EQ(sum["signatures"].size(), 1u) << sum.dump(2);
  EXPECT_EQ(sum["signatures"][0]["status"], "deviation");
  EXPECT_GE(sum["deviations"].get<uint64_t>(), 1u);
  EXPECT_EQ(sum["deviations"], sum["divergent_cases"]);
  // Each declaration with the cases it explained (issue 40): here all of them.
  EXPECT_EQ(sum["deviation_hits"]["liar: map-order"], sum["deviations"]) << sum.dump(2);
  EXPECT_NE(r.out.find("deviation liar: map-order explained " + sum["deviations"].dump() + " divergent cases"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(sum["signatures"][0]["first_difference"][0]["deviation"], "map-order");
  EXPECT_NE(read_file(report + "/junit.xml").find("<skipped message=\"known deviation"), std::string::npos);
  EXPECT_NE(read_file(report + "/summary.md").find("### known deviation `liar:§7.5"), std::string::npos);

  CommandResult n =
      run_concord({"fuzz", "--seed", "5", "--cases", "300", "--profile", "dynamic-supervision", "--target", "liar",
                   "--backends", other, "--corpus", found, "--no-report", "--no-shrink"});
  EXPECT_EQ(n.status.code, 1) << "another dialect explains nothing here\n" << n.out;
  EXPECT_NE(n.out.find("NEW  liar:§7.5"), std::string::npos) << n.out;

  // concord corpus and concord triage on a case of a DynamicSupervisor giving up.
  std::string cases = dir.path() + "/cases";
  fs::create_directories(cases);
  fs::copy_file(std::string(build_paths::source_dir) + "/tests/targets/elixir_deviations/" + kDialect + ".conc",
                cases + "/give_up.conc");
  CommandResult expect = run_concord({"run", cases + "/give_up.conc"});
  ASSERT_EQ(expect.status.code, 0) << expect.err;
  std::string c = cases + "/give_up.case.json";
  std::ofstream(c) << R"({"concord_case":1,"name":"give_up","about":"a DynamicSupervisor gives up",)"
                   << R"("source":"give_up.conc","runs":[{"seed":0,"turns":1000,"max_processes":10000,"expect":)"
                   << expect.out.substr(0, expect.out.size() - 1) << "}]}";
  CommandResult corpus = run_concord({"corpus", c, "--target", "liar", "--backends", declared});
  EXPECT_EQ(corpus.status.code, 0) << corpus.out << corpus.err;
  EXPECT_NE(corpus.out.find("DEVIATION give_up on liar (run 0): known deviation map-order"), std::string::npos)
      << corpus.out;
  EXPECT_NE(corpus.out.find("1 passed (1 by a known deviation), 0 failed"), std::string::npos) << corpus.out;
  EXPECT_EQ(run_concord({"corpus", c, "--target", "liar", "--backends", other}).status.code, 1);
  CommandResult triage = run_concord({"triage", c, "--target", "liar", "--backends", declared});
  EXPECT_EQ(triage.status.code, 0) << triage.out << triage.err;
  EXPECT_NE(triage.out.find("known deviation map-order, declared by liar: It ends its children oldest first."),
            std::string::npos)
      << triage.out;
  EXPECT_EQ(run_concord({"triage", c, "--target", "liar", "--backends", other}).status.code, 1);
}
