// runners/differ.cpp: the oracle and every target on one program's runs.
#include "differ.hpp"

#include <algorithm>
#include <chrono>

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

const std::vector<Deviation>& Differ::deviations_of(const std::string& target) const {
  static const std::vector<Deviation> none;
  for (const auto& b : backends_)
    if (b->spec().name == target) return b->spec().deviations;
  return none;
}

DiffOutcome Differ::run(const Program& p, const std::vector<RunSettings>& runs, const std::vector<std::string>& only) {
  DiffOutcome o;
  auto t0 = std::chrono::steady_clock::now();
  for (const RunSettings& r : runs) o.oracle.push_back(oracle_answer(p, r));
  seconds_["oracle"] += since(t0);
  ojson program = program_to_json(p);
  for (auto& b : backends_) {
    const std::string& name = b->spec().name;
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    t0 = std::chrono::steady_clock::now();
    o.targets.push_back(TargetAnswers{name, b->request(program, runs), &b->spec().deviations});
    seconds_[name] += since(t0);
  }
  o.divergences = find_divergences(o.oracle, o.targets, &o.no_verdict);
  o.signature = signature_of(o.divergences);
  return o;
}

}  // namespace concord
