// runners/cli/cmd_fuzz_free.cpp: `concord fuzz --mode free`: a free campaign
// (runners/free/free_campaign.hpp): K free runs of each generated program on each
// target, every trace checked, what breaks a guarantee shrunk and stored as a free
// case; a progress line on stderr, a report on stdout and in a report folder
// (summary.json, index.html, one triage page per finding with its witness trace).
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <random>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/printable.hpp"
#include "reports/free_triage.hpp"
#include "reports/html.hpp"
#include "reports/report.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_campaign.hpp"
#include "runners/free/free_case.hpp"
#include "runners/process/cleanup.hpp"
#include "runners/process/files.hpp"

namespace concord {
namespace {

namespace fs = std::filesystem;

std::string progress_line(const FreeCampaignProgress& p) {
  double rate = p.elapsed > 0 ? p.programs / p.elapsed : 0;
  return "[" + fixed_point(p.elapsed, 0) + " s] " + std::to_string(p.programs) + " programs (" + fixed_point(rate, 1) +
         "/s), " + std::to_string(p.traces) + " free runs | not admissible " + std::to_string(p.violations) +
         " programs, signatures " + std::to_string(p.signatures) + (p.shrinking ? " (shrinking)" : "");
}

std::string page_name(const FreeFinding& f) { return "triage/" + free_case_name(f.signature) + ".html"; }
std::string trace_name(const FreeFinding& f) { return "traces/" + free_case_name(f.signature) + ".trace.json"; }

ojson summary_json(const FreeCampaignConfig& cfg, const FreeCampaignReport& r) {
  ojson s;
  s["concord_report"] = 1;
  s["mode"] = "free";
  s["seed"] = cfg.seed;
  s["profile"] = cfg.profile;
  s["free_runs_per_program"] = cfg.runs;
  s["reproduce"] = cfg.reproduce;
  s["elapsed_seconds"] = r.totals.elapsed;
  s["programs"] = r.totals.programs;
  s["interrupted"] = r.interrupted;
  ojson targets = ojson::object();
  for (const auto& [name, st] : r.targets) {
    ojson t;
    t["programs"] = st.programs;
    t["free_runs"] = st.traces;
    t["admissible"] = st.admissible;
    t["not_admissible"] = st.not_admissible;
    t["distinct_traces"] = st.distinct;
    t["programs_with_more_than_one_trace"] = st.free_programs;
    t["no_verdict"] = st.no_verdict;
    t["errors"] = st.errors;
    t["seconds"] = st.seconds;
    targets[name] = t;
  }
  s["targets"] = targets;
  ojson findings = ojson::array();
  for (const FreeFinding& f : r.findings) {
    ojson j;
    j["signature"] = f.signature;
    j["status"] = f.kind == FreeFinding::Kind::kNew ? "new" : "known";
    j["programs"] = r.hits.count(f.signature) ? r.hits.at(f.signature) : 1;
    j["case"] = f.case_index;
    j["violation"] = f.violation.guarantee + ": " + f.violation.text;
    j["violating_runs"] = f.violating;
    j["of_runs"] = f.of;
    j["reruns"] = f.reruns;
    j["shrunk"] = f.shrunk;
    if (f.shrunk)
      j["shrink"] = {{"size_before", f.shrink.size_before},
                     {"size_after", f.shrink.size_after},
                     {"processes_before", f.shrink.processes_before},
                     {"processes_after", f.shrink.processes_after},
                     {"tests", f.shrink.tests},
                     {"seconds", f.shrink.seconds}};
    if (!f.corpus_file.empty()) j["corpus_file"] = f.corpus_file;
    if (!f.note.empty()) j["note"] = f.note;
    j["reproduce"] = f.reproduce;
    if (!f.witness.is_null()) {
      j["triage"] = page_name(f);
      j["witness"] = trace_name(f);
    }
    findings.push_back(j);
  }
  s["findings"] = findings;
  return s;
}

std::string index_html(const ojson& s) {
  std::string o = html_page_start("concord free campaign, seed " + std::to_string(s["seed"].get<uint64_t>()));
  o += "<h1>Free campaign, seed " + std::to_string(s["seed"].get<uint64_t>()) + "</h1>\n";
  o += "<p>" + std::to_string(s["programs"].get<uint64_t>()) + " programs of profile " +
       html_escape(s["profile"].get<std::string>()) + ", " + std::to_string(s["free_runs_per_program"].get<int>()) +
       " free runs each per target, in " + fixed_point(s["elapsed_seconds"].get<double>(), 1) + " s.</p>\n";
  o += html_command(s["reproduce"].get<std::string>());
  o += "<table><tr><th>target</th><th class=\"num\">free runs</th><th class=\"num\">admissible</th><th "
       "class=\"num\">not admissible</th><th class=\"num\">programs with more than one trace</th><th "
       "class=\"num\">distinct traces</th><th>errors</th></tr>\n";
  for (const auto& [name, t] : s["targets"].items()) {
    std::string errors;
    for (const auto& [code, n] : t["errors"].items())
      errors += (errors.empty() ? "" : ", ") + std::to_string(n.get<uint64_t>()) + " " + code;
    o += "<tr><td>" + html_escape(name) + "</td><td class=\"num\">" + std::to_string(t["free_runs"].get<uint64_t>()) +
         "</td><td class=\"num\">" + std::to_string(t["admissible"].get<uint64_t>()) + "</td><td class=\"num\">" +
         std::to_string(t["not_admissible"].get<uint64_t>()) + "</td><td class=\"num\">" +
         std::to_string(t["programs_with_more_than_one_trace"].get<uint64_t>()) + "</td><td class=\"num\">" +
         std::to_string(t["distinct_traces"].get<uint64_t>()) + "</td><td>" + html_escape(errors) + "</td></tr>\n";
  }
  o += "</table>\n<h2>Findings</h2>\n";
  if (s["findings"].empty()) o += "<p class=\"agree\">Every trace admissible.</p>\n";
  for (const ojson& f : s["findings"]) {
    o += "<p><span class=\"differ\">" + html_escape(f["status"].get<std::string>() == "new" ? "NEW" : "known") +
         "</span> <code>" + html_escape(f["signature"].get<std::string>()) + "</code> (" +
         std::to_string(f["programs"].get<uint64_t>()) +
         " programs): " + html_escape(f["violation"].get<std::string>());
    if (f.contains("triage")) o += " <a href=\"" + html_escape(f["triage"].get<std::string>()) + "\">triage</a>";
    o += "</p>\n";
  }
  o += html_page_end();
  return o;
}

void print_report(std::ostream& out, const FreeCampaignConfig& cfg, const FreeCampaignReport& r) {
  const FreeCampaignProgress& t = r.totals;
  out << "\n"
      << (r.interrupted ? "interrupted after " : "finished in ") << fixed_point(t.elapsed, 1) << " s: " << t.programs
      << " programs, " << t.traces << " free runs\n";
  for (const auto& [name, st] : r.targets) {
    out << "  " << name << ": " << st.traces << " free runs, " << st.admissible << " admissible, " << st.not_admissible
        << " not admissible; " << st.free_programs << " of " << st.programs << " programs gave more than one trace ("
        << st.distinct << " distinct traces in all)";
    for (const auto& [code, n] : st.errors) out << "; " << n << " " << code;
    if (st.no_verdict)
      out << "; no verdict on " << st.no_verdict
          << " programs (a failure that did not happen again on a fresh backend, or no fresh backend)";
    out << "; " << fixed_point(st.seconds, 1) << " s\n";
  }
  out << "not admissible: " << t.violations << " programs, " << t.signatures << " signatures\n";
  for (const FreeFinding& f : r.findings) {
    auto hit = r.hits.find(f.signature);
    out << "  " << (f.kind == FreeFinding::Kind::kNew ? "NEW" : "known") << "  " << f.signature << "  (case "
        << f.case_index << ", " << (hit == r.hits.end() ? 1 : hit->second) << " programs, first after "
        << fixed_point(f.found_after, 1) << " s; " << f.violating << " of " << f.of << " runs)\n";
    if (f.kind == FreeFinding::Kind::kKnown) continue;
    out << "    " << printable(f.violation.guarantee + ": " + f.violation.text) << "\n";
    if (f.shrunk)
      out << "    shrunk: size " << f.shrink.size_before << " -> " << f.shrink.size_after << ", processes "
          << f.shrink.processes_before << " -> " << f.shrink.processes_after << ", " << f.shrink.tests << " tests of "
          << f.reruns << " free runs each, " << fixed_point(f.shrink.seconds, 1) << " s"
          << (f.shrink.timed_out ? " (time limit)" : "") << "\n";
    if (!f.note.empty()) out << "    note: " << f.note << "\n";
    if (!f.corpus_file.empty())
      out << "    corpus: " << f.corpus_file << (f.stored ? "" : " (a smaller case of this signature was there)")
          << "\n";
    if (!f.store_error.empty()) out << "    NOT STORED: " << printable(f.store_error) << "\n";
    out << "    reproduce: " << f.reproduce << "\n";
  }
  if (!cfg.corpus_dir.empty() && t.signatures == 0) out << "nothing found: no file written\n";
}

void write_free_report(const std::string& dir, const FreeCampaignConfig& cfg, const FreeCampaignReport& r) {
  ojson summary = summary_json(cfg, r);
  std::vector<std::pair<std::string, std::string>> files;
  for (const FreeFinding& f : r.findings) {
    if (f.witness.is_null()) continue;
    FreeTriage t;
    Program p = program_from_json(f.program);
    check(p);
    t.title = f.signature;
    t.program = &p;
    t.trace = f.witness;
    try {
      t.verdict = check_trace(p, f.witness);
    } catch (const InputError& e) {
      t.verdict.admissible = false;
      t.verdict.violations.push_back({"malformed trace", e.what(), {e.where}});
    }
    if (!f.corpus_file.empty())
      t.commands = {"concord triage " + shell_quote(f.corpus_file) + " --target " + f.target,
                    "concord run " + shell_quote(f.corpus_file) + " --mode free --target " + f.target + " --runs " +
                        std::to_string(f.reruns)};
    t.commands.push_back(f.reproduce);
    files.emplace_back(page_name(f), free_triage_html(t));
    files.emplace_back(trace_name(f), f.witness.dump() + "\n");
  }
  files.emplace_back("index.html", index_html(summary));
  files.emplace_back("summary.json", summary.dump(2) + "\n");
  write_folder(dir, files, "summary.json");
}

}  // namespace

int cmd_fuzz_free(int argc, char** argv) {
  Args a =
      parse_args(argc, argv,
                 {"--mode", "--seed", "--cases", "--time", "--jobs", "--runs", "--profile", "--target", "--backend",
                  "--backends", "--timeout", "--corpus", "--shrink-time", "--shard", "--case", "--report"},
                 {"--no-shrink", "--no-report", "--quiet"});
  if (!a.positional.empty()) throw InputError("", "usage: concord fuzz --mode free [options] (see concord --help)");
  FreeCampaignConfig cfg;
  cfg.seed = a.option("--seed") ? parse_u64(*a.option("--seed"), "--seed")
                                : (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (const std::string* s = a.option("--cases")) cfg.cases = parse_u64(*s, "--cases");
  if (const std::string* s = a.option("--time")) cfg.seconds = parse_duration(*s, "--time");
  if (!a.option("--cases") && !a.option("--time") && !a.option("--case")) cfg.seconds = 60;
  if (a.option("--cases") && cfg.cases == 0) throw InputError("--cases", "must be at least 1");
  unsigned cores = std::thread::hardware_concurrency();
  cfg.jobs = cores ? static_cast<int>(cores) : 1;
  if (const std::string* s = a.option("--jobs")) cfg.jobs = static_cast<int>(parse_i64(*s, "--jobs"));
  if (cfg.jobs < 1 || cfg.jobs > 256) throw InputError("--jobs", "must be 1..256");
  if (const std::string* s = a.option("--runs")) cfg.runs = static_cast<int>(parse_i64(*s, "--runs"));
  if (cfg.runs < 1 || cfg.runs > 1000) throw InputError("--runs", "must be 1..1000");
  if (const std::string* s = a.option("--profile")) cfg.profile = *s;
  gen::profile_named(cfg.profile);
  if (const std::string* s = a.option("--shrink-time")) cfg.shrink_seconds = parse_duration(*s, "--shrink-time");
  cfg.shrink = !a.flag("--no-shrink");
  if (const std::string* s = a.option("--shard")) parse_shard(*s, cfg.shard_index, cfg.shard_count);
  for (const std::string& c : a.all("--case")) cfg.only_cases.push_back(parse_u64(c, "--case"));
  cfg.corpus_dir = a.option("--corpus") ? *a.option("--corpus") : "corpus/free";
  if (!cfg.only_cases.empty() && !a.option("--corpus")) {
    cfg.corpus_dir.clear();
    cfg.shrink = false;
  }
  // Free runs are what the BEAM targets' free mode answers: erlang by default
  // (elixir with --target; a user's backend that runs free runs, named).
  std::string target = a.option("--target") ? *a.option("--target") : "erlang";
  Targets t = choose_targets(a, target);
  for (const BackendSpec* s : t.chosen) cfg.targets.push_back(*s);  // the oracle too: its conducted runs as traces
  if (!cfg.corpus_dir.empty()) cleanup::sweep(cfg.corpus_dir);
  cfg.reproduce = "concord fuzz --mode free --seed " + std::to_string(cfg.seed) + " --profile " + cfg.profile +
                  " --runs " + std::to_string(cfg.runs) + " --target " + shell_quote(target) + t.declared;
  std::string report_dir;
  if (const std::string* s = a.option("--report"))
    report_dir = *s;
  else if (cfg.only_cases.empty())
    report_dir = "campaigns/free-seed-" + std::to_string(cfg.seed);
  if (a.flag("--no-report")) report_dir.clear();
  cfg.interrupted = &install_stop_handlers();

  std::string names;
  for (const BackendSpec& s : cfg.targets) names += (names.empty() ? "" : ", ") + s.name;
  std::cout << "concord fuzz --mode free: seed " << cfg.seed << ", profile " << cfg.profile << ", " << cfg.runs
            << " free runs per program, targets " << names << ", " << cfg.jobs << " jobs";
  if (cfg.cases) std::cout << ", " << cfg.cases << " cases";
  if (cfg.seconds > 0) std::cout << ", " << fixed_point(cfg.seconds, 0) << " s";
  if (cfg.only_cases.empty())
    std::cout << "\n  reproduce this campaign: " << cfg.reproduce
              << (cfg.cases ? " --cases " + std::to_string(cfg.cases) : " --time " + fixed_point(cfg.seconds, 0) + "s");
  std::cout << "\n" << std::flush;
  bool tty = isatty(STDERR_FILENO);
  double last_line = 0;
  FreeCampaignReport r = run_free_campaign(cfg, [&](const FreeCampaignProgress& p) {
    if (a.flag("--quiet")) return;
    if (tty) {
      std::cerr << "\r" << progress_line(p) << "\x1b[K" << std::flush;
    } else if (p.elapsed - last_line >= 10) {
      std::cerr << progress_line(p) << "\n";
      last_line = p.elapsed;
    }
  });
  if (tty && !a.flag("--quiet")) std::cerr << "\r" << progress_line(r.totals) << "\x1b[K\n";
  print_report(std::cout, cfg, r);
  bool unwritten = false;
  for (const FreeFinding& f : r.findings) unwritten = unwritten || !f.store_error.empty();
  if (!report_dir.empty()) {
    try {
      write_free_report(report_dir, cfg, r);
      std::cout << "report: " << report_dir << "/index.html (summary.json, a triage page per finding)\n";
    } catch (const WriteError& e) {
      std::cerr << "concord: no report folder: " << printable(e.what()) << "\n";
      unwritten = true;
    }
  }
  uint64_t answered = 0;
  for (const auto& [name, st] : r.targets) answered += st.admissible + st.not_admissible;
  if (r.totals.programs > 0 && answered == 0) {
    std::cerr << "concord fuzz: no verdict: no target answered a free run with a trace\n";
    return kInternal;
  }
  bool found = false;
  for (const FreeFinding& f : r.findings) found = found || f.kind == FreeFinding::Kind::kNew || !cfg.only_cases.empty();
  return unwritten ? kInternal : found ? kDisagree : kOk;
}

}  // namespace concord
