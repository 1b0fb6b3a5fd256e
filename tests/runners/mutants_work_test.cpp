// tests/runners/mutants_work_test.cpp: `concord mutants` without --work works in a
// folder of its own, made for it under $TMPDIR and removed when it ends (issue 40,
// defect 9): it used $TMPDIR/concord-mutants, kept it, and followed a symlink
// planted there (anyone who can write /tmp could aim its remove_all elsewhere).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runners/process/subprocess.hpp"
#include "tests/runners/run_concord.hpp"

namespace fs = std::filesystem;
using concord::test::run_concord;

TEST(MutantsWork, ATemporaryFolderOfItsOwnNotFollowingAPlantedSymlinkAndRemovedAfter) {
  concord::TempDir tmp("concord-mutants-test");
  fs::path victim = fs::path(tmp.path()) / "victim";
  fs::create_directories(victim / "mailbox_lifo");
  std::ofstream(victim / "mailbox_lifo" / "keep.txt") << "not concord's\n";
  fs::create_directory_symlink(victim, fs::path(tmp.path()) / "concord-mutants");
  auto o = run_concord({"mutants", "--only", "mailbox_lifo", "--time", "1s", "--shrink-time", "1s", "--jobs", "1"}, "",
                       {{"TMPDIR", tmp.path()}});
  EXPECT_TRUE(o.code == 0 || o.code == 1) << o.out << o.err;  // found or not: either is fine here
  EXPECT_TRUE(fs::exists(victim / "mailbox_lifo" / "keep.txt")) << "followed the symlink: " << o.out;
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(tmp.path()))
    if (e.path().filename() != "victim" && e.path().filename() != "concord-mutants")
      left.push_back(e.path().filename().string());
  EXPECT_TRUE(left.empty()) << "left behind: " << ::testing::PrintToString(left);
  size_t there = 0;
  for (const auto& e : fs::directory_iterator(victim / "mailbox_lifo")) there += e.path().filename() != "keep.txt";
  EXPECT_EQ(there, 0u) << "nothing written through the symlink";
}
