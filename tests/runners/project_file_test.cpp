// tests/runners/project_file_test.cpp: concord.json, the project file that declares a
// project's backends once (runners/cli/cli.hpp, runners/PROTOCOL.md "Declaring a
// backend"): found in the working directory or above it, its ./ command words taken
// from its folder, replaced by --backend NAME and by --backends FILE; and the help
// of `concord shrink --help` that says so.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

CommandResult concord_in(const fs::path& dir, std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, dir.string(), {}}, "", 120);
}

void write(const fs::path& f, const std::string& text) { std::ofstream(f) << text; }

// A project: concord.json declaring `mine` as ./relay.sh, a script of the project's
// folder that serves the oracle, and a subfolder holding a program.
struct Project {
  TempDir dir{"concord-project"};
  fs::path root = dir.path();
  fs::path sub = root / "cases" / "deeper";
  Project() {
    fs::create_directories(sub);
    write(root / "relay.sh", "#!/bin/sh\nexec '" + std::string(build_paths::concord_binary) + "' backend oracle\n");
    ::chmod((root / "relay.sh").c_str(), 0755);
    write(root / "concord.json", R"({"backends":{"mine":{"command":["./relay.sh"]}}})");
    write(sub / "prog.conc", "kind K() {}\nprocess a = K();\n");
  }
};

}  // namespace

TEST(ProjectFile, DeclaresTheBackendsForEveryFolderBelowIt) {
  Project p;
  CommandResult r = concord_in(p.sub, {"run", "prog.conc", "--target", "mine"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  r = concord_in(p.sub, {"run", "prog.conc", "--target", "all"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("mine"), std::string::npos) << r.out;
}

TEST(ProjectFile, WithoutOneTheTargetIsUnknownAndTheMessageSaysSo) {
  Project p;
  fs::remove(p.root / "concord.json");
  CommandResult r = concord_in(p.sub, {"run", "prog.conc", "--target", "mine"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("no concord.json found upward from here"), std::string::npos) << r.err;
}

TEST(ProjectFile, BackendOnTheCommandLineReplacesItsNameAndBackendsReplacesTheFile) {
  Project p;
  write(p.root / "concord.json", R"({"backends":{"mine":{"command":["./no-such-runtime"]},"other":{"command":"x"}}})");
  std::string oracle = "mine='" + std::string(build_paths::concord_binary) + "' backend oracle";
  CommandResult r = concord_in(p.sub, {"run", "prog.conc", "--target", "mine", "--backend", oracle});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;  // not "mine is taken", not the file's broken command
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;

  write(p.sub / "elsewhere.json", R"({"backends":{"theirs":{"command":["true"]}}})");
  r = concord_in(p.sub, {"run", "prog.conc", "--target", "other", "--backends", "elsewhere.json"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;  // the project file was not read
  EXPECT_NE(r.err.find("unknown target 'other'"), std::string::npos) << r.err;
}

TEST(ProjectFile, ABadOneIsBadInputNamingTheFileAndPlace) {
  Project p;
  write(p.root / "concord.json", R"({"backends":{"mine":{"command":["./relay.sh"],"speed":3}}})");
  CommandResult r = concord_in(p.sub, {"run", "prog.conc", "--target", "mine"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find((p.root / "concord.json").string() + ": /backends/mine/speed"), std::string::npos) << r.err;
}

TEST(ProjectFile, ShrinkHelpNamesBackendsAndTheProjectFile) {
  CommandResult r = concord_in(fs::current_path(), {"shrink", "--help"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("concord shrink CASE [--target NAME|all] [--backend NAME=COMMAND]..."), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("concord.json: without --backends"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("concord fuzz"), std::string::npos) << r.out;  // only shrink's part
  EXPECT_EQ(concord_in(fs::current_path(), {"nosuch", "--help"}).status.code, 2);
}
