// tests/runners/campaign_test.cpp: campaigns (runners/campaign/campaign.hpp) against backends
// that are the oracle itself (agrees: nothing is written) or the oracle with its
// output bent by sed (a planted divergence): same seed, same cases, whatever the
// number of workers; a divergence is confirmed, shrunk, stored once, and known on
// the next campaign; shards cover disjoint cases; an interrupted campaign keeps
// what it found; a divergence that does not repeat is flaky.
#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "tests/runners/bent_oracles.hpp"

using namespace concord;

namespace {

using test_backends::honest;
using test_backends::shell_backend;

BackendSpec liar() { return test_backends::bent("liar", test_backends::kSaysTurnLimit); }

CampaignConfig config(std::vector<BackendSpec> targets, uint64_t cases, const std::string& corpus = "") {
  CampaignConfig c;
  c.seed = 42;
  c.cases = cases;
  c.jobs = 1;
  c.seeds_per_program = 2;
  c.targets = std::move(targets);
  c.corpus_dir = corpus;
  c.shrink_seconds = 60;
  c.reproduce = "concord fuzz --seed 42";
  return c;
}

}  // namespace

TEST(Campaign, CaseSeedsAreDistinctAndStable) {
  std::set<uint64_t> seen;
  for (uint64_t i = 0; i < 1000; i++) seen.insert(case_seed(7, i));
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(case_seed(7, 3), case_seed(7, 3));
  EXPECT_NE(case_seed(7, 3), case_seed(8, 3));
}

TEST(Campaign, AgreeingTargetsWriteNothing) {
  TempDir dir("concord-campaign");
  std::string corpus = dir.path() + "/corpus";
  CampaignReport r = run_campaign(config({honest()}, 30, corpus), nullptr);
  EXPECT_EQ(r.totals.programs, 30u);
  // Two runs a case, but one for a scale program (profile.hpp: the default mixes
  // them in, max_runs 1); seed 42's 30 cases hold at least one.
  uint64_t runs = 0;
  for (uint64_t i = 0; i < 30; i++) runs += gen::generate_runs(case_seed(42, i), gen::default_profile(), 2).size();
  EXPECT_LT(runs, 60u);
  EXPECT_EQ(r.totals.runs, runs);
  EXPECT_EQ(r.totals.divergent_cases, 0u);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_FALSE(std::filesystem::exists(corpus));
  EXPECT_GT(r.coverage.to_json().dump().size(), 10u);
}

TEST(Campaign, SameSeedSameCasesWhateverTheWorkers) {
  CampaignConfig one = config({liar()}, 24);
  one.shrink = false;
  CampaignConfig two = one;
  two.jobs = 2;
  CampaignReport a = run_campaign(one, nullptr), b = run_campaign(two, nullptr);
  EXPECT_EQ(a.totals.programs, b.totals.programs);
  EXPECT_EQ(a.totals.divergent_cases, b.totals.divergent_cases);
  EXPECT_GT(a.totals.divergent_cases, 0u);
  EXPECT_EQ(a.hits, b.hits);
  EXPECT_EQ(a.coverage.to_json(), b.coverage.to_json());
}

TEST(Campaign, ADivergenceIsShrunkStoredOnceAndThenKnown) {
  TempDir dir("concord-campaign");
  std::string corpus = dir.path() + "/corpus";
  CampaignReport r = run_campaign(config({liar()}, 20, corpus), nullptr);
  ASSERT_EQ(r.totals.signatures, 1u);
  const Finding* f = nullptr;
  for (const Finding& x : r.findings)
    if (x.kind == Finding::Kind::kNew) f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->signature, "liar:§8.2 run");
  EXPECT_TRUE(f->shrunk);
  EXPECT_LE(f->shrink.size_after, f->shrink.size_before);
  EXPECT_EQ(f->shrink.runs_after, 1u);
  EXPECT_EQ(f->reproduce, "concord fuzz --seed 42 --case " + std::to_string(f->case_index));
  ASSERT_TRUE(f->stored);
  // The stored case: valid, the oracle's expected results, and ctest would report it
  // (the liar does not give them).
  Case c = load_case(f->corpus_file);
  EXPECT_EQ(c.signature, "liar:§8.2 run");
  EXPECT_EQ(c.status, "regression");
  EXPECT_EQ(c.found["case"], f->case_index);
  Backend b(liar());
  std::vector<RunSettings> runs;
  for (const CaseRun& x : c.runs) runs.push_back(x.settings);
  EXPECT_FALSE(check_case_answers(c, "liar", b.request(program_to_json(c.program), runs)).pass);
  Backend h(honest());
  EXPECT_TRUE(check_case_answers(c, "honest", h.request(program_to_json(c.program), runs)).pass);

  // The same campaign again, with the corpus's signatures known: nothing new is written.
  CampaignConfig again = config({liar()}, 20, corpus);
  again.known_signatures = corpus_signatures(corpus);
  CampaignReport r2 = run_campaign(again, nullptr);
  EXPECT_EQ(r2.totals.signatures, 0u);
  ASSERT_FALSE(r2.findings.empty());
  EXPECT_EQ(r2.findings[0].kind, Finding::Kind::kKnown);
  EXPECT_EQ(find_cases(corpus).size(), 1u);
  EXPECT_EQ(c.detail, "liar:outcome");  // the field path, kept as the signature's detail

  // A corpus written when signatures were field paths ("liar:outcome"): known by the detail.
  CampaignConfig legacy = config({liar()}, 20, corpus);
  legacy.known_signatures = {"liar:outcome"};
  CampaignReport r3 = run_campaign(legacy, nullptr);
  EXPECT_EQ(r3.totals.signatures, 0u);
  ASSERT_FALSE(r3.findings.empty());
  EXPECT_EQ(r3.findings[0].kind, Finding::Kind::kKnown);
}

TEST(Campaign, ShardsCoverDisjointCasesThatTogetherAreTheWhole) {
  CampaignConfig whole = config({liar()}, 30);
  whole.shrink = false;
  CampaignReport all = run_campaign(whole, nullptr);
  uint64_t programs = 0, divergent = 0;
  for (uint64_t i = 0; i < 3; i++) {
    CampaignConfig part = whole;
    part.shard_index = i;
    part.shard_count = 3;
    CampaignReport r = run_campaign(part, nullptr);
    programs += r.totals.programs;
    divergent += r.totals.divergent_cases;
    for (const Finding& f : r.findings) EXPECT_EQ(f.case_index % 3, i);
  }
  EXPECT_EQ(programs, all.totals.programs);
  EXPECT_EQ(divergent, all.totals.divergent_cases);
}

TEST(Campaign, AReplayRunsExactlyTheChosenCase) {
  CampaignConfig whole = config({liar()}, 20);
  whole.shrink = false;
  CampaignReport all = run_campaign(whole, nullptr);
  ASSERT_FALSE(all.findings.empty());
  CampaignConfig replay = whole;
  replay.only_cases = {all.findings[0].case_index};
  CampaignReport r = run_campaign(replay, nullptr);
  EXPECT_EQ(r.totals.programs, 1u);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].case_index, all.findings[0].case_index);
  EXPECT_EQ(r.findings[0].program_seed, all.findings[0].program_seed);
  EXPECT_EQ(r.findings[0].signature, all.findings[0].signature);
}

TEST(Campaign, AnInterruptedCampaignStopsAndKeepsWhatItFound) {
  std::atomic<bool> stop{true};
  CampaignConfig c = config({liar()}, 0);
  c.seconds = 600;
  c.interrupted = &stop;
  CampaignReport r = run_campaign(c, nullptr);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.totals.programs, 0u);
}

TEST(Campaign, ADivergenceThatDoesNotRepeatIsFlaky) {
  // Lies on every second line only: a divergent run's rerun gets the truth.
  BackendSpec sometimes = shell_backend(
      "sometimes",
      "\"$CONCORD\" backend oracle | { n=0; while IFS= read -r l; do n=$((n + 1)); "
      "if [ $((n % 2)) = 0 ]; then l=$(printf '%s' \"$l\" | "
      "sed 's/\"outcome\":\"quiescent\"/\"outcome\":\"turn_limit\"/'); fi; printf '%s\\n' \"$l\"; done; }");
  CampaignConfig c = config({sometimes}, 20);
  c.seeds_per_program = 1;
  CampaignReport r = run_campaign(c, nullptr);
  EXPECT_GT(r.totals.flaky, 0u);
  EXPECT_EQ(r.totals.signatures, 0u);
  for (const Finding& f : r.findings) EXPECT_EQ(f.kind, Finding::Kind::kFlaky);
}

// A backend whose answer depends on earlier requests (runners/PROTOCOL.md forbids it):
// here one that gets its first answer wrong, as a cold start might. The campaign's
// worker sees that only on its first case; the sampled cases asked again of a fresh
// backend show it: a finding "cold:stateful", counted, not stored. The honest oracle
// is asked as often and never changes.
TEST(Campaign, AnAnswerThatDependsOnEarlierRequestsIsAFinding) {
  TempDir dir("concord-campaign-stateful");
  BackendSpec cold = test_backends::bent("cold", "1" + test_backends::kSaysTurnLimit);  // its first line only
  CampaignConfig c = config({cold}, 130, dir.path() + "/found");
  c.fresh_every = 64;  // cases 0, 64 and 128, when they agree
  CampaignReport r = run_campaign(c, nullptr);
  EXPECT_GE(r.fresh_checked["cold"], 2u);
  EXPECT_GE(r.stateful["cold"], 1u);  // a fresh backend's first run that ends quiescent
  const Finding* f = nullptr;
  for (const Finding& x : r.findings)
    if (x.signature == "cold:stateful") f = &x;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, Finding::Kind::kNew);
  EXPECT_NE(f->divergences[0].report.find("depends on earlier requests"), std::string::npos)
      << f->divergences[0].report;
  EXPECT_TRUE(f->corpus_file.empty());
  EXPECT_GE(r.totals.signatures, 1u);

  CampaignConfig h = config({honest()}, 130);
  h.fresh_every = 64;
  CampaignReport ok = run_campaign(h, nullptr);
  EXPECT_EQ(ok.fresh_checked["honest"], 3u);  // cases 0, 64, 128
  EXPECT_TRUE(ok.stateful.empty());
  EXPECT_EQ(ok.totals.signatures, 0u);
}
