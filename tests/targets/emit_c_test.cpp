// tests/targets/emit_c_test.cpp: the C emitter's output compiles warning-free
// (-Wall -Wextra -Werror) under gcc, clang and tcc for every corpus program, and
// what the program names reach the C file only inside string literals.
#include <gtest/gtest.h>

#include <boost/process.hpp>
#include <filesystem>
#include <fstream>

#include "oracle/check.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/load.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/common/build_paths.hpp"

namespace bp = boost::process;
namespace fs = std::filesystem;
using namespace concord;

namespace {

std::vector<std::string> corpus_programs() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(std::string(build_paths::source_dir) + "/corpus/hand"))
    if (e.path().extension() == ".conc") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Compiles every corpus program's C with `compiler flags... -c`; returns failures.
void compiles_everything_with(const std::vector<std::string>& compiler) {
  std::string exe = bp::search_path(compiler[0]).string();
  ASSERT_FALSE(exe.empty()) << compiler[0] << " is not installed (scripts/setup.sh installs it)";
  fs::path dir = fs::temp_directory_path() / ("concord_emit_" + compiler[0] + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> programs = corpus_programs();
  ASSERT_GE(programs.size(), 30u);
  for (const std::string& f : programs) {
    fs::path c_file = dir / (fs::path(f).stem().string() + ".c");
    std::ofstream(c_file) << emit_c(load_program(f));
    std::vector<std::string> args(compiler.begin() + 1, compiler.end());
    args.insert(args.end(), {"-Werror", std::string("-I") + build_paths::c_runtime_include, "-c", "-o",
                             (dir / "x.o").string(), c_file.string()});
    bp::ipstream err;
    int code = bp::system(exe, bp::args(args), bp::std_err > err, bp::std_out > bp::null);
    std::string msg((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    EXPECT_EQ(code, 0) << compiler[0] << " on " << f << ":\n" << msg;
  }
  fs::remove_all(dir);
}

}  // namespace

TEST(EmitC, CompilesUnderGcc) { compiles_everything_with({"gcc", "-std=c11", "-Wall", "-Wextra", "-pedantic"}); }
TEST(EmitC, CompilesUnderClang) { compiles_everything_with({"clang", "-std=c11", "-Wall", "-Wextra", "-pedantic"}); }
TEST(EmitC, CompilesUnderTcc) { compiles_everything_with({"tcc", "-Wall"}); }

TEST(EmitC, NamesAppearOnlyAsStringLiterals) {
  Program p = parse_program(
      "kind Wicked_Kind(x: int) {\n state evil_field: int = x;\n on evil_tag() { fail EVIL_CODE; }\n}\n"
      "process evil_proc = Wicked_Kind(-9223372036854775808);\ngiven evil_tag() to @evil_proc;\n");
  check(p);
  std::string c = emit_c(p);
  for (std::string name : {"Wicked_Kind", "evil_field", "evil_tag", "EVIL_CODE", "evil_proc"}) {
    size_t at = c.find(name);
    ASSERT_NE(at, std::string::npos) << name;
    for (; at != std::string::npos; at = c.find(name, at + 1))
      EXPECT_EQ(c[at - 1], '"') << name << " outside a literal";
  }
  EXPECT_NE(c.find("(-9223372036854775807LL - 1)"), std::string::npos);  // INT64_MIN has no literal in C
  EXPECT_NE(c.find("\"wicked_kind-\""), std::string::npos);              // the spawn-name prefix (SPEC §2)
}
