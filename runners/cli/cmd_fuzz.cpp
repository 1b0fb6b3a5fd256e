// runners/cli/cmd_fuzz.cpp: `concord fuzz`: a campaign over every target (runners/
// campaign.hpp), a progress line on stderr while it runs, a report on stdout at
// the end. Ctrl-C (or SIGTERM) stops it cleanly: the cases under way finish, a
// divergence being shrunk keeps what is shrunk so far, everything found is stored.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/error.hpp"
#include "oracle/printable.hpp"
#include "reports/report.hpp"
#include "reports/triage_page.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/campaign/claims.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/cli/cli.hpp"
#include "runners/process/cleanup.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

namespace fs = std::filesystem;

std::string per_target(const std::map<std::string, double>& secs) {
  std::string out;
  for (const auto& [t, s] : secs) out += (out.empty() ? "" : ", ") + t + " " + fixed_point(s, 1) + " s";
  return out;
}

// " | not claimed: toy 40": per target, the programs its declaration does not claim
// (runners/protocol/supports.hpp), not compared there.
std::string not_claimed_text(const std::map<std::string, uint64_t>& n) {
  std::string out;
  for (const auto& [t, k] : n) out += (out.empty() ? " | not claimed: " : ", ") + t + " " + std::to_string(k);
  return out;
}

std::string progress_line(const CampaignProgress& p) {
  double rate = p.elapsed > 0 ? p.programs / p.elapsed : 0;
  return "[" + fixed_point(p.elapsed, 0) + " s] " + std::to_string(p.programs) + " programs (" + fixed_point(rate, 1) +
         "/s), " + std::to_string(p.runs) + " runs | divergent cases " + std::to_string(p.divergent_cases) +
         ", new signatures " + std::to_string(p.signatures) + ", flaky " + std::to_string(p.flaky) +
         (p.deviations ? ", known deviations " + std::to_string(p.deviations) : "") +
         (p.shrinking ? " (shrinking)" : "") + " | " + per_target(p.seconds) + not_claimed_text(p.not_claimed);
}

std::string indented(const std::string& text, const std::string& by) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += by + line + "\n";
  return out;
}

// The targets that never answered a run of the campaign themselves (runners/
// campaign.hpp CampaignReport::answered): not a runtime that fails on some
// programs, but a command that is not a backend at all (not found, crashing at
// start, not speaking the protocol). No verdict on them: exit 3, as for `run`.
std::vector<std::string> never_answered(const CampaignConfig& cfg, const CampaignReport& r) {
  std::vector<std::string> out;
  if (r.totals.programs == 0) return out;
  for (const BackendSpec& s : cfg.targets) {
    auto it = r.answered.find(s.name);
    auto unasked = r.totals.not_claimed.find(s.name);  // never asked: it claims none of them
    if (unasked != r.totals.not_claimed.end() && unasked->second == r.totals.programs) continue;
    if (it == r.answered.end() || it->second == 0) out.push_back(s.name);
  }
  return out;
}

const char* kind_word(Finding::Kind k) {
  switch (k) {
    case Finding::Kind::kNew: return "NEW";
    case Finding::Kind::kKnown: return "known";
    case Finding::Kind::kDuplicate: return "duplicate";
    case Finding::Kind::kFlaky: return "FLAKY";
    case Finding::Kind::kDeviation: return "known deviation";
  }
  return "";
}

void print_report(std::ostream& out, const CampaignConfig& cfg, const CampaignReport& r) {
  const CampaignProgress& t = r.totals;
  double rate = t.elapsed > 0 ? t.programs / t.elapsed : 0;
  out << "\n"
      << (r.interrupted ? "interrupted after " : "finished in ") << fixed_point(t.elapsed, 1) << " s: " << t.programs
      << " programs, " << t.runs << " runs (" << fixed_point(rate, 1) << " programs/s, "
      << fixed_point(t.elapsed > 0 ? t.runs / t.elapsed : 0, 1) << " runs/s)\n";
  out << "time per target (summed over workers): " << per_target(t.seconds) << "\n";
  for (const auto& [target, n] : t.not_claimed)
    out << "not claimed by " << target << ": " << n << " of " << t.programs
        << " programs, not compared there (they use what its declaration does not claim)\n";
  for (const auto& [target, n] : r.no_verdict) {
    out << "no verdict from " << target << " on " << n << " cases";
    auto u = r.unconfirmed.find(target);
    if (u != r.unconfirmed.end())
      out << " (" << u->second << " of them a crash or hang that did not happen again on a fresh backend)";
    out << "\n";
  }
  out << "divergent cases: " << t.divergent_cases << ", new signatures: " << t.signatures << ", flaky: " << t.flaky
      << ", known deviations: " << t.deviations << "\n";
  if (cfg.fresh_every > 0 && !r.fresh_checked.empty()) {
    out << "asked again of a fresh backend (every " << cfg.fresh_every << "th case that agreed or was explained): ";
    bool first = true;
    for (const auto& [target, n] : r.fresh_checked) {
      auto st = r.stateful.find(target);
      out << (first ? "" : ", ") << target << " " << n << " ("
          << (st == r.stateful.end() ? std::string("none changed") : std::to_string(st->second) + " CHANGED") << ")";
      first = false;
    }
    out << "\n";
  }
  // Each declaration with the cases it explained: one that explains much is seen.
  for (const auto& [dev, n] : r.deviation_hits)
    out << "  deviation " << dev << " explained " << n << " divergent cases"
        << (n * 2 > t.divergent_cases && t.divergent_cases >= 10
                ? " -- WARNING: most of this campaign's divergences; is the declaration too broad?"
                : "")
        << "\n";
  for (const Finding& f : r.findings) {
    auto hit = r.hits.find(f.signature);
    out << "  " << kind_word(f.kind) << "  " << f.signature << "  (case " << f.case_index << ", "
        << (hit == r.hits.end() ? 1 : hit->second) << " cases, first after " << fixed_point(f.found_after, 1)
        << " s)\n";
    for (const Divergence& d : f.divergences) {
      if (f.kind == Finding::Kind::kDeviation) {
        out << "    " << d.target << ": declared deviation " << d.deviation << "\n";
        continue;
      }
      if (f.kind == Finding::Kind::kKnown) continue;
      out << "    " << d.target << ", run " << d.run << (d.rule.empty() ? "" : ", " + d.rule + " at " + d.kind)
          << ":\n";
      if (!d.dialect.empty())
        out << "      as the oracle in dialect " << d.dialect << " (concord dialects): every run replayed\n";
      else if (!d.rule.empty())
        out << "      no dialect of the oracle gives its answers: the rule is the fallback analysis's\n";
      out << d.report;
      if (!d.stderr_tail.empty())
        out << "    stderr tail of " << d.target << ":\n" << indented(d.stderr_tail, "      ");
    }
    if (f.shrunk)
      out << "    shrunk: size " << f.shrink.size_before << " -> " << f.shrink.size_after << ", processes "
          << f.shrink.processes_before << " -> " << f.shrink.processes_after << ", runs " << f.shrink.runs_before
          << " -> " << f.shrink.runs_after << ", " << f.shrink.tests << " tests in " << fixed_point(f.shrink.seconds, 1)
          << " s" << (f.shrink.timed_out ? " (time limit)" : "") << "\n";
    if (!f.note.empty()) out << "    note: " << f.note << "\n";
    for (const std::string& m : f.merged)
      out << "    with " << m << ": its shrunk program is this one up to renaming\n";
    if (!f.corpus_file.empty())
      out << "    corpus: " << f.corpus_file << (f.stored ? "" : " (a smaller case of this signature was there)")
          << "\n";
    if (!f.store_error.empty()) out << "    NOT STORED: " << printable(f.store_error) << "\n";
    out << "    reproduce: " << f.reproduce << "\n";
  }
  out << "coverage:\n" << r.coverage.to_text();
  std::vector<std::string> blind = r.coverage.blind_spots();
  out << "never reached: ";
  if (blind.empty()) out << "nothing";
  for (size_t i = 0; i < blind.size(); i++) out << (i ? ", " : "") << blind[i];
  out << "\n";
  if (!cfg.corpus_dir.empty() && t.signatures == 0) out << "nothing new: no file written\n";
}

// The report folder, with a triage page for each signature that has a corpus
// file; a page that cannot be made is named in the report, not fatal. The folder
// is written whole or not at all (write_report).
void write_campaign_report(const std::string& dir, const CampaignConfig& cfg, const CampaignReport& r,
                           const Throughput& throughput, const std::string& declared) {
  ojson summary = report_summary(cfg, r, throughput);
  Differ differ(cfg.targets);  // one set of backends for every page
  differ.set_hang_limits(kDetectHangs);
  std::vector<std::pair<std::string, std::string>> pages;
  for (ojson& s : summary["signatures"]) {
    // A known signature's case is where the campaign that found it stored it.
    std::string known = (fs::path(cfg.corpus_dir) / (case_name_for(s["signature"]) + ".case.json")).string();
    if (!s.contains("corpus_file") && !cfg.corpus_dir.empty() && fs::exists(known)) s["corpus_file"] = known;
    if (!s.contains("corpus_file")) continue;
    std::string file = s["corpus_file"];
    try {
      Triage t = triage_case(file, load_case(file), differ, declared);
      t.page_dir = (fs::path(dir) / "triage").string();  // its links relative to the page
      std::string page =
          "triage/" + fs::path(file).filename().replace_extension("").replace_extension("").string() + ".html";
      s["triage"] = add_page(pages, page, triage_html(t));
    } catch (const std::exception& e) {
      s["triage_error"] = e.what();
    }
  }
  write_report(dir, summary, pages);
}

}  // namespace

int cmd_fuzz(int argc, char** argv) {
  for (int i = 2; i < argc; i++) {  // a free campaign has its own options (cmd_fuzz_free.cpp)
    std::string w = argv[i];
    if (w == "--mode=free" || (w == "--mode" && i + 1 < argc && std::string(argv[i + 1]) == "free"))
      return cmd_fuzz_free(argc, argv);
    if (w == "--mode" && i + 1 < argc && std::string(argv[i + 1]) != "conducted")
      throw InputError("--mode", "conducted or free, not " + std::string(argv[i + 1]));
  }
  Args a = parse_args(argc, argv,
                      {"--seed", "--cases", "--time", "--jobs", "--seeds-per-program", "--profile", "--target",
                       "--backend", "--backends", "--timeout", "--corpus", "--shrink-time", "--shard", "--case",
                       "--report", "--mode", "--fresh-every"},
                      {"--no-shrink", "--no-report", "--quiet"});
  if (!a.positional.empty()) throw InputError("", "usage: concord fuzz [options] (see concord --help)");
  CampaignConfig cfg;
  if (const std::string* s = a.option("--seed"))
    cfg.seed = parse_u64(*s, "--seed");
  else
    cfg.seed = (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (const std::string* s = a.option("--cases")) cfg.cases = parse_u64(*s, "--cases");
  if (const std::string* s = a.option("--time")) cfg.seconds = parse_duration(*s, "--time");
  if (!a.option("--cases") && !a.option("--time") && !a.option("--case")) cfg.seconds = 60;
  if (a.option("--cases") && cfg.cases == 0) throw InputError("--cases", "must be at least 1");
  unsigned cores = std::thread::hardware_concurrency();
  cfg.jobs = cores ? static_cast<int>(cores) : 1;
  if (const std::string* s = a.option("--jobs")) cfg.jobs = static_cast<int>(parse_i64(*s, "--jobs"));
  if (cfg.jobs < 1 || cfg.jobs > 256) throw InputError("--jobs", "must be 1..256");
  if (const std::string* s = a.option("--seeds-per-program"))
    cfg.seeds_per_program = static_cast<int>(parse_i64(*s, "--seeds-per-program"));
  if (cfg.seeds_per_program < 1 || cfg.seeds_per_program > 1000)
    throw InputError("--seeds-per-program", "must be 1..1000");
  if (const std::string* s = a.option("--profile")) cfg.profile = *s;
  gen::profile_named(cfg.profile);  // an unknown profile is bad input, before anything starts
  if (const std::string* s = a.option("--shrink-time")) cfg.shrink_seconds = parse_duration(*s, "--shrink-time");
  cfg.shrink = !a.flag("--no-shrink");
  if (const std::string* s = a.option("--fresh-every")) {
    int64_t n = parse_i64(*s, "--fresh-every");
    if (n < 0) throw InputError("--fresh-every", "must be 0 (never) or a number of cases");
    cfg.fresh_every = static_cast<uint64_t>(n);
  }
  if (const std::string* s = a.option("--shard")) parse_shard(*s, cfg.shard_index, cfg.shard_count);
  for (const std::string& c : a.all("--case")) cfg.only_cases.push_back(parse_u64(c, "--case"));
  cfg.corpus_dir = "corpus/found";
  if (const std::string* s = a.option("--corpus")) cfg.corpus_dir = *s;
  if (!cfg.only_cases.empty() && !a.option("--corpus")) {  // a replay shows the case; it keeps nothing unless told
    cfg.corpus_dir.clear();
    cfg.shrink = false;
  }

  const std::string* chosen = a.option("--target");
  std::string target = chosen ? *chosen : "all";
  Targets t = choose_targets(a, target);
  if (!chosen) keep_default_campaign(t, cfg.profile);
  cfg.targets = compared_targets(t);
  if (std::string why = unclaimed_campaign(cfg); !why.empty()) throw InputError("--profile", why);
  cfg.known_signatures = corpus_signatures(cfg.corpus_dir);
  if (!cfg.corpus_dir.empty()) cleanup::sweep(cfg.corpus_dir);  // what a killed campaign left half-written
  cfg.reproduce = "concord fuzz --seed " + std::to_string(cfg.seed) + " --profile " + cfg.profile +
                  " --seeds-per-program " + std::to_string(cfg.seeds_per_program) +
                  (chosen ? " --target " + shell_quote(target) : "") + t.declared;
  // The report folder: --report, else campaigns/seed-S[-shard-i-of-N]; a replay of
  // chosen cases writes one only when asked.
  std::string report_dir;
  if (const std::string* s = a.option("--report"))
    report_dir = *s;
  else if (cfg.only_cases.empty())
    report_dir =
        "campaigns/seed-" + std::to_string(cfg.seed) +
        (cfg.shard_count > 1 ? "-shard-" + std::to_string(cfg.shard_index) + "-of-" + std::to_string(cfg.shard_count)
                             : "");
  if (a.flag("--no-report")) report_dir.clear();
  cfg.interrupted = &install_stop_handlers();

  std::string names;
  for (const BackendSpec& s : cfg.targets) names += ", " + s.name;
  std::cout << "concord fuzz: seed " << cfg.seed << ", profile " << cfg.profile << ", " << cfg.seeds_per_program
            << " seeds per program, targets oracle" << names << ", " << cfg.jobs << " jobs, ";
  if (!cfg.only_cases.empty())
    std::cout << cfg.only_cases.size() << " chosen cases";
  else if (cfg.cases)
    std::cout << cfg.cases << " cases" << (cfg.seconds > 0 ? " at most" : "");
  if (cfg.seconds > 0) std::cout << (cfg.cases ? ", " : "") << fixed_point(cfg.seconds, 0) << " s";
  if (cfg.shard_count > 1) std::cout << ", shard " << cfg.shard_index << "/" << cfg.shard_count;
  if (cfg.only_cases.empty())
    std::cout << "\n  reproduce this campaign: " << cfg.reproduce
              << (cfg.cases ? " --cases " + std::to_string(cfg.cases) : " --time " + fixed_point(cfg.seconds, 0) + "s")
              << (cfg.shard_count > 1 ? " --shard " + *a.option("--shard") : "");
  std::cout << "\n" << std::flush;

  bool tty = isatty(STDERR_FILENO);
  double last_line = 0;
  Throughput throughput;
  throughput.add(CampaignProgress{});
  CampaignReport r = run_campaign(cfg, [&](const CampaignProgress& p) {
    throughput.add(p);
    if (a.flag("--quiet")) return;
    if (tty)
      std::cerr << "\r" << progress_line(p) << "\x1b[K" << std::flush;
    else if (p.elapsed - last_line >= 10) {  // a log, not a terminal: a line every 10 s
      std::cerr << progress_line(p) << "\n";
      last_line = p.elapsed;
    }
  });
  if (tty && !a.flag("--quiet")) std::cerr << "\r" << progress_line(r.totals) << "\x1b[K\n";
  throughput.add(r.totals);
  print_report(std::cout, cfg, r);
  bool unwritten = false;  // a finding or the report could not be written (a full disk): exit 3
  for (const Finding& f : r.findings) unwritten = unwritten || !f.store_error.empty();
  if (!report_dir.empty()) {
    try {
      write_campaign_report(report_dir, cfg, r, throughput, t.declared);
      std::cout << "report: " << report_dir << "/index.html (summary.json, summary.md, junit.xml)\n";
    } catch (const WriteError& e) {
      std::cerr << "concord: no report folder: " << printable(e.what()) << "\n";
      unwritten = true;
    }
  }
  if (unwritten) std::cerr << "concord: something found could not be written (see above); what was written is whole\n";
  std::vector<std::string> silent = never_answered(cfg, r);
  for (const std::string& t : silent) {
    auto first = r.first_error.find(t);
    std::cerr << "concord fuzz: no verdict: target " << t << " never answered a run itself in " << r.totals.programs
              << " programs" << (first == r.first_error.end() ? "" : "; its first answer: ")
              << (first == r.first_error.end() ? "" : first->second) << "\n";
  }
  if (!silent.empty()) return kInternal;
  bool new_found = false;
  for (const Finding& f : r.findings) new_found = new_found || f.kind == Finding::Kind::kNew;
  if (!cfg.only_cases.empty()) {
    for (const Finding& f : r.findings) new_found = new_found || f.kind == Finding::Kind::kKnown;
  }
  return unwritten ? kInternal : new_found ? kDisagree : kOk;
}

}  // namespace concord
