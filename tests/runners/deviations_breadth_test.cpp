// tests/runners/deviations_breadth_test.cpp: a declaration of deviations cannot
// silence a campaign (issue 40, defect 6). A deviation is one known departure from
// one rule: it names a few difference kinds of a result's fields, not the whole
// result, not errors or failures (never explained anyway), and a backend's
// declarations together cannot cover most of what a campaign can see.
#include <gtest/gtest.h>

#include <fstream>

#include "oracle/error.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/deviations.hpp"
#include "tests/runners/run_concord.hpp"

using namespace concord;

namespace {

ojson declaration(const std::string& id, const std::vector<std::string>& kinds) {
  return ojson{{"id", id},          {"rule", "SPEC §7.2"},  {"signatures", kinds},
               {"about", "a test"}, {"experiment", "none"}, {"source", "none"}};
}

// The message of the InputError parse_deviations throws, or "" when it accepts.
std::string refusal(const ojson& declarations) {
  try {
    parse_deviations(declarations, "deviations");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return "";
}

// Every kind a result's first difference can have, near enough: what a blanket
// declaration lists.
std::vector<std::string> every_kind() {
  std::vector<std::string> out = {"outcome", "turns", "run/seed"};
  for (const char* ev : {"start", "deliver", "drop", "exit", "decision", "signal", "call", "resume", "api"})
    for (const char* field : {"ev", "turn", "name", "to", "from", "tag", "args", "reason", "action", "absent", "extra"})
      out.push_back(std::string("journal/") + ev + "/" + field);
  return out;
}

}  // namespace

TEST(DeviationsBreadth, ANarrowDeclarationIsAccepted) {
  EXPECT_EQ(refusal(ojson::array({declaration("a", {"journal/decision/action"}),
                                  declaration("b", {"supervisors/children/name", "supervisors/children/absent"})})),
            "");
}

TEST(DeviationsBreadth, OneDeclarationOfEveryKindIsRefusedByName) {
  std::string why = refusal(ojson::array({declaration("everything", every_kind())}));
  EXPECT_NE(why.find("everything"), std::string::npos) << why;
  EXPECT_NE(why.find("difference kinds"), std::string::npos) << why;
}

TEST(DeviationsBreadth, ManyDeclarationsCoveringEveryKindAreRefused) {
  ojson all = ojson::array();
  int i = 0;
  for (const std::string& k : every_kind()) all.push_back(declaration("d" + std::to_string(i++), {k}));
  std::string why = refusal(all);
  EXPECT_NE(why.find("in all"), std::string::npos) << why;
}

TEST(DeviationsBreadth, TheWholeResultAndErrorsAreNoKindADeviationExplains) {
  for (const char* k : {"result", "bytes", "error/INTERNAL", "oracle-error/MEMORY", "crash:SIGSEGV", "crash:exit",
                        "hang", "memory", "bad-output"})
    EXPECT_NE(refusal(ojson::array({declaration("blanket", {k})})).find("blanket"), std::string::npos) << k;
}

// On the command line: bad input (exit 2) naming the declaration, before anything runs.
TEST(DeviationsBreadth, ABlanketDeclarationIsBadInputOnTheCommandLine) {
  TempDir dir("concord-deviations-test");
  std::string file = dir.path() + "/backends.json";
  ojson mine;
  mine["command"] = ojson::array({std::string(build_paths::concord_binary), "backend", "oracle"});
  mine["deviations"] = ojson::array({declaration("everything", every_kind())});
  ojson backends;
  backends["backends"]["mine"] = mine;
  std::ofstream(file) << backends.dump();
  auto o = test::run_concord({"run", std::string(build_paths::source_dir) + "/corpus/hand/one_for_one_restart.conc",
                              "--target", "mine", "--backends", file});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("everything"), std::string::npos) << o.err;
}
