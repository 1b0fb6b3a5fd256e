// tests/export/export_names_test.cpp: `concord export` and hostile case names
// (issue 40, defects 1 and 2). A case's name becomes file names and identifiers
// of generated sources: a name that is code, or a path, is refused (exit 2, the
// file and /name named) and nothing is written; a valid name that is no
// identifier (dots, dashes) still yields sources that compile, since every name
// is emitted through each language's escaping; and the writer itself keeps every
// file inside the export folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "export/export.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const char* kProgram = R"(kind K() { on go() { fail BOOM; } }
process m = K();
given go() to @m;
)";

// A valid case file named `name` (its program inline), at dir/case.case.json.
std::string write_case(const std::string& dir, const std::string& name) {
  Program p = program_from_source(kProgram, "test");
  NewCase c;
  c.about = "a test case";
  c.program = program_to_json(p);
  RunSettings r{7, 100, 10};
  c.runs.push_back(CaseRun{r, oracle_answer(p, r).json});
  c.signature = "c:outcome";
  std::string path = dir + "/case.case.json";
  ojson j = case_json(c);
  j["name"] = name;  // as written, even "" (case_json would name it by its signature)
  std::ofstream(path) << j.dump(2);
  return path;
}

CommandResult run(std::vector<std::string> argv, const std::string& dir = "") {
  return run_command(Command{std::move(argv), {}, dir, {}}, "", 120);
}

CommandResult run_concord(std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run(std::move(args));
}

// Every file under dir, relative to it.
std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (!e.is_directory()) out.push_back(fs::relative(e.path(), dir).string());
  return out;
}

const char* const kFormats[] = {"ct", "exunit", "c", "gtest"};

}  // namespace

// Each name would break out of the literal or identifier it was pasted into in
// one of the formats (a command run by the exported test), or is not a name.
TEST(ExportNames, ANameThatIsCodeIsRefusedAndNothingIsWritten) {
  const std::vector<std::string> names = {
      "x\\n\"); system(\"touch pwned\"); printf(\"",         // c: a printf string
      "x_SUITE).\n-compile(export_all).\n-module(y",         // ct: the module line
      "a#{File.write!(\"pwned\", \"\")}",                    // exunit: a string's interpolation
      "A, Run0) { std::system(\"touch pwned\"); }\nTEST(B",  // gtest: the TEST macro
      "",
      "-rf",
      std::string(300, 'a')};
  for (const std::string& name : names)
    for (const char* format : kFormats) {
      TempDir dir("concord-export-names");
      std::string file = write_case(dir.path(), name);
      CommandResult r = run_concord({"export", file, "--as", format, "--out", dir.path() + "/out"});
      EXPECT_EQ(r.status.code, 2) << format << " " << name << "\n" << r.out << r.err;
      EXPECT_NE(r.err.find("case.case.json: /name"), std::string::npos) << format << " " << name << "\n" << r.err;
      EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{"case.case.json"}) << format << " " << name;
    }
}

// Defect 2: a name with `..` or an absolute name wrote outside --out.
TEST(ExportNames, ANameThatIsAPathCannotWriteOutsideOut) {
  for (const char* format : kFormats) {
    TempDir dir("concord-export-paths");
    fs::create_directories(dir.path() + "/a/b");
    for (const std::string& name : {std::string("../escaped"), std::string("../../escaped"), dir.path() + "/abs"}) {
      std::string file = write_case(dir.path() + "/a/b", name);
      CommandResult r = run_concord({"export", file, "--as", format, "--out", dir.path() + "/a/b/out"});
      EXPECT_EQ(r.status.code, 2) << format << " " << name << "\n" << r.out << r.err;
      EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{"a/b/case.case.json"}) << format << " " << name;
    }
  }
}

// The writer's own guard, whatever made the file list.
TEST(ExportNames, WriteExportedKeepsEveryFileInsideItsFolder) {
  TempDir dir("concord-export-write");
  for (const std::string& path : {std::string("../x.c"), std::string("in/../../x.c"), dir.path() + "/x.c"}) {
    Exported e;
    e.files.push_back({path, "int x;\n"});
    EXPECT_THROW(write_exported(dir.path() + "/out", e), InputError) << path;
    EXPECT_FALSE(fs::exists(dir.path() + "/x.c")) << path;
  }
}

// A valid name that is no identifier in any of the languages: each export's test
// source still parses (erlc, elixir's parser, cc, g++ with gtest's header).
TEST(ExportNames, AValidNameThatIsNoIdentifierStillCompiles) {
  const std::string name = "fifo.mailbox-2";
  for (const char* format : kFormats) {
    TempDir dir("concord-export-valid");
    std::string file = write_case(dir.path(), name), out = dir.path() + "/out";
    CommandResult r = run_concord({"export", file, "--as", format, "--out", out});
    ASSERT_EQ(r.status.code, 0) << format << "\n" << r.out << r.err;
    std::string f = format;
    CommandResult c;
    if (f == "ct") {
      std::string suite;
      for (const std::string& p : files_under(out))
        if (p.size() > 10 && p.compare(p.size() - 10, 10, "_SUITE.erl") == 0) suite = p;
      ASSERT_FALSE(suite.empty()) << format;
      c = run({"erlc", "-o", dir.path(), suite}, out);
    } else if (f == "exunit") {
      c = run({"elixir", "-e", "Code.string_to_quoted!(File.read!(hd(System.argv())))", name + "_test.exs"}, out);
    } else if (f == "c") {
      c = run({"cc", "-fsyntax-only", "-Wall", name + "_test.c"}, out);
    } else {
      c = run({"g++", "-std=c++17", "-fsyntax-only", name + "_test.cpp"}, out);
    }
    EXPECT_EQ(c.status.code, 0) << format << ": " << c.out << c.err;
  }
}
