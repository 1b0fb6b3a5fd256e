// tests/runners/corpus_test.cpp: every corpus case (corpus/**/*.case.json) is a
// test; each run's oracle result must equal its expected result (whatever the
// case's status: a known divergence is a target's, never the oracle's).
#include <gtest/gtest.h>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;

namespace {

class CaseTest : public testing::Test {
 public:
  explicit CaseTest(std::string path) : path_(std::move(path)) {}
  void TestBody() override {
    Case c;
    try {
      c = load_case(path_);
    } catch (const InputError& e) {
      FAIL() << e.what();
    }
    std::vector<Answer> got;
    for (const CaseRun& r : c.runs) got.push_back(oracle_answer(c.program, r.settings));
    CaseVerdict v = check_case_answers(c, "oracle", got);  // the oracle is never a divergence
    EXPECT_TRUE(v.pass) << path_ << " run " << v.run << ":\n" << v.message;
  }

 private:
  std::string path_;
};

const std::string& corpus_root() {
  static const std::string root = std::string(build_paths::source_dir) + "/corpus/";
  return root;
}

// Relative to the corpus folder, as tests/CMakeLists.txt names the tests (the
// checkout's own path may contain "corpus/": a test then matched no filter).
std::string test_name(const std::string& path) {
  std::string base = path.substr(corpus_root().size());
  base = base.substr(0, base.size() - 10);
  for (char& ch : base)
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return base;
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> files = find_cases(corpus_root());
  for (const std::string& f : files)
    testing::RegisterTest("Corpus", test_name(f).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [f]() -> testing::Test* { return new CaseTest(f); });
  if (files.empty()) {
    std::fprintf(stderr, "no corpus cases found under %s/corpus\n", build_paths::source_dir);
    return 1;
  }
  return RUN_ALL_TESTS();
}
