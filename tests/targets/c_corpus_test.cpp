// tests/targets/c_corpus_test.cpp: every corpus case on the c target, through the
// backend protocol (`concord backend c`): each run's answer must equal the case's
// expected result, and its line must be byte for byte the oracle's canonical line.
// Built twice: plain (label c), and with CONCORD_SANITIZED_RUN (label sanitize),
// where the emitted C and the runtime are compiled with ASan + UBSan.
#include <gtest/gtest.h>

#include <cstdlib>

#include "oracle/interpreter.hpp"
#include "runners/backend.hpp"
#include "tests/targets/c_backend.hpp"
#include "runners/diff.hpp"
#include "runners/load.hpp"

using namespace concord;

namespace {

class CaseOnC : public testing::Test {
 public:
  explicit CaseOnC(std::string path) : path_(std::move(path)) {}
  void TestBody() override {
    Case c = load_case(path_);
    std::vector<RunSettings> runs;
    for (const CaseRun& r : c.runs) runs.push_back(r.settings);
    // Two more settings than the case has, so each program runs at several seeds.
    runs.push_back(RunSettings{0xdeadbeef, 40, 4});
    runs.push_back(RunSettings{1, 0, 10000});
    std::vector<Answer> answers = c_backend().request(program_to_json(c.program), runs);
    ASSERT_EQ(answers.size(), runs.size());
    for (size_t i = 0; i < runs.size(); i++) {
      std::string oracle = result_line(run(c.program, runs[i]));
      oracle.pop_back();  // the newline
      EXPECT_EQ(answers[i].line, oracle) << path_ << " run " << i;
      if (i < c.runs.size()) {
        auto d = first_difference(c.runs[i].expect, answers[i].json);
        EXPECT_FALSE(d.has_value()) << path_ << " run " << i << ": " << describe(*d, "expected", "c");
      }
    }
  }

 private:
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
#ifdef CONCORD_SANITIZED_RUN
  setenv("CONCORD_CC", "cc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined", 1);
  setenv("CONCORD_RT_LIB", CONCORD_RT_SANITIZED_LIB, 1);
#endif
  std::vector<std::string> files = find_cases(std::string(CONCORD_SOURCE_DIR) + "/corpus");
  if (files.empty()) return 1;
  for (const std::string& f : files) {
    std::string name = f.substr(f.find("corpus/") + 7);
    name = name.substr(0, name.size() - 10);
    for (char& ch : name)
      if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    testing::RegisterTest("CorpusOnC", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [f]() -> testing::Test* { return new CaseOnC(f); });
  }
  return RUN_ALL_TESTS();
}
