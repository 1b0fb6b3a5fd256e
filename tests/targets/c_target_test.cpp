// tests/targets/c_target_test.cpp: the c target beyond the corpus. Random valid
// programs (generators/) give byte for byte the oracle's result lines through
// `concord backend c`; and a compiled program that runs out of memory answers the
// MEMORY error line, then answers its next run correctly.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <boost/process.hpp>
#include <filesystem>
#include <fstream>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/targets/c_backend.hpp"
#include "tests/targets/v2_programs.hpp"

namespace bp = boost::process;
namespace fs = std::filesystem;
using namespace concord;

namespace {}  // namespace

// The number of programs is RC_PARAMS' max_success (tests/CMakeLists.txt sets it:
// each program is compiled once, so this test is bounded by compile time).
RC_GTEST_PROP(CTarget, GeneratedProgramsGiveTheOraclesLines, ()) {
  Program p = *gen::any_program();
  check(p);
  std::vector<RunSettings> runs = *rc::gen::container<std::vector<RunSettings>>(3, gen::any_run_settings());
  std::vector<Answer> got = c_backend().request(program_to_json(p), runs);
  RC_ASSERT(got.size() == runs.size());
  for (size_t i = 0; i < runs.size(); i++) {
    std::string want = oracle_line(p, runs[i]);
    if (got[i].line != want)
      RC_LOG() << print_program(p) << "\nrun " << i << "\n  oracle: " << want << "\n  c:      " << got[i].line << "\n";
    RC_ASSERT(got[i].line == want);
  }
}

TEST(CTarget, OutOfMemoryIsAnErrorLineAndTheNextRunStillWorks) {
  // Every turn spawns 1000 processes that stay alive: a million turns cannot fit
  // in the 64 MiB the program is allowed.
  Program p = parse_program(
      "kind Idle() { state x: int = 0; on never() {} }\n"
      "kind S() { on go() { repeat 1000 { spawn Idle(); } send go() to self; } }\n"
      "process s = S();\ngiven go() to @s;\n");
  check(p);
  fs::path dir = fs::temp_directory_path() / ("concord_oom_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "p.c") << emit_c(p);
  // Built here from the runtime's sources, not from the build's library: in the
  // sanitizer build that library is instrumented, and ASan cannot run under ulimit -v.
  std::vector<std::string> args = {"-O1", std::string("-I") + build_paths::c_runtime_include, (dir / "p.c").string()};
  for (const auto& e : fs::directory_iterator(build_paths::c_runtime_include))
    if (e.path().extension() == ".c") args.push_back(e.path().string());
  args.insert(args.end(), {"-o", (dir / "p").string()});
  int cc = bp::system(bp::search_path("cc"), bp::args(args));
  ASSERT_EQ(cc, 0);
  bp::ipstream out;
  bp::opstream in;
  bp::child c(bp::search_path("bash"), "-c", "ulimit -v 65536; exec " + (dir / "p").string(), bp::std_out > out,
              bp::std_in < in);
  in << "1 100000000 10000000\n0 3 10\n";
  in.flush();
  in.pipe().close();
  std::string first, second;
  std::getline(out, first);
  std::getline(out, second);
  c.wait();
  fs::remove_all(dir);
  EXPECT_EQ(first, R"({"ok":false,"code":"MEMORY","message":"out of memory"})");
  EXPECT_EQ(second, oracle_line(p, RunSettings{0, 3, 10}));
  EXPECT_EQ(c.exit_code(), 0);
}
