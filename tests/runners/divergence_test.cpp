// tests/runners/divergence_test.cpp: difference kinds and signatures (runners/
// divergence.hpp) on results written by hand, declared deviations and what they
// explain (runners/protocol/deviations.hpp), and the verdicts on a case's answers by its
// status (runners/campaign/case_check.hpp).
#include <gtest/gtest.h>

#include "oracle/error.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/divergence.hpp"
#include "tests/runners/answer_line.hpp"

using namespace concord;

namespace {

const char* kRef =
    R"({"ok":true,"outcome":"quiescent","turns":2,"journal":[{"ev":"start","turn":0,"name":"m"},)"
    R"({"ev":"deliver","turn":1,"ready":1,"to":"m","tag":"go"},{"ev":"exit","turn":2,"name":"m","reason":"normal"}],)"
    R"("failures":[{"name":"m","code":"BOOM","turn":2}],"decisions":[{"supervisor":"s","action":"restart"}],)"
    R"("alive":[{"name":"m","state":{"count":1}}]})";

std::string with(const std::string& from, const std::string& to) {
  std::string s = kRef;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST(DifferenceKind, NamesTheEventKindAndFieldWithoutIndexOrValue) {
  Answer ref = answer(kRef);
  EXPECT_EQ(difference_kind(ref, answer(with(R"("to":"m")", R"("to":"n")"))), "journal/deliver/to");
  EXPECT_EQ(difference_kind(ref, answer(with(R"("reason":"normal")", R"("reason":"shutdown")"))),
            "journal/exit/reason");
  EXPECT_EQ(difference_kind(ref, answer(with(R"("outcome":"quiescent")", R"("outcome":"turn_limit")"))), "outcome");
  EXPECT_EQ(difference_kind(ref, answer(with(R"("action":"restart")", R"("action":"keep")"))),
            "decisions/restart/action");
  EXPECT_EQ(difference_kind(ref, answer(with(R"("turn":2}])", R"("turn":3}])"))), "failures/BOOM/turn");
  // A state field is the program's own name: left out.
  EXPECT_EQ(difference_kind(ref, answer(with(R"({"count":1})", R"({"count":2})"))), "alive/state");
}

TEST(DifferenceKind, SaysWhichSideLacksAnElement) {
  Answer ref = answer(kRef);
  Answer shorter = answer(with(R"(,{"ev":"exit","turn":2,"name":"m","reason":"normal"}])", "]"));
  EXPECT_EQ(difference_kind(ref, shorter), "journal/exit/absent");
  EXPECT_EQ(difference_kind(shorter, ref), "journal/exit/extra");
}

TEST(DifferenceKind, ErrorsAndBytes) {
  Answer ref = answer(kRef);
  // A harness's error where the oracle has a result: what happened (failure.hpp).
  Answer crash = answer(R"x({"ok":false,"code":"CRASH","message":"c: killed by signal 11 (SIGSEGV)"})x");
  EXPECT_EQ(difference_kind(ref, crash), "crash:SIGSEGV");
  EXPECT_EQ(difference_kind(ref, answer(R"({"ok":false,"code":"CRASH","message":"why?"})")), "crash:unknown");
  EXPECT_EQ(difference_kind(ref, answer(R"({"ok":false,"code":"TIMEOUT","message":"late"})")), "hang");
  EXPECT_EQ(difference_kind(ref, answer(R"({"ok":false,"code":"BAD_OUTPUT","message":"junk"})")), "bad-output");
  EXPECT_EQ(difference_kind(ref, answer(R"({"ok":false,"code":"INTERNAL","message":"bug"})")), "error/INTERNAL");
  EXPECT_EQ(difference_kind(crash, ref), "oracle-error/CRASH");
  Answer spaced = ref;
  spaced.line += " ";
  EXPECT_EQ(difference_kind(ref, spaced), "bytes");
}

TEST(Signature, OneEntryPerTargetSortedAndParsedBack) {
  std::vector<Answer> oracle{answer(kRef), answer(kRef)};
  std::vector<TargetAnswers> targets{
      {"erlang", {answer(kRef), answer(with(R"("outcome":"quiescent")", R"("outcome":"turn_limit")"))}},
      {"c", {answer(with(R"("to":"m")", R"("to":"n")")), answer(with(R"("reason":"normal")", R"("reason":"x")"))}},
      {"good", {answer(kRef), answer(kRef)}}};
  std::vector<std::string> no_verdict;
  std::vector<Divergence> ds = find_divergences(Program{}, {}, oracle, targets, &no_verdict);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].target, "c");
  EXPECT_EQ(ds[0].run, 0u);
  EXPECT_EQ(ds[1].run, 1u);
  // The detail: the field paths, as signatures were before they named rules (a
  // corpus may hold them: legacy, still parsed).
  std::string detail = detail_of(ds);
  EXPECT_EQ(detail, "c:journal/deliver/to erlang:outcome");
  EXPECT_TRUE(legacy_signature(detail));
  EXPECT_EQ(signature_targets(detail), (std::vector<std::string>{"c", "erlang"}));
  EXPECT_EQ(signature_kind(detail, "erlang"), "outcome");
  EXPECT_EQ(signature_kind(detail, "good"), "");
  EXPECT_TRUE(no_verdict.empty());
  // The signature: the rule per target (set by attribute_divergences), words and all.
  ds[0].rule = "§7.3 one_for_all order";
  ds[1].rule = "§8.2 run";
  std::string sig = signature_of(ds);
  EXPECT_EQ(sig, "c:§7.3 one_for_all order, erlang:§8.2 run");
  EXPECT_FALSE(legacy_signature(sig));
  EXPECT_EQ(signature_targets(sig), (std::vector<std::string>{"c", "erlang"}));
  EXPECT_EQ(signature_kind(sig, "c"), "§7.3 one_for_all order");
  EXPECT_EQ(signature_kind(sig, "erlang"), "§8.2 run");
  // A failure keeps its kind, and is no legacy signature.
  EXPECT_FALSE(legacy_signature("c:crash:SIGSEGV, js:hang"));
  EXPECT_EQ(signature_kind("c:crash:SIGSEGV, js:hang", "js"), "hang");
  // Located failures (failing_turn.hpp); rules whose words hold a ':' (an error's
  // place) or a ',' are one part each.
  std::string located = "c:crash:SIGSEGV in §16.2 link, js:§10 error INTERNAL in §6.5 send + §6.6 spawn";
  EXPECT_EQ(signature_targets(located), (std::vector<std::string>{"c", "js"}));
  EXPECT_EQ(signature_kind(located, "c"), "crash:SIGSEGV in §16.2 link");
  EXPECT_EQ(signature_kind(located, "js"), "§10 error INTERNAL in §6.5 send + §6.6 spawn");
  EXPECT_FALSE(legacy_signature(located));
  std::string places =
      "erlang:§10 error INTERNAL at concord_conductor:settle/2, js:§10 error INTERNAL at links.js "
      "TypeError: Cannot read properties of null (reading 'delete')";
  EXPECT_EQ(signature_targets(places), (std::vector<std::string>{"erlang", "js"}));
  EXPECT_EQ(signature_kind(places, "erlang"), "§10 error INTERNAL at concord_conductor:settle/2");
  EXPECT_EQ(signature_kind(places, "js"),
            "§10 error INTERNAL at links.js TypeError: Cannot read properties of null (reading 'delete')");
  EXPECT_FALSE(legacy_signature(places));
  EXPECT_TRUE(signature_refines(places, places));
  EXPECT_EQ(signature_kind("c:§2 spawned names, decimal, js:§6.5 fifo", "c"), "§2 spawned names, decimal");
  EXPECT_EQ(signature_kind("c:§2 spawned names, decimal, js:§6.5 fifo", "js"), "§6.5 fifo");
}

TEST(Signature, OperatorsNarrowWhileShrinking) {
  EXPECT_TRUE(signature_refines("c:§5 rem", "c:§5 lt rem"));
  EXPECT_TRUE(signature_refines("c:§5 lt rem", "c:§5 lt rem"));
  EXPECT_FALSE(signature_refines("c:§5 lt rem", "c:§5 rem"));     // wider, not narrower
  EXPECT_FALSE(signature_refines("c:§5 mul", "c:§5 lt rem"));     // other operators
  EXPECT_FALSE(signature_refines("c:§5 value", "c:§5 lt rem"));   // no operator at all: another cause
  EXPECT_FALSE(signature_refines("c:§6.5 fifo", "c:§6.5 drop"));  // other rules never
  EXPECT_FALSE(signature_refines("js:§5 rem", "c:§5 lt rem"));    // another target
  // A failure located in a turn narrows to some of its statements (failing_turn.hpp).
  EXPECT_TRUE(signature_refines("c:crash:SIGSEGV in §6.6 spawn", "c:crash:SIGSEGV in §6.5 send + §6.6 spawn"));
  EXPECT_FALSE(signature_refines("c:crash:SIGSEGV in §6.5 send + §6.6 spawn", "c:crash:SIGSEGV in §6.6 spawn"));
  EXPECT_FALSE(signature_refines("c:crash:SIGSEGV in §16.2 link", "c:crash:SIGSEGV in §6.5 send + §6.6 spawn"));
  EXPECT_FALSE(signature_refines("c:crash:SIGABRT in §6.6 spawn", "c:crash:SIGSEGV in §6.5 send + §6.6 spawn"));
  EXPECT_TRUE(signature_refines("c:crash:SIGFPE in §5 div", "c:crash:SIGFPE in §5 add div"));
  EXPECT_FALSE(signature_refines("c:crash:SIGFPE in §5 div", "c:§5 div"));
}

TEST(Signature, NoVerdictIsNotADivergence) {
  // Killed from outside (failure.hpp): no verdict, where a crash of its own would be a failure.
  std::vector<TargetAnswers> targets{
      {"c", {answer(R"x({"ok":false,"code":"CRASH","message":"c: killed by signal 9 (SIGKILL)"})x")}}};
  std::vector<std::string> no_verdict;
  EXPECT_TRUE(find_divergences(Program{}, {}, {answer(kRef)}, targets, &no_verdict).empty());
  EXPECT_EQ(no_verdict, std::vector<std::string>{"c"});
}

TEST(CaseCheck, RegressionNeedsEqualAnswersKnownDivergenceTheSameDifference) {
  Case c;
  c.runs.push_back(CaseRun{RunSettings{1, 10, 10}, ojson::parse(kRef)});
  Answer same = answer(kRef);
  Answer other = answer(with(R"("to":"m")", R"("to":"n")"));
  Answer third = answer(with(R"("outcome":"quiescent")", R"("outcome":"turn_limit")"));
  EXPECT_TRUE(check_case_answers(c, "c", {same}).pass);
  EXPECT_FALSE(check_case_answers(c, "c", {other}).pass);

  c.status = "known-divergence";
  c.signature = "c:journal/deliver/to";
  EXPECT_TRUE(check_case_answers(c, "c", {other}).pass);
  CaseVerdict fixed = check_case_answers(c, "c", {same});
  EXPECT_FALSE(fixed.pass);
  EXPECT_NE(fixed.message.find("no longer reproduces"), std::string::npos) << fixed.message;
  CaseVerdict changed = check_case_answers(c, "c", {third});
  EXPECT_FALSE(changed.pass);
  EXPECT_NE(changed.message.find("now outcome"), std::string::npos) << changed.message;
  // A target the signature does not name must agree.
  EXPECT_TRUE(check_case_answers(c, "erlang", {same}).pass);
  EXPECT_FALSE(check_case_answers(c, "erlang", {other}).pass);
}

// Declared deviations and what they explain: tests/runners/dialects_test.cpp.
