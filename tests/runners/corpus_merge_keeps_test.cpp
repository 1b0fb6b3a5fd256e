// tests/runners/corpus_merge_keeps_test.cpp: a merge never replaces a case already
// in the corpus it merges into (issue 40, defect 10). A shard's case claiming a
// stored case's signature with a smaller, trivial program used to take its place:
// a real regression test gone, replaced by one that passes. The stored case is the
// one that was checked when it was stored (or reviewed since); a shard's claim is
// only a claim (merge runs no target to check it), so the shard's case is
// reported as a duplicate and not written; nor may it take another case's file
// name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "oracle/interpreter.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/process/subprocess.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const char* kTrivial = R"(kind K() { on go() { } }
process m = K();
given go() to @m;
)";
const char* kReal = R"(kind K() {
  state n: int = 0;
  on go() { n = n + 1; send tick() to self; fail BOOM; }
  on tick() { n = 2; }
}
process m = K();
process other = K();
given go() to @m;
given go() to @other;
)";

NewCase make(const char* source, const std::string& signature, const std::string& name = "") {
  Program p = program_from_source(source, "test");
  NewCase c;
  c.name = name;
  c.about = "a test case";
  c.program = program_to_json(p);
  RunSettings r{7, 100, 10};
  c.runs.push_back(CaseRun{r, oracle_answer(p, r).json});
  c.signature = signature;
  return c;
}

}  // namespace

TEST(CorpusMergeKeeps, AStoredCaseIsNotReplacedByAShardsSmallerClaim) {
  TempDir corpus("concord-corpus"), shard("concord-shard");
  Stored real = store_case(corpus.path(), make(kReal, "c:§6.5 fifo"));
  std::string before = read_file(real.path);
  store_case(shard.path(), make(kTrivial, "c:§6.5 fifo"));
  MergeReport r = merge_corpora(corpus.path(), {shard.path()});
  EXPECT_EQ(read_file(real.path), before);  // the regression case is still the real one
  EXPECT_EQ(r.replaced, 0u);
  EXPECT_EQ(r.held, 1u);
  EXPECT_EQ(find_cases(corpus.path()).size(), 1u);
}

// Among the shards' own cases of a signature new to the corpus, the smallest is
// still kept (the campaign on one machine would have stored one of them).
TEST(CorpusMergeKeeps, ANewSignatureKeepsTheShardsSmallestCase) {
  TempDir corpus("concord-corpus"), a("concord-shard-a"), b("concord-shard-b");
  store_case(a.path(), make(kReal, "c:§6.5 fifo"));
  store_case(b.path(), make(kTrivial, "c:§6.5 fifo"));
  MergeReport r = merge_corpora(corpus.path(), {a.path(), b.path()});
  EXPECT_EQ(r.added, 1u);
  EXPECT_EQ(r.replaced, 1u);
  ASSERT_EQ(find_cases(corpus.path()).size(), 1u);
  EXPECT_EQ(load_case(find_cases(corpus.path())[0]).program, program_from_source(kTrivial, "test"));
}

// A shard's case of a new signature named as a hand case of the corpus: written
// under that name, it replaced the hand case.
TEST(CorpusMergeKeeps, AShardsCaseCannotTakeAnotherCasesName) {
  TempDir corpus("concord-corpus"), shard("concord-shard");
  Stored hand = store_case(corpus.path(), make(kReal, "c:§6.5 fifo", "fifo_mailbox"));
  std::string before = read_file(hand.path);
  store_case(shard.path(), make(kTrivial, "erlang:§8.2 draw", "fifo_mailbox"));
  MergeReport r = merge_corpora(corpus.path(), {shard.path()});
  EXPECT_EQ(read_file(hand.path), before);
  EXPECT_EQ(r.added, 0u);
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_NE(r.conflicts[0].find("fifo_mailbox.case.json"), std::string::npos) << r.conflicts[0];
}
