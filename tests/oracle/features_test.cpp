// tests/oracle/features_test.cpp: the features a program uses (oracle/features.hpp),
// one construct at a time, and the program of `concord backend-check` that is meant
// to use every one.
#include <gtest/gtest.h>

#include "oracle/features.hpp"
#include "runners/protocol/backend_check_programs.hpp"
#include "tests/oracle/checked_program.hpp"

namespace concord {
namespace {

FeatureSet of(std::initializer_list<Feature> fs) {
  FeatureSet s;
  for (Feature f : fs) s.add(f);
  return s;
}

FeatureSet features(const std::string& text) { return program_features(checked(text)); }

const char* kWorkers =
    "kind W() { state n: int = 1 / 2; init { n = n % 3; } on go() { n = n / n; stop; } }\n"
    "process w = W();\ngiven go() to @w;\n";

TEST(Features, WorkersUseNoneWhateverTheirHandlersDo) {
  EXPECT_EQ(features(kWorkers), FeatureSet{});
  EXPECT_EQ(features(std::string("concord 2;\n") + kWorkers), FeatureSet{});
}

TEST(Features, ASupervisorIsSupervisorsInBothVersions) {
  const char* sup = "kind W() {}\nsupervisor s one_for_one intensity 1 { permanent process w = W(); }\n";
  EXPECT_EQ(features(sup), of({Feature::Supervisors}));
  EXPECT_EQ(features(std::string("concord 2;\n") + sup), of({Feature::Supervisors}));
}

TEST(Features, EachStatementOfVersion2IsItsFeature) {
  auto in_handler = [](const std::string& stmt) {
    return features("concord 2;\nkind W() { state r: int = 0; on go() { " + stmt +
                    " } on ask() { reply 1; } }\nkind Q() {}\n"
                    "supervisor s one_for_one intensity 1 { permanent process w = W(); }\nprocess v = W();\n");
  };
  FeatureSet sup = of({Feature::Supervisors});
  auto with = [&](Feature f) {
    FeatureSet s = sup;
    s.add(f);
    s.add(Feature::Calls);  // the reply of `ask`
    return s;
  };
  EXPECT_EQ(in_handler("link(@v);"), with(Feature::Links));
  EXPECT_EQ(in_handler("unlink(@v);"), with(Feature::Links));
  EXPECT_EQ(in_handler("monitor(@v);"), with(Feature::Monitors));
  EXPECT_EQ(in_handler("demonitor(@v);"), with(Feature::Monitors));
  EXPECT_EQ(in_handler("exit(@v, kill);"), with(Feature::ExitSignals));
  EXPECT_EQ(in_handler("exit(@v, BYE);"), with(Feature::ExitSignals));
  EXPECT_EQ(in_handler("trap_exit(1);"), with(Feature::TrapExit));
  EXPECT_EQ(in_handler("r = terminate_child(s, @w);"), with(Feature::SupervisorApi));
  EXPECT_EQ(in_handler("r = restart_child(s, @w);"), with(Feature::SupervisorApi));
  EXPECT_EQ(in_handler("r = delete_child(s, @w);"), with(Feature::SupervisorApi));
  EXPECT_EQ(in_handler("spawn Q() under s transient;"), with(Feature::Calls));
  EXPECT_EQ(in_handler("if r == 0 { repeat 2 { r = call ask() to @v; } }"), with(Feature::Calls));
  // A handler's stop, fail and division are no failing start.
  EXPECT_EQ(in_handler("r = 1 / r; fail X; "), with(Feature::Calls));
}

TEST(Features, AStartThatCanFailIsFailingStartsInVersion2) {
  auto init = [](const std::string& field, const std::string& body) {
    return features("concord 2;\nkind W() { state n: int = " + field + "; init { " + body +
                    " } }\nprocess w = W();\nprocess v = W();\n");
  };
  FeatureSet failing = of({Feature::FailingStarts});
  EXPECT_EQ(init("0", "ignore;"), failing);
  EXPECT_EQ(init("0", "stop;"), failing);
  EXPECT_EQ(init("0", "if n == 0 { fail BOOM; }"), failing);
  EXPECT_EQ(init("0", "n = 1 % n;"), failing);
  EXPECT_EQ(init("7 / (0 + 1)", ""), failing);           // not a literal: the checker's V4 allows it, so may it fail
  EXPECT_EQ(init("7 / 2", "n = n % 3;"), FeatureSet{});  // non-zero literals: cannot fail
  FeatureSet linked = failing;
  linked.add(Feature::Links);
  EXPECT_EQ(init("0", "link(@v);"), linked);  // NOPROC when @v is not alive yet (SPEC §16.2)
}

TEST(Features, SignificanceAndAutoShutdownAreSignificant) {
  FeatureSet sig = of({Feature::Supervisors, Feature::Significant});
  EXPECT_EQ(features("concord 2;\nkind W() {}\n"
                     "supervisor s one_for_one intensity 1 auto_shutdown all_significant {}\n"),
            sig);
  EXPECT_EQ(features("concord 2;\nkind W() {}\nsupervisor s one_for_one intensity 1 auto_shutdown any_significant {\n"
                     "  permanent supervisor t one_for_one intensity 1 auto_shutdown any_significant {\n"
                     "    transient significant process w = W(); } }\n"),
            sig);
  EXPECT_EQ(features("concord 2;\nkind W() { on go() { spawn W() under s temporary significant; } }\n"
                     "supervisor s one_for_one intensity 1 auto_shutdown any_significant {}\n"),
            sig);
}

TEST(Features, BackendChecksEveryFeatureProgramUsesEveryFeature) {
  FeatureSet all;
  for (Feature f : all_features()) all.add(f);
  EXPECT_EQ(program_features(check_programs::every_feature()), all);
  EXPECT_EQ(program_features(check_programs::workers(1)), FeatureSet{});
  EXPECT_EQ(program_features(check_programs::huge(2, 3, 5)), FeatureSet{});
}

TEST(Features, NamesReadBack) {
  for (Feature f : all_features()) {
    Feature back;
    ASSERT_TRUE(parse_feature(feature_name(f), back)) << feature_name(f);
    EXPECT_EQ(back, f);
  }
  Feature f;
  EXPECT_FALSE(parse_feature("link", f));
  EXPECT_EQ(all_features().size(), static_cast<size_t>(kFeatureCount));
}

}  // namespace
}  // namespace concord
