// tests/runners/buckets_test.cpp: one bug, one bucket (issue 17). A campaign
// against the c target built with the planted fault mailbox_lifo
// (targets/FAULTS.md) shows that one bug under several field paths (the details:
// what signatures were before) and buckets it once, by the SPEC rule it breaks
// (§6.5: mailboxes are FIFO); and two shrunk programs equal up to renaming are
// one bucket, the first one's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "runners/campaign/campaign.hpp"
#include "runners/campaign/faults.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/rename_key.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {
namespace {

const std::string kSource = build_paths::source_dir;
// A campaign by count with one worker runs the same cases every time.
uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}
const uint64_t kSeed = env_or("BUCKETS_TEST_SEED", 3);
const uint64_t kCases = env_or("BUCKETS_TEST_CASES", 40);

TEST(Buckets, AFifoBugIsOneBucketWhereItsFieldPathsWereSeveral) {
  const Fault* f = find_fault("mailbox_lifo");
  ASSERT_NE(f, nullptr);
  TempDir work("concord-buckets-test");
  BackendSpec spec;
  spec.name = "c";
  spec.command = {build_paths::concord_binary, "backend", "c"};
  spec.env = build_fault(*f, work.path(),
                         FaultSources{kSource + "/targets/c/runtime", kSource + "/targets/erlang/runtime", "cc -O1",
                                      kSource + "/targets/js/runtime", kSource + "/targets/elixir/runtime"});
  CampaignConfig cfg;
  cfg.seed = kSeed;
  cfg.cases = kCases;
  cfg.jobs = 1;  // cases in order: the same findings every time
  cfg.targets = {spec};
  cfg.corpus_dir = work.path() + "/corpus";
  cfg.shrink_seconds = 3;
  CampaignReport r = run_campaign(cfg, nullptr);
  // Before: the field paths of its divergent cases, each a signature of its own.
  EXPECT_GE(r.detail_hits.size(), 3u);
  std::vector<std::string> buckets;
  for (const Finding& x : r.findings)
    if (x.kind == Finding::Kind::kNew) buckets.push_back(x.signature);
  ASSERT_EQ(buckets.size(), 1u) << ::testing::PrintToString(buckets);
  EXPECT_EQ(buckets[0], "c:§6.5 fifo");
  EXPECT_EQ(r.hits[buckets[0]], r.totals.divergent_cases);
}

Program source(const std::string& text) { return program_from_source(text, "renamed.conc"); }

TEST(Buckets, TwoShrunkProgramsEqualUpToRenamingAreOneBucket) {
  RenamedBuckets b;
  Program first = source(
      "kind Cell() { on put(x: int) { send put(x) to self; } }\nprocess log = Cell();\n"
      "given put(1) to @log;\ngiven put(2) to @log;\n");
  Program renamed = source(
      "kind Box() { on add(y: int) { send add(y) to self; } }\nprocess q = Box();\n"
      "given add(1) to @q;\ngiven add(2) to @q;\n");
  Program other = source(
      "kind Box() { on add(y: int) { send add(y) to self; } }\nprocess q = Box();\n"
      "given add(2) to @q;\ngiven add(1) to @q;\n");
  EXPECT_EQ(b.join("c:§6.5 fifo", first), "c:§6.5 fifo");
  EXPECT_EQ(b.join("c:§8.2 given", renamed), "c:§6.5 fifo");  // the first one's bucket
  EXPECT_EQ(b.join("c:§8.2 given", other), "c:§8.2 given");   // another program: a bucket of its own
}

// `concord buckets --again` on a work directory where a fault's campaign found
// nothing (no corpus stored): 0 -> 0 for it, not an error that ends the measurement
// (it did on seed 5's failed_spawn_gives_back_number).
TEST(Buckets, AgainCountsAFaultThatFoundNothingAsNone) {
  TempDir work("concord-buckets-test");
  std::filesystem::create_directories(work.path() + "/mailbox_lifo");
  Command cmd;
  cmd.argv = {build_paths::concord_binary, "buckets", "--again", "--only", "mailbox_lifo", "--work", work.path()};
  Subprocess p(cmd);
  std::string out;
  p.read_to_eof(out, deadline_after(120));
  std::optional<ExitStatus> st = p.wait_until(deadline_after(10));
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->describe(), ExitStatus{}.describe()) << p.stderr_text();
  EXPECT_NE(out.find("mailbox_lifo (c): 0 -> 0"), std::string::npos) << out << p.stderr_text();
}

}  // namespace
}  // namespace concord
