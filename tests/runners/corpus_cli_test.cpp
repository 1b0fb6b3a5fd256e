// tests/runners/corpus_cli_test.cpp: what `concord corpus` shows of a failing case
// (issue 37), as a runtime author's ctest log shows it: an error answer by its code
// and its message, bounded; a difference at its first causal place, the journal
// before the turn count; and --fail-fast.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "oracle/program_json.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const std::string kHand = std::string(build_paths::source_dir) + "/corpus/hand/";

CommandResult run_concord(std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, "", {}}, "", 120);
}

// A copy of hand case `name` (and its program) in `dir`, its expected result changed by `bend`.
std::string copy_case(const std::string& dir, const std::string& name, const std::function<void(ojson&)>& bend) {
  fs::copy_file(kHand + name + ".conc", dir + "/" + name + ".conc");
  ojson c = ojson::parse(read_file(kHand + name + ".case.json"));
  bend(c["runs"][0]["expect"]);
  std::string path = dir + "/" + name + ".case.json";
  std::ofstream(path) << c.dump(1);
  return path;
}

}  // namespace

// A backend that answers UNSUPPORTED with a message of 5,000 bytes and more: the code
// and the message's start are shown, not "/ok expected: true", and not 5,000 bytes.
TEST(CorpusCli, AnErrorAnswerIsShownByItsCodeAndABoundedMessage) {
  TempDir dir("concord-corpus-cli");
  std::string script = dir.path() + "/refuser.sh";
  std::ofstream(script) << "m=$(head -c 5000 /dev/zero | tr '\\0' x)\n"
                           "while read -r l; do\n"
                           "  printf '{\"ok\":false,\"code\":\"UNSUPPORTED\",\"message\":\"spawn under a supervisor "
                           "%sEND\"}\\n' \"$m\"\n"
                           "done\n";
  CommandResult r = run_concord(
      {"corpus", kHand + "fifo_mailbox.case.json", "--target", "refuser", "--backend", "refuser=sh " + script});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("refuser: error UNSUPPORTED: spawn under a supervisor xxx"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expected: a result (quiescent after 5 turns)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("... (5028 bytes)"), std::string::npos) << r.out;  // where it was cut, and its size
  EXPECT_EQ(r.out.find("END"), std::string::npos) << "the message is not bounded";
  EXPECT_LT(r.out.size(), 2000u) << r.out;
  EXPECT_EQ(r.out.find("/ok"), std::string::npos) << r.out;
}

// A run that lost its last delivery: one turn fewer and one event fewer. Key order
// would show /turns first; the journal shows where it went wrong.
TEST(CorpusCli, ADifferenceIsShownWhereTheJournalFirstDiffers) {
  TempDir dir("concord-corpus-cli");
  std::string file = copy_case(dir.path(), "fifo_mailbox", [](ojson& expect) {
    expect["journal"].erase(expect["journal"].size() - 1);
    expect["turns"] = expect["turns"].get<int>() - 1;
  });
  CommandResult r = run_concord({"corpus", file});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("first difference at /journal/6 (journal event 6 (deliver))"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("/turns"), std::string::npos) << r.out;
}

// Three cases, the first (in name order) failing: --fail-fast runs that one only.
TEST(CorpusCli, FailFastStopsAtTheFirstFailingCase) {
  TempDir dir("concord-corpus-cli");
  copy_case(dir.path(), "drops", [](ojson& expect) { expect["turns"] = 99; });
  for (const char* name : {"fifo_mailbox", "one_for_one_restart"}) copy_case(dir.path(), name, [](ojson&) {});
  CommandResult all = run_concord({"corpus", dir.path()});
  EXPECT_EQ(all.status.code, 1) << all.out << all.err;
  EXPECT_NE(all.out.find("2 passed, 1 failed\n"), std::string::npos) << all.out;
  CommandResult fast = run_concord({"corpus", dir.path(), "--fail-fast"});
  EXPECT_EQ(fast.status.code, 1) << fast.out << fast.err;
  EXPECT_NE(fast.out.find("FAIL  drops"), std::string::npos) << fast.out;
  EXPECT_NE(fast.out.find("0 passed, 1 failed, 2 not run (--fail-fast)\n"), std::string::npos) << fast.out;
}
