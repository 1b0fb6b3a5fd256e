// reports/report_figures.cpp: the bounds of a summary's figures, checked by its
// reader (read_report) and by a merge before it writes (issue 40): a shard's
// summary.json is input from another machine, and a count no campaign can reach,
// a negative time or shards that do not add up to the totals are refused, named,
// rather than merged into a report that renders nonsense or that its own reader
// refuses.
#include <cmath>

#include "oracle/error.hpp"
#include "reports/report.hpp"

namespace concord {
namespace {

void count_at(const ojson& v, const std::string& where, const std::string& ptr) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
    throw InputError(where + ": " + ptr, "expected a count, an integer 0 or more, not " + v.dump());
  if (v.get<uint64_t>() > kMaxReportCount)
    throw InputError(where + ": " + ptr, v.dump() + " is beyond any campaign (at most 2^53)");
}

void seconds_at(const ojson& v, const std::string& where, const std::string& ptr) {
  if (!v.is_number()) throw InputError(where + ": " + ptr, "expected seconds, not " + v.dump());
  double s = v.get<double>();
  if (!std::isfinite(s) || s < 0 || s > kMaxReportSeconds)
    throw InputError(where + ": " + ptr, v.dump() + " seconds: expected 0 to 1e12");
}

// Each value of an object of counts ("no_verdict": {"c": 2}) or of times.
void each(const ojson& j, const char* key, const std::string& where, bool seconds) {
  if (!j.contains(key)) return;
  if (!j[key].is_object()) throw InputError(where + ": /" + key, "expected an object");
  for (const auto& [k, v] : j[key].items())
    seconds ? seconds_at(v, where, std::string("/") + key + "/" + k)
            : count_at(v, where, std::string("/") + key + "/" + k);
}

}  // namespace

uint64_t add_counts(uint64_t a, uint64_t b, const std::string& what, const std::string& where) {
  if (a > kMaxReportCount || b > kMaxReportCount - a)
    throw InputError(where, "\"" + what + "\" adds up to more than 2^53 (" + std::to_string(a) + " + " +
                                std::to_string(b) + "): not the shards of one campaign");
  return a + b;
}

void check_figures(const ojson& j, const std::string& where) {
  for (const char* key : {"programs", "runs", "divergent_cases", "flaky", "deviations"})
    if (j.contains(key)) count_at(j[key], where, std::string("/") + key);
  if (j.contains("cases_requested") && !j["cases_requested"].is_null())
    count_at(j["cases_requested"], where, "/cases_requested");
  seconds_at(j["seconds"], where, "/seconds");
  if (j.contains("time_limit") && !j["time_limit"].is_null()) seconds_at(j["time_limit"], where, "/time_limit");
  each(j, "target_seconds", where, true);
  each(j, "no_verdict", where, false);
  each(j, "unconfirmed", where, false);
  each(j, "not_claimed", where, false);
  // The shards add up to the totals: a merge sums both, and a shard is its own one.
  uint64_t programs = 0, runs = 0;
  for (size_t i = 0; i < j["shards"].size(); i++) {
    const ojson& sh = j["shards"][i];
    std::string at = "/shards/" + std::to_string(i);
    for (const char* key : {"programs", "runs", "jobs"})
      if (sh.contains(key)) count_at(sh[key], where, at + "/" + key);
    if (sh.contains("seconds")) seconds_at(sh["seconds"], where, at + "/seconds");
    programs = add_counts(programs, sh.value("programs", uint64_t{0}), "programs", where + ": " + at);
    runs = add_counts(runs, sh.value("runs", uint64_t{0}), "runs", where + ": " + at);
  }
  if (programs != j["programs"].get<uint64_t>() || runs != j["runs"].get<uint64_t>())
    throw InputError(where + ": /shards", "the shards' programs and runs (" + std::to_string(programs) + ", " +
                                              std::to_string(runs) + ") are not the totals (" + j["programs"].dump() +
                                              ", " + j["runs"].dump() + ")");
  for (size_t i = 0; i < j["signatures"].size(); i++) {
    const ojson& s = j["signatures"][i];
    std::string at = "/signatures/" + std::to_string(i);
    count_at(s["hits"], where, at + "/hits");
    if (s.contains("found_after")) seconds_at(s["found_after"], where, at + "/found_after");
  }
  for (const char* key : {"programs", "results"})
    if (j["coverage"].contains(key)) count_at(j["coverage"][key], where, std::string("/coverage/") + key);
}

}  // namespace concord
