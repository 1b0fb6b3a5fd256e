// tests/runners/backend_check_test.cpp: `concord backend-check NAME` as a runtime's
// author runs it, on the oracle (every check passes), on the toy backend of
// examples/toy-backend (with its declaration, which skips not-claimed; without, where
// it answers UNSUPPORTED), and on tests/runners/broken_backend.py, which gets four
// checks wrong on purpose: exactly those fail.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

CommandResult run_concord(std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, "", {}}, "", 300);
}

// Each check's status word, by its id: "PASS  runs: ..." -> {"runs": "PASS"}.
std::map<std::string, std::string> statuses(const std::string& out) {
  std::map<std::string, std::string> m;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 7 || line.compare(4, 2, "  ") != 0) continue;
    size_t colon = line.find(':', 6);
    m[line.substr(6, colon - 6)] = line.substr(0, 4);
  }
  return m;
}

std::string toy_script() { return std::string(build_paths::source_dir) + "/examples/toy-backend/toy_backend.py"; }

// The toy's declaration (examples/toy-backend/toy.backends.json) with its command absolute.
std::string toy_backends_file() {
  fs::path f = fs::temp_directory_path() / ("concord_toy_backends_" + std::to_string(::getpid()) + ".json");
  std::ofstream(f) << R"({"backends":{"toy":{"command":["python3",")" << toy_script()
                   << R"("],"supports":{"versions":[1],"features":[]}}}})";
  return f.string();
}

const std::vector<std::string> kChecks = {"runs", "not-json", "invalid-program", "unknown-setting", "not-claimed",
                                          "huge", "eof"};

}  // namespace

TEST(BackendCheck, TheOraclePassesEveryCheck) {
  CommandResult r = run_concord({"backend-check", "oracle"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  std::map<std::string, std::string> s = statuses(r.out);
  for (const std::string& id : kChecks) EXPECT_EQ(s[id], "PASS") << id << "\n" << r.out;
  EXPECT_NE(r.out.find("oracle: 7 passed, 0 failed"), std::string::npos) << r.out;
}

TEST(BackendCheck, TheToyPassesAndSkipsWhatItsDeclarationDoesNotClaim) {
  std::string file = toy_backends_file();
  CommandResult r = run_concord({"backend-check", "toy", "--backends", file});
  fs::remove(file);
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  std::map<std::string, std::string> s = statuses(r.out);
  for (const std::string& id : kChecks) EXPECT_EQ(s[id], id == "not-claimed" ? "SKIP" : "PASS") << id << "\n" << r.out;
  EXPECT_NE(r.out.find("claims version 1, no features"), std::string::npos) << r.out;
}

TEST(BackendCheck, TheToyDeclaredWithoutSupportsAnswersUnsupported) {
  CommandResult r = run_concord({"backend-check", "toy", "--backend", "toy=python3 " + toy_script()});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_EQ(statuses(r.out)["not-claimed"], "PASS") << r.out;
  EXPECT_NE(r.out.find("got 2 UNSUPPORTED"), std::string::npos) << r.out;
}

TEST(BackendCheck, ABrokenBackendFailsExactlyTheChecksItGetsWrong) {
  std::string cmd = "broken=python3 " + std::string(build_paths::source_dir) + "/tests/runners/broken_backend.py " +
                    build_paths::concord_binary;
  CommandResult r = run_concord({"backend-check", "broken", "--backend", cmd});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  std::map<std::string, std::string> s = statuses(r.out);
  const std::set<std::string> wrong = {"not-json", "invalid-program", "unknown-setting", "eof"};
  for (const std::string& id : kChecks) EXPECT_EQ(s[id], wrong.count(id) ? "FAIL" : "PASS") << id << "\n" << r.out;
  // Each failure says what was expected and what came back.
  EXPECT_NE(r.out.find("expected one BAD_REQUEST line, then the next request served; got CRASH"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("run 0: INTERNAL (no handlers)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("got run 0: a result"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("got still running after 5 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken: 3 passed, 4 failed"), std::string::npos) << r.out;
}

TEST(BackendCheck, BadInputIsExit2) {
  EXPECT_EQ(run_concord({"backend-check"}).status.code, 2);
  EXPECT_EQ(run_concord({"backend-check", "nosuch"}).status.code, 2);
  EXPECT_EQ(run_concord({"backend-check", "all"}).status.code, 2);
  EXPECT_EQ(run_concord({"backend-check", "oracle,c"}).status.code, 2);
}
