// runners/free/free_campaign.hpp: a free campaign (`concord fuzz --mode free`, SPEC
// §25). Case i is the program of case_seed(seed, i) with the profile, as in a
// conducted campaign, run K times (runs_per_program) on every target as free runs;
// each trace is checked (oracle/free/check_trace.hpp). A trace that is not admissible
// is a finding whatever the other runs did: the trace itself is the witness, and the
// checker is deterministic. Its signature is the target and the guarantee it broke
// (`erlang:free:G4 pair order`). A new one is shrunk: a candidate keeps the violation
// when any of R free runs shows the same guarantee broken, R chosen from how often
// it was seen (enough runs to see it again with probability 95% at that rate, at
// least K, at most 64: free_reruns()): in every one of the K runs, R is K; in some of
// them only (a race), the rate is measured first on 64 runs of the program, and a
// race not seen again there is stored unshrunk, with a note; it is stored as a free case
// (free_case.hpp) with the witness of the shrunk program. A target's error answer
// counts as no verdict, but a TIMEOUT or CRASH that happens again on a fresh backend
// (a free run that never ends: a lost message, a lost wake-up) is a finding, as is
// INTERNAL or BAD_OUTPUT.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "oracle/free/violation.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/shrink/shrink.hpp"

namespace concord {

struct FreeCampaignConfig {
  uint64_t seed = 0;
  uint64_t cases = 0;  // cases 0..cases-1 (of which this shard's); 0: until the time is up
  double seconds = 0;  // 0: no time limit
  int jobs = 1;
  int runs = 8;  // free runs per program and target (K)
  std::string profile = "default";
  std::vector<BackendSpec> targets;
  std::string corpus_dir;  // where new findings are stored as free cases; "": nowhere
  bool shrink = true;
  double shrink_seconds = 300;  // per finding
  uint64_t shard_index = 0, shard_count = 1;
  std::vector<uint64_t> only_cases;  // replay exactly these cases
  bool stop_at_first = false;        // stop at the first finding (concord mutants); a race that
                                     // could not be shrunk does not count
  std::string reproduce;             // the command that reproduces a case, "--case N" appended
  const std::atomic<bool>* interrupted = nullptr;
};

struct FreeFinding {
  uint64_t case_index = 0, program_seed = 0;
  std::string target;
  std::string signature;  // "erlang:free:G4 pair order", "erlang:free:hang"
  Violation violation;    // the first broken guarantee, in words (a failure: its message)
  ojson witness;          // the inadmissible trace (the shrunk program's once shrunk); null for a failure
  ojson program;          // the program (shrunk, once shrunk), JSON form
  RunSettings settings;
  int violating = 0, of = 0;  // of the K runs that found it, how many broke it
  int reruns = 0;             // R, the runs per shrink candidate (and per check of the stored case)
  enum class Kind { kNew, kKnown } kind = Kind::kNew;
  bool shrunk = false;
  ShrinkStats shrink;
  std::string corpus_file;
  bool stored = false;
  std::string store_error;
  std::string note;
  std::string reproduce;
  double found_after = 0;
};

struct FreeTargetStats {
  uint64_t programs = 0, traces = 0, admissible = 0, not_admissible = 0;
  uint64_t distinct = 0;                   // distinct traces summed over programs
  uint64_t free_programs = 0;              // programs with more than one distinct trace: freedom taken
  uint64_t no_verdict = 0;                 // runs answered TIMEOUT, CRASH or MEMORY that were no finding
  std::map<std::string, uint64_t> errors;  // error answers by code (UNSUPPORTED included)
  double seconds = 0;
};

struct FreeCampaignProgress {
  double elapsed = 0;
  uint64_t programs = 0, traces = 0, violations = 0, signatures = 0;
  bool shrinking = false;
};

struct FreeCampaignReport {
  FreeCampaignProgress totals;
  std::map<std::string, FreeTargetStats> targets;
  std::vector<FreeFinding> findings;     // new and known, by case index
  std::map<std::string, uint64_t> hits;  // programs with a violation, per signature
  bool interrupted = false;
};

// R for a violation seen in `violating` of `of` runs (see the header comment).
int free_reruns(int violating, int of, int k);
// A violation seen in some of the K runs only (a race) has its rate measured on this
// many runs of the program before it is shrunk, and R is at most this.
constexpr int kRaceRuns = 64;
// A race not seen again so is kept unshrunk; the next programs that show it (up to
// this many) are tried in its place, and the first that shrinks replaces it.
constexpr int kRaceRetries = 10;

FreeCampaignReport run_free_campaign(const FreeCampaignConfig& cfg,
                                     const std::function<void(const FreeCampaignProgress&)>& on_progress);

}  // namespace concord
