// runners/campaign/campaign.hpp: a fuzzing campaign (DESIGN §4). Every case derives from the
// campaign seed and its index alone: case i's program is generated from
// case_seed(seed, i) with the profile, and runs on seeds derived from it, so one
// printed command reproduces any case, shards of one seed cover disjoint cases
// (index mod N), and a campaign by count finds the same cases however many
// workers run it. Each worker owns one backend per target. A divergence is rerun
// before it counts (one that does not repeat is flaky), then, when its signature
// is new to the corpus and to the campaign, shrunk and stored; when its shrunk
// program equals, up to renaming, that of a finding of the campaign with another
// signature, it is that finding's bucket (listed in its `merged`, its hits counted
// there) and not stored. A signature is known when the corpus holds it, or holds
// its detail (a corpus written before signatures named SPEC rules), or its failure
// before it was located (a corpus written before failures were). A divergence that
// declared deviations of its targets explain (runners/protocol/deviations.hpp) is a known
// deviation: counted and listed, never shrunk, stored or failing.
//
// A backend's answer must depend on its request alone (runners/PROTOCOL.md): a sample
// of the cases that agreed or were explained (CampaignConfig::fresh_every) is asked
// again of fresh backends; an answer that changed there (beyond the freedom of the
// deviations that explain both) is a finding, "<target>:stateful", reported, never
// shrunk or stored (a case replays on a fresh backend, where it does not show).
//
// Failures (runners/campaign/failure.hpp: a target that crashes, hangs, prints garbage or
// runs out of memory on a small run, where the oracle answered) are divergences
// like any other, with one more rule, because a machine can fail a target too (a
// loaded machine makes it slow; a person, the OOM killer or a harness kills it).
// A failure counts only when it happens again on a fresh backend process: the
// failing targets' backends are killed and started afresh, each must first answer
// a trivial program as the oracle does (the health check: a backend that cannot is
// broken, not failing on this program), and the same runs are given again, with
// twice the time for a hang (differ.hpp kConfirmHangs: a merely slow backend
// answers then). A kill by a signal the target's own code cannot raise (SIGKILL,
// SIGTERM...) is never a failure in the first place. A failure that does not
// happen again is counted as no verdict ("unconfirmed"), not as flaky. Targets
// are timed with kDetectHangs during the campaign and kShrinkHangs while a
// hang is shrunk; a shrunk failure is checked once more with kConfirmHangs
// on a fresh backend, and the case is stored unshrunk when it does not hold.
// An error answer or a crash is located (failing_turn.hpp) when it is found and
// confirmed, and again on its shrunk case; shrink candidates are judged by the
// failure before it is located (DiffOutcome::raw_signature).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "runners/campaign/coverage.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/shrink/shrink.hpp"

namespace concord {

uint64_t case_seed(uint64_t campaign_seed, uint64_t index);

// The index of a campaign's k-th case in its shard: only[k] when cases were chosen,
// else k * shard_count + shard_index, below `cases` (0: no end). False past the last.
bool campaign_case_at(uint64_t k, uint64_t cases, uint64_t shard_index, uint64_t shard_count,
                      const std::vector<uint64_t>& only, uint64_t& index);

struct CampaignConfig {
  uint64_t seed = 0;
  uint64_t cases = 0;  // cases 0..cases-1 (of which this shard's); 0: until the time is up
  double seconds = 0;  // 0: no time limit
  int jobs = 1;
  int seeds_per_program = 8;
  std::string profile = "default";
  std::vector<BackendSpec> targets;           // besides the oracle, which runs in-process
  std::string corpus_dir;                     // where new divergences are stored; "": nowhere
  std::vector<std::string> known_signatures;  // already kept: counted, not stored again
  bool shrink = true;
  double shrink_seconds = 300;  // per divergence
  uint64_t shard_index = 0, shard_count = 1;
  std::vector<uint64_t> only_cases;  // replay exactly these cases (then `cases` is ignored)
  bool stop_at_first = false;        // stop at the first confirmed divergence
  // Every fresh_every-th case (by index) that agreed or was explained is asked again
  // of a fresh backend of each target: an answer that changed depends on earlier
  // requests (a finding, "<target>:stateful"). 0: never.
  uint64_t fresh_every = 64;
  std::string reproduce;                           // the command that reproduces a case, "--case N" appended
  const std::atomic<bool>* interrupted = nullptr;  // set by Ctrl-C: finish the current cases and stop
};

struct Finding {
  uint64_t case_index = 0, program_seed = 0;
  std::string signature;                // by SPEC rule (divergence.hpp signature_of)
  std::string detail;                   // by field path (detail_of)
  std::vector<std::string> merged;      // signatures found later whose shrunk programs equal this one's up to
                                        // renaming (rename_key.hpp): one bucket, their hits counted here
  std::vector<Divergence> divergences;  // as first seen
  enum class Kind { kNew, kKnown, kDuplicate, kFlaky, kDeviation } kind = Kind::kNew;
  double found_after = 0;  // seconds from the campaign's start
  std::string corpus_file;
  bool stored = false;
  std::string store_error;  // why it could not be stored (a full disk: WriteError), or ""
  bool shrunk = false;
  ShrinkStats shrink;
  std::string note;  // what else to know, e.g. why a shrunk case was not kept
  std::string reproduce;
};

struct CampaignProgress {
  double elapsed = 0;
  uint64_t programs = 0, runs = 0;
  uint64_t divergent_cases = 0, signatures = 0, flaky = 0;
  uint64_t deviations = 0;                      // divergent cases that declared deviations explain
  std::map<std::string, double> seconds;        // per target, summed over workers
  std::map<std::string, uint64_t> not_claimed;  // per target: programs it was not asked, as its declaration
                                                // does not claim them (runners/protocol/supports.hpp)
  bool shrinking = false;
};

struct CampaignReport {
  CampaignProgress totals;
  std::map<std::string, uint64_t> no_verdict;   // per target: cases with a TIMEOUT, CRASH or MEMORY that is no finding
  std::map<std::string, uint64_t> unconfirmed;  // per target: failures that did not happen again (in no_verdict too)
  std::map<std::string, uint64_t> answered;     // per target: programs it answered itself (a result, a definite error)
  std::map<std::string, std::string> first_error;  // per target: the first harness error it got, for messages
  std::vector<Finding> findings;         // new, known, flaky, known deviations; by case index (duplicates counted only)
  std::map<std::string, uint64_t> hits;  // divergent cases per signature (a merged one's counted on its bucket)
  std::map<std::string, uint64_t> deviation_hits;  // divergent cases each declaration explained, by "target: id"
  std::map<std::string, uint64_t> detail_hits;     // divergent cases per detail (by field path: the signatures of old)
  std::map<std::string, uint64_t> fresh_checked;   // per target: cases asked again of a fresh backend
  std::map<std::string, uint64_t> stateful;        // ... whose answer changed there
  Coverage coverage;
  bool interrupted = false;
};

// Runs the campaign; calls on_progress about every second from the calling thread.
CampaignReport run_campaign(const CampaignConfig& cfg, const std::function<void(const CampaignProgress&)>& on_progress);

}  // namespace concord
