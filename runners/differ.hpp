// runners/differ.hpp: one program's runs on the oracle (in-process) and on a set of
// targets (each a backend process, kept for the Differ's lifetime, so a program is
// compiled once per target and run on all its seeds in one request), with the
// divergences found and the time each target took. A Differ is used by one thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runners/backend.hpp"
#include "runners/divergence.hpp"

namespace concord {

struct DiffOutcome {
  std::vector<Answer> oracle;
  std::vector<TargetAnswers> targets;
  std::vector<Divergence> divergences;
  std::vector<std::string> no_verdict;  // targets with a TIMEOUT, CRASH or MEMORY answer
  std::string signature;                // signature_of(divergences)
};

class Differ {
 public:
  explicit Differ(const std::vector<BackendSpec>& targets);

  // `only`: run on these targets alone (empty: on all of them).
  DiffOutcome run(const Program& p, const std::vector<RunSettings>& runs, const std::vector<std::string>& only = {});

  // Seconds spent per target ("oracle" included) and requests made, so far.
  const std::map<std::string, double>& seconds() const { return seconds_; }
  std::vector<std::string> target_names() const;
  const std::vector<Deviation>& deviations_of(const std::string& target) const;  // its declared deviations

 private:
  std::vector<std::unique_ptr<Backend>> backends_;
  std::map<std::string, double> seconds_;
};

}  // namespace concord
