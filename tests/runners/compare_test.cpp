// tests/runners/compare_test.cpp: verdicts on one answer against the oracle's: by
// value with the journal event named, byte for byte, errors by code, no verdict
// for harness faults.
#include <gtest/gtest.h>

#include "runners/protocol/compare.hpp"
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
