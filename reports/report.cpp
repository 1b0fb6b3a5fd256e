// reports/report.cpp: summary.json: made from a campaign, read back, merged.
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>

#include "generators/generate.hpp"
#include "oracle/error.hpp"
#include "oracle/json_text.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace fs = std::filesystem;

void Throughput::add(const CampaignProgress& p) {
  if (seen_++ % stride_ != 0) return;
  samples_.push_back({p.elapsed, static_cast<double>(p.programs), static_cast<double>(p.runs)});
  if (samples_.size() < kMaxSamples) return;
  std::vector<std::array<double, 3>> kept;
  for (size_t i = 0; i < samples_.size(); i += 2) kept.push_back(samples_[i]);
  samples_ = std::move(kept);
  stride_ *= 2;
}

ojson Throughput::to_json() const {
  ojson out = ojson::array();
  for (const auto& s : samples_)
    out.push_back(ojson::array({std::round(s[0] * 10) / 10, static_cast<uint64_t>(s[1]), static_cast<uint64_t>(s[2])}));
  return out;
}

namespace {

const char* status_word(Finding::Kind k) {
  return k == Finding::Kind::kKnown ? "known" : k == Finding::Kind::kDeviation ? "deviation" : "new";
}

// When shards disagree on a signature's status: new over known over deviation (a
// signature some case showed unexplained is not a known deviation).
std::string merged_status(const ojson& a, const ojson& b) {
  for (const char* s : {"new", "known"})
    if (a["status"] == s || b["status"] == s) return s;
  return "deviation";
}

std::string shard_name(uint64_t i, uint64_t n) { return std::to_string(i) + "/" + std::to_string(n); }

ojson first_differences(const std::vector<Divergence>& ds) {
  ojson out = ojson::array();
  for (const Divergence& d : ds) {
    ojson e{{"target", d.target}, {"run", d.run}, {"kind", d.kind}, {"report", d.report}};
    if (!d.rule.empty()) e["rule"] = d.rule;
    // How the rule was found: the dialect whose replay gives the target's answers, or the fallback analysis.
    if (!d.rule.empty()) e["attributed_by"] = d.dialect.empty() ? "fallback" : "replay:" + d.dialect;
    if (!d.deviation.empty()) e["deviation"] = d.deviation;
    if (!d.stderr_tail.empty()) e["stderr_tail"] = d.stderr_tail;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

ojson report_summary(const CampaignConfig& cfg, const CampaignReport& r, const Throughput& throughput) {
  ojson j;
  j["concord_report"] = kReportVersion;
  j["seed"] = cfg.seed;
  j["profile"] = cfg.profile;
  j["generator_version"] = gen::kGeneratorVersion;
  j["seeds_per_program"] = cfg.seeds_per_program;
  ojson targets = ojson::array();
  for (const BackendSpec& s : cfg.targets) targets.push_back(s.name);
  j["targets"] = targets;
  j["cases_requested"] = cfg.cases ? ojson(cfg.cases) : ojson(nullptr);
  j["time_limit"] = cfg.seconds > 0 ? ojson(cfg.seconds) : ojson(nullptr);
  j["shard_count"] = cfg.shard_count;
  std::ostringstream limit;
  if (cfg.cases) limit << " --cases " << cfg.cases;
  if (cfg.seconds > 0) limit << " --time " << fixed_point(cfg.seconds, 0) << "s";
  j["reproduce"] = cfg.reproduce + limit.str();
  const CampaignProgress& t = r.totals;
  j["shards"] = ojson::array({ojson{{"shard", shard_name(cfg.shard_index, cfg.shard_count)},
                                    {"jobs", cfg.jobs},
                                    {"seconds", t.elapsed},
                                    {"programs", t.programs},
                                    {"runs", t.runs},
                                    {"interrupted", r.interrupted},
                                    {"throughput", throughput.to_json()}}});
  j["seconds"] = t.elapsed;
  j["programs"] = t.programs;
  j["runs"] = t.runs;
  j["target_seconds"] = t.seconds;
  j["divergent_cases"] = t.divergent_cases;
  j["flaky"] = t.flaky;
  j["no_verdict"] = r.no_verdict;
  j["unconfirmed"] = r.unconfirmed;
  j["not_claimed"] = t.not_claimed;  // per target: programs its declaration does not claim, not compared
  j["interrupted"] = r.interrupted;
  j["deviations"] = t.deviations;
  if (!r.deviation_hits.empty()) j["deviation_hits"] = r.deviation_hits;  // "target: id" -> cases it explained
  if (!r.fresh_checked.empty()) j["fresh_checked"] = r.fresh_checked;     // per target: cases asked again afresh
  if (!r.stateful.empty()) j["stateful"] = r.stateful;                    // ... whose answer changed
  ojson sigs = ojson::array(), flaky = ojson::array();
  std::set<std::string> unexplained;  // signatures that some case showed unexplained: not a known deviation
  for (const Finding& f : r.findings)
    if (f.kind != Finding::Kind::kFlaky && f.kind != Finding::Kind::kDeviation) unexplained.insert(f.signature);
  for (const Finding& f : r.findings) {
    if (f.kind == Finding::Kind::kFlaky) {
      flaky.push_back(ojson{{"case", f.case_index}, {"signature", f.signature}, {"reproduce", f.reproduce}});
      continue;
    }
    if (f.kind == Finding::Kind::kDeviation && unexplained.count(f.signature)) continue;
    ojson s{{"signature", f.signature},
            {"status", status_word(f.kind)},
            {"hits", 0},
            {"first_case", f.case_index},
            {"program_seed", f.program_seed},
            {"found_after", f.found_after},
            {"reproduce", f.reproduce},
            {"first_difference", first_differences(f.divergences)}};
    if (!f.detail.empty()) s["detail"] = f.detail;
    if (!f.merged.empty()) s["merged"] = f.merged;
    auto hit = r.hits.find(f.signature);
    if (hit != r.hits.end()) s["hits"] = hit->second;
    if (!f.corpus_file.empty()) s["corpus_file"] = f.corpus_file;
    if (!f.store_error.empty()) s["store_error"] = f.store_error;
    if (f.shrunk)
      s["shrink"] = ojson{{"size_before", f.shrink.size_before},
                          {"size_after", f.shrink.size_after},
                          {"processes_after", f.shrink.processes_after},
                          {"tests", f.shrink.tests},
                          {"seconds", f.shrink.seconds}};
    sigs.push_back(std::move(s));
  }
  std::sort(sigs.begin(), sigs.end(), [](const ojson& a, const ojson& b) { return a["signature"] < b["signature"]; });
  j["signatures"] = sigs;
  j["flaky_cases"] = flaky;
  j["coverage"] = r.coverage.to_json();
  return j;
}

namespace {

// The keys every summary has, with the JSON type each must be.
void check_shape(const ojson& j, const std::string& where) {
  static const std::vector<std::pair<const char*, ojson::value_t>> kKeys = {
      {"seed", ojson::value_t::number_unsigned},
      {"profile", ojson::value_t::string},
      {"generator_version", ojson::value_t::number_unsigned},
      {"seeds_per_program", ojson::value_t::number_unsigned},
      {"targets", ojson::value_t::array},
      {"shard_count", ojson::value_t::number_unsigned},
      {"shards", ojson::value_t::array},
      {"seconds", ojson::value_t::number_float},
      {"programs", ojson::value_t::number_unsigned},
      {"runs", ojson::value_t::number_unsigned},
      {"target_seconds", ojson::value_t::object},
      {"divergent_cases", ojson::value_t::number_unsigned},
      {"flaky", ojson::value_t::number_unsigned},
      {"no_verdict", ojson::value_t::object},
      {"signatures", ojson::value_t::array},
      {"flaky_cases", ojson::value_t::array},
      {"coverage", ojson::value_t::object}};
  for (const auto& [key, type] : kKeys) {
    if (!j.contains(key)) throw InputError(where, std::string("no \"") + key + "\"");
    bool number = type == ojson::value_t::number_float && j[key].is_number();
    if (j[key].type() != type && !number) throw InputError(where + ": /" + key, "has the wrong type");
  }
  for (size_t i = 0; i < j["signatures"].size(); i++) {
    const ojson& s = j["signatures"][i];
    std::string at = where + ": /signatures/" + std::to_string(i);
    if (!s.is_object() || !s.contains("signature") || !s["signature"].is_string() || !s.contains("hits") ||
        !s["hits"].is_number_unsigned() || !s.contains("first_case") || !s["first_case"].is_number_unsigned() ||
        !s.contains("status") || !s["status"].is_string())
      throw InputError(at, "a signature needs \"signature\", \"status\", \"hits\" and \"first_case\"");
  }
  for (size_t i = 0; i < j["shards"].size(); i++) {
    const ojson& sh = j["shards"][i];
    std::string at = where + ": /shards/" + std::to_string(i);
    if (!sh.is_object() || !sh.contains("shard") || !sh["shard"].is_string())
      throw InputError(at, "a shard needs its \"shard\" (\"i/N\")");
    for (const ojson& sample : sh.value("throughput", ojson::array()))
      if (!sample.is_array() || sample.size() != 3 || !sample[0].is_number() || !sample[1].is_number() ||
          !sample[2].is_number())
        throw InputError(at + "/throughput", "each sample is [seconds, programs, runs]");
  }
  check_figures(j, where);
  try {
    Coverage::from_json(j["coverage"]);
  } catch (const InputError& e) {
    throw InputError(where + ": /coverage", e.what());
  }
  try {  // whatever else is off shows when the files are rendered: find it now, before writing
    report_markdown(j);
    report_junit(j);
    report_html(j);
  } catch (const ojson::exception& e) {
    throw InputError(where, std::string("a field has the wrong type: ") + e.what());
  }
}

}  // namespace

ojson read_report(const std::string& dir) {
  std::string path = (fs::path(dir) / "summary.json").string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "not a report folder (no such directory)");
  if (!fs::exists(path, ec)) throw InputError(path, "missing: not a report folder of concord fuzz");
  ojson j = read_json_file(path, false);  // its figures include fractions
  if (!j.is_object() || !j.contains("concord_report"))
    throw InputError(path, "not a concord report (no \"concord_report\" version)");
  if (j["concord_report"] != kReportVersion)
    throw InputError(path + ": /concord_report", "format version " + j["concord_report"].dump() +
                                                     ", this concord reads version " + std::to_string(kReportVersion));
  check_shape(j, path);
  return j;
}

ojson merge_reports(const std::vector<ojson>& summaries, const std::vector<std::string>& origins) {
  if (summaries.empty()) throw InputError("", "no report to merge");
  const ojson& first = summaries[0];
  ojson m = first;
  std::set<std::string> shards;
  for (const ojson& sh : first["shards"]) shards.insert(sh.value("shard", std::string()));
  std::map<std::string, ojson> sigs;
  for (const ojson& s : first["signatures"]) sigs[s["signature"]] = s;
  Coverage cov = Coverage::from_json(first["coverage"]);
  for (size_t i = 1; i < summaries.size(); i++) {
    const ojson& j = summaries[i];
    for (const char* key : {"seed", "profile", "generator_version", "seeds_per_program", "targets", "shard_count"})
      if (j[key] != first[key])
        throw InputError(origins[i], std::string("not a shard of the same campaign as ") + origins[0] + ": \"" + key +
                                         "\" is " + j[key].dump() + " there and " + first[key].dump() + " here");
    for (const ojson& sh : j["shards"]) {
      std::string name = sh.value("shard", std::string());
      if (!shards.insert(name).second)
        throw InputError(origins[i], "shard " + name + " is already in an earlier folder: merge each shard once");
      m["shards"].push_back(sh);
    }
    m["seconds"] = std::max(m["seconds"].get<double>(), j["seconds"].get<double>());
    for (const char* key : {"programs", "runs", "divergent_cases", "flaky"})
      m[key] = add_counts(m[key].get<uint64_t>(), j[key].get<uint64_t>(), key, origins[i]);
    m["deviations"] =
        add_counts(m.value("deviations", uint64_t{0}), j.value("deviations", uint64_t{0}), "deviations", origins[i]);
    for (const auto& [t, s] : j["target_seconds"].items())
      m["target_seconds"][t] = m["target_seconds"].value(t, 0.0) + s.get<double>();
    for (const char* key : {"no_verdict", "unconfirmed", "not_claimed"}) {
      const ojson counts = j.value(key, ojson::object());  // named: items() must not outlive it
      if (!m.contains(key)) m[key] = ojson::object();
      for (const auto& [t, n] : counts.items())
        m[key][t] = add_counts(m[key].value(t, uint64_t{0}), n.get<uint64_t>(), std::string(key) + "/" + t, origins[i]);
    }
    m["interrupted"] = m.value("interrupted", false) || j.value("interrupted", false);
    for (const ojson& f : j["flaky_cases"]) m["flaky_cases"].push_back(f);
    for (const ojson& s : j["signatures"]) {
      auto it = sigs.find(s["signature"]);
      if (it == sigs.end()) {
        sigs[s["signature"]] = s;
        continue;
      }
      ojson& have = it->second;
      uint64_t hits = add_counts(have["hits"].get<uint64_t>(), s["hits"].get<uint64_t>(), "hits", origins[i]);
      std::string status = merged_status(have, s);
      std::set<std::string> merged;  // what each shard merged into this bucket (rename_key.hpp)
      for (const ojson* x : std::initializer_list<const ojson*>{&have, &s})
        for (const ojson& m : x->value("merged", ojson::array())) merged.insert(m.get<std::string>());
      if (s["first_case"].get<uint64_t>() < have["first_case"].get<uint64_t>()) have = s;  // the campaign's first
      have["hits"] = hits;
      have["status"] = status;
      if (!merged.empty()) have["merged"] = ojson(std::vector<std::string>(merged.begin(), merged.end()));
    }
    cov.merge(Coverage::from_json(j["coverage"]));
  }
  auto index = [](const ojson& shard) { return std::strtoull(shard.value("shard", "").c_str(), nullptr, 10); };
  std::sort(m["shards"].begin(), m["shards"].end(),
            [&](const ojson& a, const ojson& b) { return index(a) < index(b); });
  std::sort(m["flaky_cases"].begin(), m["flaky_cases"].end(),
            [](const ojson& a, const ojson& b) { return a.value("case", 0) < b.value("case", 0); });
  // A bucket one shard merged (equal shrunk programs up to renaming) that another
  // shard kept as its own: its hits go to the bucket.
  for (auto& [name, s] : sigs)
    for (const ojson& other : s.value("merged", ojson::array())) {
      auto it = sigs.find(other.get<std::string>());
      if (it == sigs.end() || it->first == name) continue;
      s["hits"] = add_counts(s["hits"].get<uint64_t>(), it->second["hits"].get<uint64_t>(), "hits", name);
      sigs.erase(it);
    }
  m["signatures"] = ojson::array();
  for (auto& [name, s] : sigs) m["signatures"].push_back(s);
  m["coverage"] = cov.to_json();
  // As the reader will see the written file (its text parsed again), checked as it checks it.
  check_shape(parse_json_text(m.dump(), JsonTextOptions{false}), "the merged summary of " + origins[0] + " ...");
  return m;
}

std::string fixed_point(double v, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << v;
  return o.str();
}

std::string targets_of(const ojson& s) {
  std::string out;
  for (const std::string& t : signature_targets(s.value("signature", std::string())))
    out += (out.empty() ? "" : "+") + t;
  return out;
}

std::string campaign_title(const ojson& j) {
  std::string shards;
  for (const ojson& sh : j["shards"]) shards += (shards.empty() ? "" : ", ") + sh.value("shard", std::string());
  return "concord fuzz: seed " + std::to_string(j["seed"].get<uint64_t>()) + ", profile " +
         j["profile"].get<std::string>() +
         (j["shard_count"].get<uint64_t>() > 1 ? ", shards " + shards + " of " + j["shard_count"].dump() : "");
}

std::string targets_words(const ojson& j) {
  std::string out = "oracle";
  for (const ojson& t : j["targets"]) out += ", " + t.get<std::string>();
  return out;
}

std::string signatures_words(const ojson& j) {
  size_t fresh = 0, known = 0, deviations = 0;
  for (const ojson& s : j["signatures"])
    (s["status"] == "new" ? fresh : s["status"] == "deviation" ? deviations : known)++;
  return std::to_string(fresh) + " new, " + std::to_string(known) + " known" +
         (deviations ? ", " + std::to_string(deviations) + " known deviation" + (deviations == 1 ? "" : "s") : "");
}

std::string status_words(const ojson& s) {
  return s["status"] == "new" ? "NEW" : s["status"] == "deviation" ? "known deviation" : "known";
}

std::string first_difference_words(const ojson& s) {
  std::string out;
  if (s.contains("detail")) out += "detail: " + s.value("detail", "") + "\n";
  if (s.contains("merged")) {
    out += "with, equal up to renaming:";
    for (const ojson& m : s["merged"]) out += " " + m.get<std::string>() + ";";
    out.back() = '\n';
  }
  for (const ojson& d : s.value("first_difference", ojson::array())) {
    out += d.value("target", "") + ", run " + std::to_string(d.value("run", 0)) +
           (d.contains("rule") ? ", " + d.value("rule", "") + " at " + d.value("kind", "") : "") +
           (d.contains("deviation") ? " (declared deviation " + d.value("deviation", "") + ")" : "") + ":\n" +
           d.value("report", "");
    std::string tail = d.value("stderr_tail", "");
    if (tail.empty()) continue;
    out += "  stderr tail of " + d.value("target", "") + ":\n";
    size_t at = 0;
    while (at < tail.size()) {
      size_t nl = tail.find('\n', at);
      size_t end = nl == std::string::npos ? tail.size() : nl;
      out += "    " + tail.substr(at, end - at) + "\n";
      at = end + 1;
    }
  }
  return out;
}

std::string add_page(std::vector<std::pair<std::string, std::string>>& pages, const std::string& name,
                     std::string text) {
  std::filesystem::path path(name);
  std::string stem = (path.parent_path() / path.stem()).string(), ext = path.extension().string();
  for (int n = 1;; n++) {
    std::string candidate = n == 1 ? name : stem + "-" + std::to_string(n) + ext;
    auto same = std::find_if(pages.begin(), pages.end(), [&](const auto& p) { return p.first == candidate; });
    if (same == pages.end()) {
      pages.emplace_back(candidate, std::move(text));
      return candidate;
    }
    if (same->second == text) return candidate;
  }
}

void write_report(const std::string& dir, const ojson& summary,
                  const std::vector<std::pair<std::string, std::string>>& pages) {
  std::vector<std::pair<std::string, std::string>> files = pages;
  files.emplace_back("summary.md", report_markdown(summary));
  files.emplace_back("junit.xml", report_junit(summary));
  files.emplace_back("index.html", report_html(summary));
  files.emplace_back("summary.json", summary.dump(2) + "\n");
  write_folder(dir, files, "summary.json");  // no summary.json: not a (complete) report
}

}  // namespace concord
