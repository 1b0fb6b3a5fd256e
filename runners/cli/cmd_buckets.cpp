// runners/cli/cmd_buckets.cpp: `concord buckets`: the measurement of issue 17 ("one
// bug, one bucket"). For each planted fault (targets/FAULTS.md) a campaign runs
// against the faulty target for --time. Before: the signatures by field path (the
// details, divergence.hpp detail_of) its confirmed divergent cases showed, which
// is how many a campaign reported before signatures named SPEC rules. After: the
// campaign's buckets (signatures by SPEC rule, shrunk programs equal up to renaming
// merged). Prints a table of signatures per fault, before and after, and any
// signature that two faults share. `--again` runs no campaign: it attributes the
// cases that an earlier measurement stored in --work again (for work on the
// attribution: the same cases, a new rule for each).
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/failing_turn.hpp"
#include "runners/campaign/failure.hpp"
#include "runners/campaign/faults.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/diff.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/attribution.hpp"
#include "runners/triage/rename_key.hpp"
#include "runners/triage/replay.hpp"
#include "targets/c/launcher/c_launcher.hpp"
#include "targets/elixir/launcher/elixir_launcher.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "targets/js/launcher/js_launcher.hpp"
#include "targets/targets.hpp"

namespace concord {
namespace {

// Union-find over case indexes.
size_t root(std::vector<size_t>& up, size_t i) { return up[i] == i ? i : up[i] = root(up, up[i]); }

struct Measured {
  const Fault* fault = nullptr;
  size_t before = 0, after = 0;
  std::set<std::string> rules;            // rule signatures of its cases
  std::map<std::string, uint64_t> cases;  // per rule signature: the cases it holds
  std::map<std::string, std::string> by;  // per rule signature: "replay:ID" or "fallback" (first case's)
  uint64_t deviations = 0;                // divergent cases filed as known deviations
  uint64_t hidden = 0;                    // ... of those checked, answered otherwise by the target without the
                                          // fault: the fault hid behind a declaration (issue 38: none)
};

// The SPEC section a signature's kind names ("c:§7.2 restart type" -> "§7.2"), or "".
std::string section_of(const std::string& signature) {
  size_t at = signature.find("§");
  if (at == std::string::npos) return "";
  size_t end = signature.find_first_of(" ,", at);
  return signature.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The rule signature holding most of a fault's cases (the first such, by name).
std::string main_rule(const Measured& m) {
  std::string best;
  for (const auto& [sig, n] : m.cases)
    if (best.empty() || n > m.cases.at(best)) best = sig;
  return best;
}

// Of the known deviations a fault's campaign filed (the first case of each), those
// the target without the fault answers otherwise: the fault's own divergences, hidden
// behind a declaration. A case the normal build answers alike is the target's
// declared deviation, met by the campaign whatever the fault.
uint64_t hidden_by_deviations(const CampaignReport& r, const CampaignConfig& cfg, const BackendSpec& normal,
                              const BackendSpec& faulty) {
  uint64_t hidden = 0;
  const gen::Profile& profile = gen::profile_named(cfg.profile);
  Backend plain(normal), bent(faulty);
  for (const Finding& x : r.findings) {
    if (x.kind != Finding::Kind::kDeviation) continue;
    ojson program = program_to_json(gen::generate_program(x.program_seed, profile));
    std::vector<RunSettings> runs = gen::generate_runs(x.program_seed, profile, cfg.seeds_per_program);
    std::vector<Answer> a = plain.request(program, runs), b = bent.request(program, runs);
    bool same = a.size() == b.size();
    for (size_t i = 0; same && i < a.size(); i++) same = a[i].line == b[i].line;
    if (!same) hidden++;
  }
  return hidden;
}

// How a case was attributed (runners/triage/replay.hpp): by the alternative whose
// replay gives the target's answers, or by the fallback analysis.
std::string attributed_by(const std::string& dialect, const std::string& rule) {
  if (!is_rule(rule)) return "failure";
  return dialect.empty() ? "fallback" : "replay:" + dialect;
}

// --again: the cases stored in `dir` by an earlier measurement, each run on the
// faulty target and attributed again; equal signatures, one narrowing the other
// (§5 rem, §5 lt rem), or programs equal up to renaming are one bucket.
void again(const Fault* f, const BackendSpec& spec, const std::string& dir, Measured& m,
           std::map<std::string, std::set<std::string>>& faults_of_rule) {
  // A fault its campaign never reached stored no corpus: nothing before, nothing after.
  std::vector<std::string> files =
      std::filesystem::is_directory(dir + "/corpus") ? find_cases(dir + "/corpus") : std::vector<std::string>{};
  m.before = files.size();
  Backend b(spec);
  std::vector<std::string> rule(files.size()), renamed(files.size());
  for (size_t i = 0; i < files.size(); i++) {
    Case c = load_case(files[i]);
    std::vector<RunSettings> runs;
    for (const CaseRun& cr : c.runs) runs.push_back(cr.settings);
    std::vector<Answer> got = b.request(program_to_json(c.program), runs);
    rule[i] = f->target + ":(agrees now)";
    for (size_t k = 0; k < c.runs.size() && k < got.size(); k++)
      if (first_difference(c.runs[k].expect, got[k].json)) {
        rule[i] = f->target + ":" +
                  bucket_of_answer(c.program, runs[k], expected_answer(c.runs[k].expect), got[k], answering(b));
        break;
      }
    renamed[i] = rename_key(c.program);
    std::string dialect;
    for (size_t k = 0; k < c.runs.size() && k < got.size(); k++)
      if (first_difference(c.runs[k].expect, got[k].json)) {
        if (got[k].ok())
          if (std::optional<Replay> rp = replay_attribution(c.program, {runs[k]}, {got[k]}, asking(b)))
            dialect = alternative(rp->alt).id;
        break;
      }
    m.cases[rule[i]]++;
    m.by.emplace(rule[i], attributed_by(dialect, rule[i].substr(rule[i].find(':') + 1)));
    m.rules.insert(rule[i]);
    faults_of_rule[rule[i]].insert(f->name);
  }
  std::vector<size_t> up(files.size());
  std::iota(up.begin(), up.end(), 0);
  for (size_t i = 0; i < files.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (rule[i] == rule[j] || renamed[i] == renamed[j] || signature_refines(rule[i], rule[j]) ||
          signature_refines(rule[j], rule[i]))
        up[root(up, i)] = root(up, j);
  for (size_t i = 0; i < files.size(); i++) m.after += root(up, i) == i;
}

// The set a fault belongs to: "catalogue", or "held-out-N" for the N-th held-out set.
std::string set_of(const Fault& f) { return f.held_out ? "held-out-" + std::to_string(f.held_out) : "catalogue"; }

}  // namespace

int cmd_buckets(int argc, char** argv) {
  Args a =
      parse_args(argc, argv, {"--time", "--seed", "--only", "--jobs", "--shrink-time", "--work", "--set"}, {"--again"});
  std::string set = a.option("--set") ? *a.option("--set") : "all";
  std::set<std::string> known = {"all", "catalogue", "held-out"};  // and each held-out set the catalogue has
  std::string held_out_sets;
  for (const Fault& f : fault_catalogue())
    if (f.held_out && known.insert(set_of(f)).second) held_out_sets += (held_out_sets.empty() ? "" : ", ") + set_of(f);
  if (!known.count(set))
    throw InputError("--set", "catalogue, held-out (" + held_out_sets + ") or all, not '" + set + "'");
  if (!a.positional.empty()) throw InputError("", "usage: concord buckets [options] (see concord --help)");
  double seconds = a.option("--time") ? parse_duration(*a.option("--time"), "--time") : 60;
  double shrink_seconds = a.option("--shrink-time") ? parse_duration(*a.option("--shrink-time"), "--shrink-time") : 10;
  uint64_t seed = a.option("--seed") ? parse_u64(*a.option("--seed"), "--seed") : 1;
  unsigned cores = std::thread::hardware_concurrency();
  int jobs = a.option("--jobs") ? static_cast<int>(parse_i64(*a.option("--jobs"), "--jobs")) : (cores ? cores : 1);
  std::string work =
      a.option("--work") ? *a.option("--work") : (std::filesystem::temp_directory_path() / "concord-buckets").string();
  std::vector<const Fault*> faults;
  for (const std::string& n : a.all("--only")) {
    const Fault* f = find_fault(n);
    if (!f) throw InputError("--only", "no planted fault named '" + n + "' (concord mutants --list)");
    faults.push_back(f);
  }
  if (faults.empty())
    for (const Fault& f : fault_catalogue())
      if (!f.free && (set == "all" || set == set_of(f) || (set == "held-out" && f.held_out)))
        faults.push_back(&f);  // a free mode's: a conducted campaign cannot see it

  // --again measures what an earlier run left: a folder per fault it measured, with
  // the cases it stored (none when its campaign found nothing: 0 -> 0). With no
  // fault's folder there, a table of zeros would look like a measurement.
  if (a.flag("--again") && std::none_of(faults.begin(), faults.end(), [&](const Fault* f) {
        return std::filesystem::is_directory(std::filesystem::path(work) / f->name);
      }))
    throw InputError("--again", "nothing to measure: no folder " + work + "/FAULT for any of the " +
                                    std::to_string(faults.size()) + " faults chosen (`concord buckets --work " + work +
                                    "` without --again measures them and stores their cases)");

  FaultSources src{c_runtime_dir(), erlang_runtime_dir(), default_c_compiler(), js_runtime_dir(), elixir_runtime_dir()};
  Registry reg(self_exe(), builtin_targets());
  declare_builtin_deviations(reg);  // a faulty target keeps the deviations the target declares
  std::cout << "concord buckets: " << faults.size() << " planted faults, a campaign of " << seconds << " s each (seed "
            << seed << ", " << jobs << " jobs, shrink " << shrink_seconds << " s per signature), work in " << work
            << "\n"
            << std::flush;
  std::vector<Measured> rows;
  std::map<std::string, std::set<std::string>> faults_of_rule;
  for (const Fault* f : faults) {
    Measured m;
    m.fault = f;
    std::string dir = (std::filesystem::path(work) / f->name).string();
    if (a.flag("--again") && !std::filesystem::is_directory(dir)) {
      std::cout << f->name << " (" << f->target << "): not measured in " << work << ", left out\n" << std::flush;
      continue;
    }
    if (!a.flag("--again")) std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    BackendSpec spec = *reg.find(f->target);
    for (auto& kv : build_fault(*f, dir, src)) spec.env.push_back(kv);
    if (!a.flag("--again")) {
      std::filesystem::remove_all(dir + "/corpus");
      CampaignConfig cfg;
      cfg.seed = seed;
      cfg.seconds = seconds;
      cfg.jobs = jobs;
      if (!f->profile.empty()) cfg.profile = f->profile;  // a version 2 fault: only version 2 programs reach it
      cfg.targets = {spec};
      cfg.corpus_dir = dir + "/corpus";
      cfg.shrink_seconds = shrink_seconds;
      cfg.reproduce = "concord fuzz --seed " + std::to_string(seed) + " --target " + f->target +
                      (f->profile.empty() ? "" : " --profile " + f->profile);
      CampaignReport r = run_campaign(cfg, nullptr);
      m.before = r.detail_hits.size();
      m.deviations = r.totals.deviations;
      m.hidden = hidden_by_deviations(r, cfg, *reg.find(f->target), spec);
      for (const Finding& x : r.findings)
        if (x.kind == Finding::Kind::kNew) {
          m.after++;
          m.rules.insert(x.signature);
          m.cases[x.signature] = r.hits[x.signature];
          std::string dialect = x.divergences.empty() ? "" : x.divergences[0].dialect;
          std::string kind = x.divergences.empty() ? "" : bucket_of(x.divergences[0]);
          m.by[x.signature] = attributed_by(dialect, kind);
          faults_of_rule[x.signature].insert(f->name);
        }
    } else {
      again(f, spec, dir, m, faults_of_rule);
    }
    std::string rules;
    for (const std::string& s : m.rules) rules += (rules.empty() ? "" : ", ") + s;
    std::cout << f->name << " (" << f->target << "): " << m.before << " -> " << m.after << "  " << rules << "\n"
              << std::flush;
    rows.push_back(m);
  }

  std::cout << "\n| fault | set | target | signatures before | after | known deviations | rule expected | rule named "
               "| by | rules after |\n|---|---|---|---|---|---|---|---|---|---|\n";
  // Per set (the catalogue, the held-out set): faults found, signatures before and
  // after, and among the faults found that break a rule, those whose main bucket
  // names that rule's section.
  struct Tally {
    size_t faults = 0, found = 0, with_rule = 0, right = 0, by_replay = 0;
    double before = 0, after = 0;
  };
  std::map<std::string, Tally> sets;
  for (const Measured& m : rows) {
    std::string set = set_of(*m.fault);
    std::string rules, named = main_rule(m);
    for (const std::string& s : m.rules) rules += (rules.empty() ? "" : ", ") + ("`" + s + "`");
    std::string by = named.empty() ? "" : m.by.count(named) ? m.by.at(named) : "";
    std::cout << "| " << m.fault->name << " | " << set << " | " << m.fault->target << " | " << m.before << " | "
              << m.after << " | " << m.deviations << (m.hidden ? " (" + std::to_string(m.hidden) + " HIDDEN)" : "")
              << " | " << (m.fault->rule.empty() ? "-" : m.fault->rule) << " | "
              << (named.empty()               ? "-"
                  : section_of(named).empty() ? named
                                              : section_of(named))
              << " | " << (by.empty() ? "-" : by) << " | " << rules << " |\n";
    Tally& t = sets[set];
    t.faults++;
    if (m.before == 0) continue;
    t.found++;
    t.before += m.before;
    t.after += m.after;
    if (by.rfind("replay:", 0) == 0) t.by_replay++;
    if (m.fault->rule.empty()) continue;
    t.with_rule++;
    if (section_of(named) == m.fault->rule) t.right++;
  }
  for (const auto& [set, t] : sets) {
    std::ostringstream line;
    line << std::fixed << std::setprecision(2) << set << ": " << t.found << " of " << t.faults
         << " faults found; signatures per fault found: " << (t.found ? t.before / t.found : 0) << " before, "
         << (t.found ? t.after / t.found : 0) << " after; rule right for " << t.right << " of " << t.with_rule
         << " that break a rule (" << std::setprecision(0) << (t.with_rule ? 100.0 * t.right / t.with_rule : 0)
         << "%); " << t.by_replay << " of " << t.found << " bucketed by replay";
    std::cout << "\n" << line.str();
  }
  std::cout << "\n";
  for (const Measured& m : rows)
    if (m.hidden > 0)
      std::cout << "HIDDEN BEHIND A DECLARED DEVIATION: " << m.fault->name << " (" << m.hidden
                << " known deviations its target answers otherwise without it)\n";
  bool shared = false;
  for (const auto& [r, fs] : faults_of_rule)
    if (fs.size() > 1) {
      shared = true;
      std::cout << "SHARED " << r << ":";
      for (const std::string& f : fs) std::cout << " " << f;
      std::cout << "\n";
    }
  if (!shared) std::cout << "no rule signature is shared by two faults\n";
  std::cout << "rerun: concord buckets --time " << seconds << "s --seed " << seed << " --shrink-time " << shrink_seconds
            << "s\n";
  return kOk;
}

}  // namespace concord
