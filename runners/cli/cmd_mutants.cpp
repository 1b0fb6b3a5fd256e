// runners/cli/cmd_mutants.cpp: `concord mutants`: proof that campaigns find bugs.
// For each planted fault of the catalogue (targets/FAULTS.md, runners/campaign/faults.hpp)
// the target's runtime is built with that fault switched on, a default campaign
// runs against it alone until the first divergence (at most --time), and the
// divergence is shrunk; a table says, per fault, whether it was found, after how
// long, and how small the shrunk case is. Every fault must be found.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "oracle/error.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/campaign/faults.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_campaign.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/c/launcher/c_launcher.hpp"
#include "targets/elixir/launcher/elixir_launcher.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "targets/js/launcher/js_launcher.hpp"
#include "targets/targets.hpp"

namespace concord {
namespace {

std::string fixed1(double v) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << v;
  return o.str();
}

struct Row {
  const Fault* fault = nullptr;
  bool found = false;
  double after = 0;
  uint64_t programs = 0;
  std::string signature, corpus_file;
  ShrinkStats shrink;
  bool shrunk = false;
};

}  // namespace

int cmd_mutants(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--time", "--seed", "--only", "--jobs", "--shrink-time", "--work", "--profile"},
                      {"--list"});
  if (!a.positional.empty()) throw InputError("", "usage: concord mutants [options] (see concord --help)");
  if (a.flag("--list")) {
    for (const Fault& f : fault_catalogue())
      std::cout << f.name << "  (" << f.target << (f.free ? ", free runs" : "") << ")  " << f.about
                << (f.held_out      ? "  [held out, " + f.rule + "]"
                    : f.measurement ? "  [measurement only]"
                                    : "")
                << "\n";
    return kOk;
  }
  double seconds = a.option("--time") ? parse_duration(*a.option("--time"), "--time") : 60;
  double shrink_seconds = a.option("--shrink-time") ? parse_duration(*a.option("--shrink-time"), "--shrink-time") : 120;
  uint64_t seed = a.option("--seed") ? parse_u64(*a.option("--seed"), "--seed") : 1;
  unsigned cores = std::thread::hardware_concurrency();
  int jobs = a.option("--jobs") ? static_cast<int>(parse_i64(*a.option("--jobs"), "--jobs")) : (cores ? cores : 1);
  // Without --work, a folder of its own (mkdtemp under $TMPDIR, its name carrying host
  // and pid), removed at the end and at a fatal signal (cleanup.hpp): a fixed name
  // was left behind, and a symlink planted there was followed by remove_all.
  std::optional<TempDir> own;
  if (!a.option("--work")) own.emplace("concord-mutants");
  std::string work = own ? own->path() : *a.option("--work");
  std::vector<const Fault*> faults;
  for (const std::string& n : a.all("--only")) {
    const Fault* f = find_fault(n);
    if (!f) throw InputError("--only", "no planted fault named '" + n + "' (concord mutants --list)");
    faults.push_back(f);
  }
  if (faults.empty())
    for (const Fault& f : fault_catalogue())
      if (!f.measurement) faults.push_back(&f);  // planted for `concord buckets` only

  FaultSources src{c_runtime_dir(), erlang_runtime_dir(), default_c_compiler(), js_runtime_dir(), elixir_runtime_dir()};
  Registry reg(self_exe(), builtin_targets());
  declare_builtin_deviations(reg);  // a faulty target keeps the deviations the target declares
  std::cout << "concord mutants: " << faults.size() << " planted faults, a campaign of at most " << fixed1(seconds)
            << " s each (seed " << seed << ", " << jobs << " jobs), work in " << work
            << (own ? " (removed at the end; --work DIR keeps it)" : "") << "\n"
            << std::flush;
  std::vector<Row> rows;
  for (const Fault* f : faults) {
    Row row;
    row.fault = f;
    std::string dir = (std::filesystem::path(work) / f->name).string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    BackendSpec spec = *reg.find(f->target);
    for (auto& kv : build_fault(*f, dir, src)) spec.env.push_back(kv);
    if (f->free) {  // a fault of the free mode: a free campaign looks for it
      FreeCampaignConfig cfg;
      cfg.seed = seed;
      cfg.seconds = seconds;
      cfg.jobs = jobs;
      cfg.profile = a.option("--profile") ? *a.option("--profile") : f->profile.empty() ? "default" : f->profile;
      cfg.targets = {spec};
      cfg.corpus_dir = dir + "/corpus";
      cfg.stop_at_first = true;
      cfg.shrink_seconds = shrink_seconds;
      cfg.reproduce = "concord fuzz --mode free --seed " + std::to_string(seed) + " --target " + f->target;
      FreeCampaignReport r = run_free_campaign(cfg, nullptr);
      row.programs = r.totals.programs;
      // The first new finding, by case; a race's may not have shown again when it was
      // to be shrunk (free_campaign.hpp): then the first that was shrunk, if any.
      const FreeFinding* best = nullptr;
      for (const FreeFinding& x : r.findings)
        if (x.kind == FreeFinding::Kind::kNew && (!best || (!best->shrunk && x.shrunk))) best = &x;
      for (const FreeFinding& x : r.findings)
        if (&x == best) {
          row.found = true;
          row.after = x.found_after;
          row.signature = x.signature;
          row.corpus_file = x.corpus_file;
          row.shrink = x.shrink;
          row.shrunk = x.shrunk;
        }
      std::cout << (row.found ? "found     " : "NOT FOUND ") << f->name << " (" << f->target << ", free runs)"
                << (row.found ? " after " + fixed1(row.after) + " s, " + row.signature : "") << "\n"
                << std::flush;
      rows.push_back(row);
      continue;
    }
    CampaignConfig cfg;
    cfg.seed = seed;
    cfg.seconds = seconds;
    cfg.jobs = jobs;
    if (a.option("--profile"))
      cfg.profile = *a.option("--profile");
    else if (!f->profile.empty())
      cfg.profile = f->profile;  // a version 2 fault: only version 2 programs reach it
    cfg.targets = {spec};
    cfg.corpus_dir = dir + "/corpus";
    cfg.stop_at_first = true;
    cfg.shrink_seconds = shrink_seconds;
    cfg.reproduce = "concord fuzz --seed " + std::to_string(seed) + " --target " + f->target;
    CampaignReport r = run_campaign(cfg, nullptr);
    row.programs = r.totals.programs;
    for (const Finding& x : r.findings)
      if (x.kind == Finding::Kind::kNew && !row.found) {
        row.found = true;
        row.after = x.found_after;
        row.signature = x.signature;
        row.corpus_file = x.corpus_file;
        row.shrink = x.shrink;
        row.shrunk = x.shrunk;
      }
    std::cout << (row.found ? "found     " : "NOT FOUND ") << f->name << " (" << f->target << ")"
              << (row.found ? " after " + fixed1(row.after) + " s, " + row.signature : "") << "\n"
              << std::flush;
    rows.push_back(row);
  }

  // The table.
  std::cout << "\n| fault | target | found | first divergence | programs | shrunk size | processes | shrink time |\n"
            << "|---|---|---|---|---|---|---|---|\n";
  std::vector<double> shrink_times;
  size_t found = 0;
  for (const Row& r : rows) {
    found += r.found;
    if (r.shrunk) shrink_times.push_back(r.shrink.seconds);
    std::cout << "| " << r.fault->name << " | " << r.fault->target << (r.fault->free ? " (free runs)" : "") << " | "
              << (r.found ? "yes" : "**no**") << " | " << (r.found ? fixed1(r.after) + " s" : "-") << " | "
              << r.programs << " | "
              << (r.shrunk ? std::to_string(r.shrink.size_before) + " -> " + std::to_string(r.shrink.size_after) : "-")
              << " | " << (r.shrunk ? std::to_string(r.shrink.processes_after) : "-") << " | "
              << (r.shrunk ? fixed1(r.shrink.seconds) + " s" : "-") << " |\n";
  }
  std::sort(shrink_times.begin(), shrink_times.end());
  double median = shrink_times.empty() ? 0 : shrink_times[shrink_times.size() / 2];
  std::cout << "\nfound " << found << " of " << rows.size() << " planted faults; median shrink time " << fixed1(median)
            << " s (target: every fault found within 60 s; shrink median under 30 s, at most 3 processes)\n"
            << "rerun: concord mutants --time " << fixed1(seconds) << "s --seed " << seed << "\n";
  return found == rows.size() ? kOk : kDisagree;
}

}  // namespace concord
