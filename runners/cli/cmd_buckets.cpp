// runners/cli/cmd_buckets.cpp: `concord buckets`: the measurement of issue 17 ("one
// bug, one bucket"). For each planted fault (targets/FAULTS.md) a campaign runs
// against the faulty target for --time, storing one shrunk case per signature of
// today (divergence.hpp, "before"); each stored case is then run again on the
// faulty target and its first causal difference attributed to a SPEC rule
// (attribution.hpp); cases whose rule signatures are equal, or whose shrunk
// programs are equal up to renaming (rename_key.hpp), are one bucket ("after").
// Prints a table of signatures per fault, before and after, and any rule signature
// that two faults share.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "oracle/error.hpp"
#include "runners/attribution.hpp"
#include "runners/campaign.hpp"
#include "runners/cli/cli.hpp"
#include "runners/diff.hpp"
#include "runners/faults.hpp"
#include "runners/load.hpp"
#include "runners/rename_key.hpp"
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
  std::set<std::string> rules;  // rule signatures of its cases
};

}  // namespace

int cmd_buckets(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--time", "--seed", "--only", "--jobs", "--shrink-time", "--work"}, {});
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
    for (const Fault& f : fault_catalogue()) faults.push_back(&f);

  FaultSources src{c_runtime_dir(), erlang_runtime_dir(), default_c_compiler(), js_runtime_dir(), elixir_runtime_dir()};
  Registry reg(self_exe(), builtin_targets());
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
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    BackendSpec spec = *reg.find(f->target);
    for (auto& kv : build_fault(*f, dir, src)) spec.env.push_back(kv);
    CampaignConfig cfg;
    cfg.seed = seed;
    cfg.seconds = seconds;
    cfg.jobs = jobs;
    if (!f->profile.empty()) cfg.profile = f->profile;  // a version 2 fault: only v2 programs reach it
    cfg.targets = {spec};
    cfg.corpus_dir = dir + "/corpus";
    cfg.shrink_seconds = shrink_seconds;
    cfg.reproduce = "concord fuzz --seed " + std::to_string(seed) + " --target " + f->target;
    CampaignReport r = run_campaign(cfg, nullptr);
    std::vector<std::string> files;
    for (const Finding& x : r.findings)
      if (x.kind == Finding::Kind::kNew && x.stored) files.push_back(x.corpus_file);
    m.before = files.size();
    // After: each stored (shrunk) case again on the faulty target, attributed.
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
          rule[i] = rule_signature(f->target, attribute(c.program, c.runs[k].expect, got[k].json));
          break;
        }
      renamed[i] = rename_key(c.program);
      m.rules.insert(rule[i]);
      faults_of_rule[rule[i]].insert(f->name);
    }
    std::vector<size_t> up(files.size());
    std::iota(up.begin(), up.end(), 0);
    for (size_t i = 0; i < files.size(); i++)
      for (size_t j = 0; j < i; j++)
        if (rule[i] == rule[j] || renamed[i] == renamed[j]) up[root(up, i)] = root(up, j);
    for (size_t i = 0; i < files.size(); i++) m.after += root(up, i) == i;
    std::string rules;
    for (const std::string& s : m.rules) rules += (rules.empty() ? "" : ", ") + s;
    std::cout << f->name << " (" << f->target << "): " << m.before << " -> " << m.after << "  " << rules << "\n"
              << std::flush;
    rows.push_back(m);
  }

  std::cout << "\n| fault | target | signatures before | after | rules after |\n|---|---|---|---|---|\n";
  double before = 0, after = 0;
  size_t found = 0;
  for (const Measured& m : rows) {
    std::string rules;
    for (const std::string& s : m.rules) rules += (rules.empty() ? "" : ", ") + ("`" + s + "`");
    std::cout << "| " << m.fault->name << " | " << m.fault->target << " | " << m.before << " | " << m.after << " | "
              << rules << " |\n";
    if (m.before == 0) continue;
    found++;
    before += m.before;
    after += m.after;
  }
  std::ostringstream avg;
  avg << std::fixed << std::setprecision(2) << (found ? before / found : 0) << " before, "
      << (found ? after / found : 0) << " after";
  std::cout << "\nper fault found (" << found << " of " << rows.size() << "): " << avg.str() << "\n";
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
