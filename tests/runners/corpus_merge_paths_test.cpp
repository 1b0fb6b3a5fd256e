// tests/runners/corpus_merge_paths_test.cpp: `concord corpus merge` and the paths a
// shard's case names (issue 40, defect 3): a hand case's `source` with `..` or an
// absolute one, and a name that is a path, are refused (exit 2, the shard's file
// and the field named) before anything is read from there or written anywhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "oracle/interpreter.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const char* kProgram = R"(kind K() { on go() { fail BOOM; } }
process m = K();
given go() to @m;
)";

// A hand case (its program in `source`) or, with a signature, a found one.
void write_case(const std::string& path, const std::string& name, const std::string& source,
                const std::string& signature = "") {
  Program p = program_from_source(kProgram, "test");
  RunSettings r{7, 100, 10};
  ojson j{{"concord_case", 1}, {"name", name}, {"about", "a test case"}};
  if (!signature.empty()) j["signature"] = signature;
  if (source.empty())
    j["program"] = program_to_json(p);
  else
    j["source"] = source;
  j["runs"] =
      ojson::array({ojson{{"seed", 7}, {"turns", 100}, {"max_processes", 10}, {"expect", oracle_answer(p, r).json}}});
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << j.dump(2);
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

CommandResult merge(const std::string& into, const std::string& shard) {
  return run_command(Command{{build_paths::concord_binary, "corpus", "merge", "--into", into, shard}, {}, "", {}}, "",
                     60);
}

}  // namespace

// `../../../p.conc` from a shard three folders deep was read there and written
// three folders above --into, over what was there.
TEST(CorpusMergePaths, ASourceWithDotDotIsRefused) {
  TempDir dir("concord-merge-paths");
  std::string d = dir.path(), shard = d + "/s/x/y/shard", into = d + "/i/x/y/into";
  write(d + "/s/p.conc", kProgram);
  write(d + "/i/p.conc", "precious\n");
  write_case(shard + "/hand.case.json", "hand", "../../../p.conc");
  CommandResult r = merge(into, shard);
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("hand.case.json: /source"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(d + "/i/p.conc"), "precious\n");
  EXPECT_FALSE(fs::exists(into + "/hand.case.json"));
}

// An absolute source was read wherever it pointed and written there again.
TEST(CorpusMergePaths, AnAbsoluteSourceIsRefused) {
  TempDir dir("concord-merge-paths");
  std::string d = dir.path(), shard = d + "/shard", into = d + "/into";
  write(d + "/elsewhere/p.conc", kProgram);
  write_case(shard + "/hand.case.json", "hand", d + "/elsewhere/p.conc");
  CommandResult r = merge(into, shard);
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("hand.case.json: /source"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("absolute"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(into + "/hand.case.json"));
}

// A found case is written as NAME.case.json: a name that is a path left --into.
TEST(CorpusMergePaths, ANameThatIsAPathIsRefused) {
  TempDir dir("concord-merge-paths");
  std::string d = dir.path(), shard = d + "/shard", into = d + "/i/x/into";
  write_case(shard + "/found.case.json", "../../evil", "", "c:outcome");
  CommandResult r = merge(into, shard);
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("found.case.json: /name"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d + "/i/evil.case.json"));
}
