// tests/targets/erlang_corpus_test.cpp: every corpus case on the erlang target,
// through the backend protocol (`concord backend erlang`, one node per test
// process): each run's answer must equal the case's expected result, and its line
// must be byte for byte the oracle's canonical line. Every request is sent twice to
// the same node and must get the same bytes again: the conductor is deterministic,
// and loading the module anew over its previous copy changes nothing.
#include <gtest/gtest.h>

#include <cctype>

#include "oracle/interpreter.hpp"
#include "runners/backend.hpp"
#include "runners/diff.hpp"
#include "runners/load.hpp"
#include "tests/targets/erlang_backend.hpp"

using namespace concord;

namespace {

class CaseOnErlang : public testing::Test {
 public:
  explicit CaseOnErlang(std::string path) : path_(std::move(path)) {}
  void TestBody() override {
    Case c = load_case(path_);
    std::vector<RunSettings> runs;
    for (const CaseRun& r : c.runs) runs.push_back(r.settings);
    // Two more settings than the case has, so each program runs at several seeds.
    runs.push_back(RunSettings{0xdeadbeef, 40, 4});
    runs.push_back(RunSettings{1, 0, 10000});
    ojson program = program_to_json(c.program);
    std::vector<Answer> answers = erlang_backend().request(program, runs);
    std::vector<Answer> again = erlang_backend().request(program, runs);
    ASSERT_EQ(answers.size(), runs.size());
    ASSERT_EQ(again.size(), runs.size());
    for (size_t i = 0; i < runs.size(); i++) {
      std::string oracle = result_line(run(c.program, runs[i]));
      oracle.pop_back();  // the newline
      EXPECT_EQ(answers[i].line, oracle) << path_ << " run " << i;
      EXPECT_EQ(again[i].line, answers[i].line) << path_ << " run " << i << ": a second request answered differently";
      if (i < c.runs.size()) {
        auto d = first_difference(c.runs[i].expect, answers[i].json);
        EXPECT_FALSE(d.has_value()) << path_ << " run " << i << ": " << describe(*d, "expected", "erlang");
      }
    }
  }

 private:
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> files = find_cases(std::string(CONCORD_SOURCE_DIR) + "/corpus");
  if (files.empty()) return 1;
  for (const std::string& f : files) {
    std::string name = f.substr(f.find("corpus/") + 7);
    name = name.substr(0, name.size() - 10);
    for (char& ch : name)
      if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    testing::RegisterTest("CorpusOnErlang", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [f]() -> testing::Test* { return new CaseOnErlang(f); });
  }
  return RUN_ALL_TESTS();
}
