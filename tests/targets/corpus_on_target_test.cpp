// tests/targets/corpus_on_target_test.cpp: every corpus case (corpus/**/*.case.json,
// hand-written and found by campaigns) on one target through the backend protocol
// (`concord backend TARGET`). Built once, discovered once per target variant, each
// with its own arguments (tests/CMakeLists.txt):
//   c          the c target with its default compiler (tcc when installed)
//   cc         the c target compiled by cc -O1
//   sanitize   the emitted C and the runtime built with ASan + UBSan
//   erlang     the erlang target; every request is sent twice and must get the
//              same bytes again (the conductor is deterministic, reloading a module
//              changes nothing)
//   js         the js target, every request twice too (each program is loaded in a
//              fresh context; nothing of one request may change the next)
//   elixir     the elixir target, every request twice as for erlang
// The c variants are one ctest per case; erlang, js and elixir one per corpus folder
// (--concord-under=FOLDER/: only the cases there are tests), since a process boots
// its node once: per case, the boot was most of the test (erlang 42 s per case
// against 5 s per process on 88 cases, elixir 60 s against 24 s). gtest still names
// each case: `corpus_on_target_test --concord-target=T --gtest_filter=CorpusOnTarget.NAME`
// reruns one.
// A "regression" case passes when every answer equals its expected result, or
// differs from it as a declared deviation of the target explains (a known
// deviation, printed); a "known-divergence" when the divergence is still the
// recorded one (case_check.hpp). Each program also runs at two more settings,
// where the target's line must equal the oracle's byte for byte (unless the
// target is a known divergence of the case, or a declared deviation explains it).
// Tests are discovered when ctest runs, so a case a campaign just wrote is a test.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <iostream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/targets.hpp"

using namespace concord;

namespace {

// The variant, from the command line: --concord-target=c|erlang|js|elixir, --concord-cc=COMMAND,
// --concord-rt-lib=PATH, --concord-ask-twice, --concord-under=FOLDER/.
std::string g_target;
std::string g_under;  // a path relative to corpus/: only the cases under it are tests
bool g_ask_twice = false;

const std::vector<Deviation>& deviations() {
  static const std::vector<Deviation> d =
      find_target(g_target) ? builtin_deviations(*find_target(g_target)) : std::vector<Deviation>{};
  return d;
}

Backend& backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = g_target;
    s.command = {build_paths::concord_binary, "backend", g_target};
    s.run_timeout = 60;  // the first run of a program includes compiling it (slow under the sanitizers)
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

class CaseOnTarget : public testing::Test {
 public:
  explicit CaseOnTarget(std::string path) : path_(std::move(path)) {}
  void TestBody() override {
    ASSERT_FALSE(g_target.empty())
        << "usage: corpus_on_target_test --concord-target=c|erlang|js|elixir [--concord-cc=COMMAND] "
           "[--concord-rt-lib=PATH] [--concord-ask-twice]";
    Case c;
    try {
      c = load_case(path_);
    } catch (const InputError& e) {
      FAIL() << e.what();
    }
    std::vector<RunSettings> runs;
    for (const CaseRun& r : c.runs) runs.push_back(r.settings);
    runs.push_back(RunSettings{0xdeadbeef, 40, 4});
    runs.push_back(RunSettings{1, 0, 10000});
    ojson program = program_to_json(c.program);
    std::vector<Answer> answers = backend().request(program, runs);
    ASSERT_EQ(answers.size(), runs.size());

    CaseVerdict v = check_case_answers(c, g_target, answers, deviations(), answering(backend()));
    EXPECT_TRUE(v.pass) << path_ << " (" << c.status << ") run " << v.run << ":\n" << v.message;
    if (!v.deviation.empty())
      std::cout << "known deviation " << v.deviation << " of " << g_target << " on run " << v.deviation_run << "\n";
    bool known = c.status == "known-divergence" && !signature_kind(c.signature, g_target).empty();
    for (size_t i = c.runs.size(); i < runs.size() && !known; i++) {
      Answer want = oracle_answer(c.program, runs[i]);
      if (answers[i].line == want.line) continue;
      std::vector<const Deviation*> ex = explaining(deviations(), c.program, runs[i], answers[i]);
      if (!ex.empty())
        std::cout << "known deviation " << deviation_ids(ex) << " of " << g_target << " on extra run " << i << "\n";
      else
        EXPECT_EQ(answers[i].line, want.line) << path_ << " extra run " << i;
    }
    if (!g_ask_twice) return;
    std::vector<Answer> again = backend().request(program, runs);
    ASSERT_EQ(again.size(), runs.size());
    for (size_t i = 0; i < runs.size(); i++)
      EXPECT_EQ(again[i].line, answers[i].line) << path_ << " run " << i << ": a second request answered differently";
  }

 private:
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&](const std::string& flag) { return a.substr(flag.size()); };
    if (a.rfind("--concord-target=", 0) == 0)
      g_target = value("--concord-target=");
    else if (a.rfind("--concord-cc=", 0) == 0)
      setenv("CONCORD_CC", value("--concord-cc=").c_str(), 1);
    else if (a.rfind("--concord-rt-lib=", 0) == 0)
      setenv("CONCORD_RT_LIB", value("--concord-rt-lib=").c_str(), 1);
    else if (a == "--concord-ask-twice")
      g_ask_twice = true;
    else if (a.rfind("--concord-under=", 0) == 0)
      g_under = value("--concord-under=");
  }
  // (Listing the tests, as ctest's discovery does, needs no target.)
  const std::string root = std::string(build_paths::source_dir) + "/corpus/";
  std::vector<std::string> files = find_cases(root);
  if (files.empty()) return 1;
  size_t registered = 0;
  for (const std::string& f : files) {
    // Relative to the corpus folder, as tests/CMakeLists.txt names the tests (the
    // checkout's own path may contain "corpus/": a test then matched no filter).
    std::string name = f.substr(root.size());
    if (name.rfind(g_under, 0) != 0) continue;
    registered++;
    name = name.substr(0, name.size() - 10);
    for (char& ch : name)
      if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    testing::RegisterTest("CorpusOnTarget", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [f]() -> testing::Test* { return new CaseOnTarget(f); });
  }
  if (registered == 0) {  // a folder named wrong must not pass as "no tests"
    std::cerr << "corpus_on_target_test: no case under " << root << g_under << "\n";
    return 1;
  }
  return RUN_ALL_TESTS();
}
