// runners/campaign/differ.hpp: one program's runs on the oracle (in-process) and on a set of
// targets (each a backend process, kept for the Differ's lifetime, so a program is
// compiled once per target and run on all its seeds in one request), with the
// divergences found and the time each target took. A Differ is used by one thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runners/campaign/divergence.hpp"
#include "runners/campaign/failure.hpp"
#include "runners/protocol/backend.hpp"

namespace concord {

struct DiffOutcome {
  std::vector<Answer> oracle;
  std::vector<RunSize> oracle_sizes;  // what each of the oracle's runs held
  std::vector<TargetAnswers> targets;
  std::vector<Divergence> divergences;
  std::vector<std::string> no_verdict;   // targets with a TIMEOUT, CRASH or MEMORY answer that is no failure of theirs
  std::vector<std::string> not_claimed;  // targets not asked: the program uses what they do not claim (supports.hpp)
  std::string signature;                 // signature_of(divergences): by SPEC rule
  std::string raw_signature;             // the same before errors and crashes were located (failing_turn.hpp):
                                         // what a shrink candidate is judged by, cheaply
  std::string detail;                    // detail_of(divergences): by field path
};

// How long a target may take on a request before its run counts as hung
// (failure.hpp "hang"): each run floor + per_oracle_second × the seconds the oracle
// took on the request's slowest run, but never more than the backend's own run
// timeout, then × stretch; the whole request (runs + 1) times that. Timeouts the
// user gave (--timeout, a backends file: BackendSpec::timeouts_given) are kept as
// they are, × stretch. A backend process started for such a request is warmed up
// first (Backend::warm_up): its start-up is not the program's time. floor 0: the
// backends' own timeouts.
struct HangLimits {
  double floor = 0;
  double per_oracle_second = 0;
  double stretch = 1;
};
// A campaign's limits (runners/campaign/campaign.hpp, "Failures"): to notice a hang, to
// confirm it on a fresh backend (twice as long, past the backend's own timeout),
// and to shrink one (short: every candidate that still hangs costs this much).
constexpr HangLimits kDetectHangs{5, 100, 1};
constexpr HangLimits kConfirmHangs{5, 100, 2};
constexpr HangLimits kShrinkHangs{1, 20, 1};

class Differ {
 public:
  explicit Differ(const std::vector<BackendSpec>& targets);

  // `only`: run on these targets alone (empty: on all of them); a target whose
  // declaration does not claim `p` is never asked (DiffOutcome::not_claimed). `locate`: an error or
  // crash is located (failing_turn.hpp: a few more requests to the target each);
  // without, the signature is the raw one.
  DiffOutcome run(const Program& p, const std::vector<RunSettings>& runs, const std::vector<std::string>& only = {},
                  bool locate = true);

  void set_hang_limits(const HangLimits& h) { hang_ = h; }
  const HangLimits& hang_limits() const { return hang_; }
  // The target's backend process is killed; the next request starts a fresh one.
  void restart(const std::string& target);
  // Backend::warm_up of the target's backend: does it answer a trivial program?
  bool health_check(const std::string& target);

  // Seconds spent per target ("oracle" included) and requests made, so far.
  const std::map<std::string, double>& seconds() const { return seconds_; }
  std::vector<std::string> target_names() const;
  const std::vector<Deviation>& deviations_of(const std::string& target) const;  // its declared deviations

 private:
  Backend* find(const std::string& target);

  std::vector<std::unique_ptr<Backend>> backends_;
  std::map<std::string, double> seconds_;
  std::map<std::string, RequestLimits> limits_;  // of each target's last request: its attribution's questions have them
  HangLimits hang_;
};

}  // namespace concord
