// tests/runners/failure_cli_test.cpp: `concord fuzz` against targets that fail
// (runners/campaign/failure.hpp, runners/campaign/campaign.hpp "Failures"): a backend that
// segfaults or hangs on every program with a spawn (tests/runners/faulty_backend.py,
// the oracle otherwise) is a finding: confirmed, stored, shrunk, reported with its
// stderr, exit 1, and its stored case fails `concord corpus` on it; a backend that
// is merely slow is no finding; one that never answers at all is no verdict (exit 3).
#include <gtest/gtest.h>

#include <filesystem>

#include "runners/process/files.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "runners/shrink/shrink.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

std::string faulty(const std::string& mode) {
  return "mine=python3 " + std::string(build_paths::source_dir) + "/tests/runners/faulty_backend.py " + mode + " " +
         build_paths::concord_binary;
}

CommandResult run_concord(std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, "", {}}, "", 300);
}

// A campaign of `cases` cases against the faulty backend in `mode`.
CommandResult fuzz(const TempDir& dir, const std::string& mode, const std::string& cases,
                   std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"fuzz",
                                   "--seed",
                                   "3",
                                   "--cases",
                                   cases,
                                   "--jobs",
                                   "1",
                                   "--target",
                                   "mine",
                                   "--backend",
                                   faulty(mode),
                                   "--corpus",
                                   dir.path() + "/found",
                                   "--report",
                                   dir.path() + "/report"};
  args.insert(args.end(), more.begin(), more.end());
  return run_concord(args);
}

std::vector<std::string> cases_in(const std::string& dir) {
  return fs::is_directory(dir) ? find_cases(dir) : std::vector<std::string>{};
}

}  // namespace

TEST(FailureCli, ACrashIsAFindingStoredShrunkSmallAndReportedWithTheStderrTail) {
  TempDir dir("concord-failure");
  CommandResult r = fuzz(dir, "crash", "6");
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NEW  mine:crash:SIGSEGV"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("killed by signal 11 (SIGSEGV)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("faulty backend: a program with a spawn, and now a segfault"), std::string::npos) << r.out;

  std::vector<std::string> files = cases_in(dir.path() + "/found");
  ASSERT_EQ(files.size(), 1u) << r.out;
  Case c = load_case(files[0]);
  EXPECT_EQ(c.signature, "mine:crash:SIGSEGV");
  EXPECT_EQ(c.runs.size(), 1u);
  EXPECT_LE(program_size(c.program), 6u) << "shrunk small: a kind, a process, a spawn";
  EXPECT_TRUE(c.runs[0].expect.value("ok", false)) << "the expected result is the oracle's";

  ojson sum = ojson::parse(read_file(dir.path() + "/report/summary.json"));
  ASSERT_EQ(sum["signatures"].size(), 1u) << sum.dump(2);
  const ojson& first = sum["signatures"][0]["first_difference"][0];
  EXPECT_EQ(first["kind"], "crash:SIGSEGV");
  EXPECT_NE(first.value("stderr_tail", "").find("and now a segfault"), std::string::npos) << first.dump();
  std::string page = read_file(dir.path() + "/report/" + sum["signatures"][0]["triage"].get<std::string>());
  EXPECT_NE(page.find("id=\"stderr-mine\""), std::string::npos);
  EXPECT_NE(page.find("and now a segfault"), std::string::npos);
  EXPECT_NE(read_file(dir.path() + "/report/summary.md").find("and now a segfault"), std::string::npos);

  // The stored case is checkable like any: it fails on the crashing target (as ctest
  // would), passes on the oracle.
  CommandResult on_mine =
      run_concord({"corpus", dir.path() + "/found", "--target", "mine", "--backend", faulty("crash")});
  EXPECT_EQ(on_mine.status.code, 1) << on_mine.out << on_mine.err;
  CommandResult on_oracle = run_concord({"corpus", dir.path() + "/found", "--target", "oracle"});
  EXPECT_EQ(on_oracle.status.code, 0) << on_oracle.out << on_oracle.err;
}

// A crash inside a turn (tests/runners/faulty_backend.py spawned: a run whose
// answer shows a worker spawned in a turn) is located (runners/campaign/failing_turn.hpp):
// its bucket names the statement the turn ran, which the faulty backend chose.
TEST(FailureCli, ACrashInsideATurnIsBucketedByTheStatementsThatTurnRan) {
  TempDir dir("concord-failure");
  CommandResult r = fuzz(dir, "spawned", "10");
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NEW  mine:crash:SIGSEGV in §6.6 spawn"), std::string::npos) << r.out;
  std::vector<std::string> files = cases_in(dir.path() + "/found");
  ASSERT_EQ(files.size(), 1u) << r.out;
  Case c = load_case(files[0]);
  EXPECT_EQ(c.signature, "mine:crash:SIGSEGV in §6.6 spawn");
  EXPECT_EQ(c.detail, "mine:crash:SIGSEGV");
  EXPECT_NE(read_file(dir.path() + "/report/summary.md").find("it fails from turn limit"), std::string::npos);
  // Checked like any case: the crash again is the recorded bug (a failure, not no verdict).
  CommandResult on_mine =
      run_concord({"corpus", dir.path() + "/found", "--target", "mine", "--backend", faulty("spawned")});
  EXPECT_EQ(on_mine.status.code, 1) << on_mine.out << on_mine.err;
  EXPECT_NE(on_mine.out.find("FAIL  "), std::string::npos) << on_mine.out;
  CommandResult on_oracle = run_concord({"corpus", dir.path() + "/found", "--target", "oracle"});
  EXPECT_EQ(on_oracle.status.code, 0) << on_oracle.out << on_oracle.err;
  // `concord shrink` keeps the located signature (its candidates judged by the crash alone).
  CommandResult s = run_concord({"shrink", files[0], "--target", "mine", "--backend", faulty("spawned"), "--out",
                                 dir.path() + "/again.case.json", "--quiet"});
  ASSERT_EQ(s.status.code, 0) << s.out << s.err;
  EXPECT_EQ(load_case(dir.path() + "/again.case.json").signature, "mine:crash:SIGSEGV in §6.6 spawn");
  // A corpus written before failures were located holds the crash by its kind: known.
  ojson j = ojson::parse(read_file(files[0]));
  j["signature"] = "mine:crash:SIGSEGV";
  write_file_atomic(files[0], j.dump(2) + "\n");
  CommandResult known = fuzz(dir, "spawned", "10", {"--no-report"});
  EXPECT_EQ(known.status.code, 0) << known.out << known.err;
  // (listed by the unshrunk case's signature: the statements of its turn, a spawn among them)
  size_t line = known.out.find("known  mine:crash:SIGSEGV in ");
  ASSERT_NE(line, std::string::npos) << known.out;
  EXPECT_NE(known.out.substr(line, known.out.find('\n', line) - line).find("§6.6 spawn"), std::string::npos);
}

TEST(FailureCli, AHangIsAFindingAndAMerelySlowBackendIsNot) {
  TempDir dir("concord-failure");
  CommandResult r = fuzz(dir, "hang", "3", {"--timeout", "0.5", "--no-shrink"});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NEW  mine:hang"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("and now nothing"), std::string::npos) << "the stderr tail of a hang: " << r.out;
  std::vector<std::string> files = cases_in(dir.path() + "/found");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(load_case(files[0]).signature, "mine:hang");

  // Late by 0.7 s with a timeout of 0.5 s: a hang at first sight, but the rerun on
  // a fresh backend (twice the time) answers. No verdict, no finding.
  TempDir slow("concord-failure");
  CommandResult s = fuzz(slow, "slow:0.7", "3", {"--timeout", "0.5"});
  EXPECT_EQ(s.status.code, 0) << s.out << s.err;
  EXPECT_EQ(s.out.find("NEW"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("did not happen again on a fresh backend"), std::string::npos) << s.out;
  EXPECT_TRUE(cases_in(slow.path() + "/found").empty());
  ojson sum = ojson::parse(read_file(slow.path() + "/report/summary.json"));
  EXPECT_TRUE(sum["signatures"].empty());
  EXPECT_GE(sum["unconfirmed"].value("mine", 0), 1) << sum.dump(2);
}

TEST(FailureCli, ATargetThatNeverAnswersIsNoVerdictExit3) {
  TempDir dir("concord-failure");
  CommandResult missing =
      run_concord({"fuzz", "--seed", "1", "--cases", "3", "--target", "nope", "--backend",
                   "nope=/nonexistent/concord-backend", "--corpus", dir.path() + "/found", "--no-report"});
  EXPECT_EQ(missing.status.code, 3) << missing.out << missing.err;
  EXPECT_NE(missing.err.find("target nope never answered"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("cannot start"), std::string::npos) << missing.err;

  // A command that exits at once on every request: each crash fails the health
  // check on a fresh backend, so none is believed; nothing is stored.
  CommandResult exits = fuzz(dir, "exit", "3", {"--no-report"});
  EXPECT_EQ(exits.status.code, 3) << exits.out << exits.err;
  EXPECT_NE(exits.err.find("target mine never answered"), std::string::npos) << exits.err;
  EXPECT_TRUE(cases_in(dir.path() + "/found").empty());
}
