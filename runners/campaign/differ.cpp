// runners/campaign/differ.cpp: the oracle and every target on one program's runs.
#include "differ.hpp"

#include <algorithm>
#include <chrono>

#include "runners/campaign/failing_turn.hpp"

namespace concord {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Differ::Differ(const std::vector<BackendSpec>& targets) {
  for (const BackendSpec& s : targets) backends_.push_back(std::make_unique<Backend>(s));
}

std::vector<std::string> Differ::target_names() const {
  std::vector<std::string> out;
  for (const auto& b : backends_) out.push_back(b->spec().name);
  return out;
}

Backend* Differ::find(const std::string& target) {
  for (auto& b : backends_)
    if (b->spec().name == target) return b.get();
  return nullptr;
}

void Differ::restart(const std::string& target) {
  if (Backend* b = find(target)) b->restart();
}

bool Differ::health_check(const std::string& target) {
  Backend* b = find(target);
  return b && b->warm_up();
}

const std::vector<Deviation>& Differ::deviations_of(const std::string& target) const {
  static const std::vector<Deviation> none;
  for (const auto& b : backends_)
    if (b->spec().name == target) return b->spec().deviations;
  return none;
}

DiffOutcome Differ::run(const Program& p, const std::vector<RunSettings>& runs, const std::vector<std::string>& only,
                        bool locate) {
  DiffOutcome o;
  double slowest = 0;
  for (const RunSettings& r : runs) {
    auto t0 = std::chrono::steady_clock::now();
    o.oracle_sizes.emplace_back();
    o.oracle.push_back(oracle_answer(p, r, &o.oracle_sizes.back()));
    double took = since(t0);
    seconds_["oracle"] += took;
    slowest = std::max(slowest, took);
  }
  ojson program = program_to_json(p);
  for (auto& b : backends_) {
    const BackendSpec& spec = b->spec();
    if (!only.empty() && std::find(only.begin(), only.end(), spec.name) == only.end()) continue;
    if (!unclaimed(spec.supports, p).empty()) {
      o.not_claimed.push_back(spec.name);
      continue;
    }
    RequestLimits limits;
    if (hang_.floor > 0) {
      double run = spec.timeouts_given ? spec.run_timeout
                                       : std::min(spec.run_timeout, hang_.floor + hang_.per_oracle_second * slowest);
      limits.run_timeout = run * hang_.stretch;
      limits.request_timeout =
          std::min(spec.request_timeout, run * static_cast<double>(runs.size() + 1)) * hang_.stretch;
    }
    auto t0 = std::chrono::steady_clock::now();
    o.targets.push_back(TargetAnswers{spec.name, b->request(program, runs, limits), &spec.deviations});
    seconds_[spec.name] += since(t0);
    limits_[spec.name] = limits;
  }
  o.divergences = find_divergences(p, runs, o.oracle, o.targets, &o.no_verdict, &o.oracle_sizes);
  // The attribution's questions go to the target that diverged, with its limits.
  attribute_divergences(p, runs, o.oracle, o.targets, o.divergences, [&](const std::string& target) -> AskTarget {
    for (auto& b : backends_)
      if (b->spec().name == target)
        return [this, ask = asking(*b, limits_[target]), target](const Program& q, const RunSettings& s) {
          auto t0 = std::chrono::steady_clock::now();
          std::optional<ojson> a = ask(q, s);
          seconds_[target] += since(t0);
          return a;
        };
    return {};
  });
  o.raw_signature = signature_of(o.divergences);
  for (Divergence& d : o.divergences) {
    Backend* b = locate && locatable(d.kind) ? find(d.target) : nullptr;
    const TargetAnswers* t = nullptr;
    for (const TargetAnswers& x : o.targets)
      if (x.target == d.target) t = &x;
    if (!b || !t || d.run >= t->answers.size()) continue;
    auto t0 = std::chrono::steady_clock::now();
    Located l =
        locate_failure(p, runs[d.run], o.oracle[d.run], t->answers[d.run], d.kind, answering(*b, limits_[d.target]));
    seconds_[d.target] += since(t0);
    if (l.rule.empty()) continue;
    d.rule = l.rule;
    d.report += l.said;
  }
  o.signature = signature_of(o.divergences);
  o.detail = detail_of(o.divergences);
  return o;
}

}  // namespace concord
