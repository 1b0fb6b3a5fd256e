// tests/runners/failure_test.cpp: failure kinds (runners/campaign/failure.hpp) on answers
// written by hand: which crashes, hangs, garbage and MEMORY answers are a failure
// of the target and which are no verdict, and how find_divergences() and the
// signature name them.
#include <gtest/gtest.h>

#include "runners/campaign/divergence.hpp"
#include "runners/campaign/failure.hpp"
#include "tests/runners/answer_line.hpp"

using namespace concord;

namespace {

const char* kResult =
    R"({"ok":true,"outcome":"quiescent","turns":2,"journal":[],"failures":[],"decisions":[],"alive":[]})";

Answer error(const std::string& code, const std::string& message) {
  ojson j{{"ok", false}, {"code", code}, {"message", message}};
  return answer(j.dump());
}

}  // namespace

TEST(FailureKind, ASignalTheTargetRaisesItselfIsACrashNamedBySignal) {
  Answer ref = answer(kResult);
  EXPECT_EQ(
      failure_kind(ref, error("CRASH", "c: compiled program: killed by signal 11 (SIGSEGV); stderr empty"), nullptr),
      "crash:SIGSEGV");
  EXPECT_EQ(failure_kind(ref, error("CRASH", "mine: killed by signal 6 (SIGABRT)"), nullptr), "crash:SIGABRT");
  EXPECT_EQ(failure_kind(ref, error("CRASH", "mine: killed by signal 8 (SIGFPE)"), nullptr), "crash:SIGFPE");
  EXPECT_EQ(failure_kind(ref, error("CRASH", "erlang node: exited with 1; stderr tail: boom"), nullptr), "crash:exit");
}

TEST(FailureKind, AKillFromOutsideOrABackendThatNeverStartedIsNoVerdict) {
  Answer ref = answer(kResult);
  // kill -9, the OOM killer, a harness: SIGKILL; a person's SIGTERM or SIGINT.
  for (int sig : {9, 15, 2, 1})
    EXPECT_EQ(failure_kind(ref, error("CRASH", "erlang node: killed by signal " + std::to_string(sig)), nullptr), "")
        << sig;
  EXPECT_EQ(failure_kind(ref, error("CRASH", "mine: 'nope': command not found in PATH"), nullptr), "");
  // What the backend itself wrote (its stderr tail) is not the harness's word.
  EXPECT_EQ(failure_kind(ref, error("CRASH", "mine: killed by signal 9 (SIGKILL); stderr tail: killed by signal 11"),
                         nullptr),
            "");
  // The answer is still named for what happened, for triage.
  EXPECT_EQ(answer_failure(error("CRASH", "erlang node: killed by signal 9 (SIGKILL)")), "crash:SIGKILL");
  EXPECT_EQ(answer_failure(error("CRASH", "mine: cannot start")), "crash:unknown");
}

TEST(FailureKind, HangBadOutputAndMemoryOnASmallRun) {
  Answer ref = answer(kResult);
  EXPECT_EQ(failure_kind(ref, error("TIMEOUT", "c: no answer for run 0 within 5 s"), nullptr), "hang");
  EXPECT_EQ(failure_kind(ref, error("BAD_OUTPUT", "c: run 0: not JSON"), nullptr), "bad-output");
  RunSize small{40, 300, 12, 5}, large{200'000, 1'000'000, 5'000, 5'000};
  EXPECT_EQ(failure_kind(ref, error("MEMORY", "out of memory"), &small), "memory");
  EXPECT_EQ(failure_kind(ref, error("MEMORY", "out of memory"), &large), "");
  EXPECT_EQ(failure_kind(ref, error("MEMORY", "out of memory"), nullptr), "") << "size unknown: no verdict";
  EXPECT_EQ(failure_kind(ref, answer(kResult), nullptr), "");
  EXPECT_EQ(failure_kind(ref, error("INTERNAL", "a bug"), nullptr), "") << "definite: a plain divergence";
}

TEST(FailureKind, WhereTheOracleGaveNoResultNothingIsTheTargetsFailure) {
  Answer oracle_memory = error("MEMORY", "out of memory");
  EXPECT_EQ(failure_kind(oracle_memory, error("CRASH", "c: killed by signal 11 (SIGSEGV)"), nullptr), "");
  EXPECT_EQ(failure_kind(oracle_memory, error("TIMEOUT", "slow"), nullptr), "");
  EXPECT_EQ(failure_kind(oracle_memory, error("BAD_OUTPUT", "garbage"), nullptr), "bad-output");
}

TEST(FailureKind, TheStderrTailIsTheMessagesEnd) {
  EXPECT_EQ(stderr_tail_of(error("CRASH", "c: killed by signal 11 (SIGSEGV); stderr tail: line 1\nline 2")),
            "line 1\nline 2");
  EXPECT_EQ(stderr_tail_of(error("CRASH", "c: killed by signal 11 (SIGSEGV); stderr empty")), "");
  EXPECT_EQ(killed_by_signal("c: compiled program: killed by signal 11 (SIGSEGV)"), 11);
  EXPECT_EQ(killed_by_signal("exited with 1"), 0);
  EXPECT_TRUE(self_inflicted(11));
  EXPECT_FALSE(self_inflicted(9));
}

TEST(FindDivergences, AFailureIsADivergenceWithItsStderrTailAndAKillIsNot) {
  std::vector<Answer> oracle{answer(kResult), answer(kResult)};
  std::vector<TargetAnswers> targets{
      {"c", {answer(kResult), error("CRASH", "c: compiled program: killed by signal 11 (SIGSEGV); stderr tail: oops")}},
      {"erlang", {error("CRASH", "erlang node: killed by signal 9 (SIGKILL)"), answer(kResult)}},
      {"mine", {error("TIMEOUT", "mine: no answer for run 0 within 5 s"), answer(kResult)}}};
  std::vector<std::string> no_verdict;
  std::vector<Divergence> ds = find_divergences(Program{}, {}, oracle, targets, &no_verdict);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].target, "c");
  EXPECT_EQ(ds[0].run, 1u);
  EXPECT_EQ(ds[0].kind, "crash:SIGSEGV");
  EXPECT_EQ(ds[0].stderr_tail, "oops");
  EXPECT_NE(ds[0].report.find("killed by signal 11"), std::string::npos) << ds[0].report;
  EXPECT_EQ(ds[0].report.find("oops"), std::string::npos) << "the tail is apart: " << ds[0].report;
  EXPECT_EQ(ds[1].kind, "hang");
  EXPECT_EQ(signature_of(ds), "c:crash:SIGSEGV, mine:hang");
  EXPECT_EQ(detail_of(ds), "c:crash:SIGSEGV mine:hang");  // the details keep the form before issue 17
  EXPECT_EQ(signature_kind(signature_of(ds), "c"), "crash:SIGSEGV");
  EXPECT_EQ(no_verdict, std::vector<std::string>{"erlang"});
}

TEST(FindDivergences, MemoryIsJudgedWithTheOraclesRunSizes) {
  std::vector<Answer> oracle{answer(kResult)};
  std::vector<TargetAnswers> targets{{"c", {error("MEMORY", "out of memory")}}};
  std::vector<RunSize> small{RunSize{3, 10, 2, 1}}, large{RunSize{3, 10, 10'000'000, 10'000'000}};
  std::vector<std::string> no_verdict;
  EXPECT_EQ(signature_of(find_divergences(Program{}, {}, oracle, targets, &no_verdict, &small)), "c:memory");
  EXPECT_TRUE(find_divergences(Program{}, {}, oracle, targets, &no_verdict, &large).empty());
  EXPECT_EQ(no_verdict, std::vector<std::string>{"c"});
}
