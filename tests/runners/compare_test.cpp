// tests/runners/compare_test.cpp: verdicts on one answer against the oracle's: by
// value with the journal event named, byte for byte, errors by code, no verdict
// for harness faults.
#include <gtest/gtest.h>

#include "runners/protocol/compare.hpp"
#include "runners/protocol/diff.hpp"
#include "tests/runners/answer_line.hpp"

using namespace concord;

namespace {

const std::string kRef =
    R"({"ok":true,"run":{"seed":0,"turns":10,"max_processes":5},"outcome":"quiescent","turns":1,)"
    R"("journal":[{"ev":"start","turn":0,"name":"a","kind":"P"},{"ev":"deliver","turn":1,"ready":1,"to":"a","from":null,"tag":"ping","args":[]}]})";

}  // namespace

TEST(Compare, IdenticalLinesAgree) {
  Comparison c = compare_answers("oracle", answer(kRef), "c", answer(kRef));
  EXPECT_EQ(c.verdict, Verdict::kAgree);
  EXPECT_EQ(c.report, "");
}

TEST(Compare, AValueDifferenceNamesTheEventTheFieldAndBothValues) {
  std::string got = kRef;
  got.replace(got.find("\"ping\""), 6, "\"pong\"");
  Comparison c = compare_answers("oracle", answer(kRef), "lying", answer(got));
  EXPECT_EQ(c.verdict, Verdict::kDiffer);
  EXPECT_NE(c.report.find("/journal/1/tag (journal event 1 (deliver), field tag)"), std::string::npos) << c.report;
  EXPECT_NE(c.report.find("oracle: \"ping\""), std::string::npos) << c.report;
  EXPECT_NE(c.report.find("lying: \"pong\""), std::string::npos) << c.report;
}

TEST(Compare, AFormattingDifferenceAloneIsStillADivergence) {
  std::string got = kRef;
  got.replace(got.find("\"outcome\":"), 10, "\"outcome\": ");
  Comparison c = compare_answers("oracle", answer(kRef), "c", answer(got));
  EXPECT_EQ(c.verdict, Verdict::kDiffer);
  EXPECT_NE(c.report.find("same JSON value, different bytes"), std::string::npos) << c.report;
  EXPECT_NE(c.report.find("byte " + std::to_string(kRef.find("\"outcome\":") + 10)), std::string::npos) << c.report;
}

TEST(Compare, ErrorsCompareByCodeAndHarnessFaultsGiveNoVerdict) {
  Answer unsupported = answer(R"({"ok":false,"code":"UNSUPPORTED","message":"spawn under"})");
  Answer other = answer(R"({"ok":false,"code":"UNSUPPORTED","message":"something else"})");
  EXPECT_EQ(compare_answers("oracle", unsupported, "c", other).verdict, Verdict::kAgree);
  EXPECT_EQ(compare_answers("oracle", answer(kRef), "c", unsupported).verdict, Verdict::kDiffer);
  Comparison crash = compare_answers("oracle", answer(kRef), "c", harness_error("CRASH", "c: exited with 1"));
  EXPECT_EQ(crash.verdict, Verdict::kNoVerdict);
  EXPECT_NE(crash.report.find("CRASH"), std::string::npos);
  EXPECT_EQ(compare_answers("oracle", answer(kRef), "c", harness_error("BAD_OUTPUT", "x")).verdict, Verdict::kDiffer);
}

TEST(Compare, LocateOnlyNamesJournalEvents) {
  ojson r = ojson::parse(kRef);
  EXPECT_EQ(locate("/journal/0", r), "journal event 0 (start)");
  EXPECT_EQ(locate("/journal/1/args/0", r), "journal event 1 (deliver), field args/0");
  EXPECT_EQ(locate("/outcome", r), "");
}

// Issue 37: a target that answers an error with a message of megabytes; the report
// names the code and the message's start, never the whole of it.
TEST(Compare, AnErrorAnswerShowsItsCodeAndABoundedMessage) {
  std::string big(100000, 'x');
  Answer refused = answer(R"({"ok":false,"code":"UNSUPPORTED","message":"spawn under a supervisor )" + big + R"("})");
  Comparison c = compare_answers("oracle", answer(kRef), "mine", refused);
  EXPECT_EQ(c.verdict, Verdict::kDiffer);
  EXPECT_NE(c.report.find("oracle: a result (quiescent after 1 turns)"), std::string::npos) << c.report;
  EXPECT_NE(c.report.find("mine: error UNSUPPORTED: spawn under a supervisor xxx"), std::string::npos) << c.report;
  EXPECT_NE(c.report.find("... (100025 bytes)"), std::string::npos) << c.report.substr(0, 500);
  EXPECT_LT(c.report.size(), kMessageShown + 200);
  // A harness's CRASH (no verdict) too.
  Comparison crash = compare_answers("oracle", answer(kRef), "mine", harness_error("CRASH", "mine: " + big));
  EXPECT_EQ(crash.verdict, Verdict::kNoVerdict);
  EXPECT_LT(crash.report.size(), kMessageShown + 200);
}

// A message is cut on a character's boundary: never half of a UTF-8 sequence.
TEST(Compare, ABoundedMessageKeepsWholeCharacters) {
  std::string text = std::string(kMessageShown - 1, 'a') + "\xc3\xa9" + "zzz";  // é across the cut
  std::string cut = bounded_message(text);
  EXPECT_EQ(cut, std::string(kMessageShown - 1, 'a') + "... (" + std::to_string(text.size()) + " bytes)");
  EXPECT_EQ(bounded_message("short"), "short");
}

// The journal before what follows from it: a target that delivered another message
// at event 1 and so ran one turn more is shown at event 1, not at /turns.
TEST(Compare, TheFirstDifferenceIsTheJournalsBeforeTheTurnCount) {
  std::string got = kRef;
  got.replace(got.find("\"turns\":1,"), 10, "\"turns\":2,");
  got.replace(got.find("\"ping\""), 6, "\"pong\"");
  Comparison c = compare_answers("oracle", answer(kRef), "lying", answer(got));
  EXPECT_NE(c.report.find("first difference at /journal/1/tag (journal event 1 (deliver), field tag)"),
            std::string::npos)
      << c.report;
  std::optional<Difference> d = first_causal_difference(ojson::parse(kRef), ojson::parse(got));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pointer, "/journal/1/tag");
  EXPECT_EQ(first_difference(ojson::parse(kRef), ojson::parse(got))->pointer, "/turns");  // key order: the detail's
  // An error against a result differs first at `ok`, whatever else.
  EXPECT_EQ(
      first_causal_difference(ojson::parse(kRef), ojson::parse(R"({"ok":false,"code":"X","message":""})"))->pointer,
      "/ok");
}
