// reports/report.hpp: a campaign's report folder (DESIGN §4): summary.json is the
// model, written from the campaign (or merged from its shards' folders), and every
// other file is rendered from it alone: summary.md, junit.xml (one test case per
// signature) and index.html (figures drawn as inline SVG, a link to each
// signature's triage page under triage/). So `concord report merge` only merges
// JSON and renders again.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "runners/campaign/campaign.hpp"

namespace concord {

constexpr int kReportVersion = 1;  // "concord_report" in summary.json

// The campaign's progress over time, about one sample a second, thinned to at
// most kMaxSamples by dropping every other one when full (so an 8-hour campaign
// keeps an even spread).
class Throughput {
 public:
  static constexpr size_t kMaxSamples = 400;
  void add(const CampaignProgress& p);
  ojson to_json() const;  // [[seconds, programs, runs], ...]

 private:
  std::vector<std::array<double, 3>> samples_;
  size_t stride_ = 1, seen_ = 0;
};

// summary.json of one campaign (or shard). Each signature's "triage" (a page
// under triage/) is left for the caller, which makes the pages.
ojson report_summary(const CampaignConfig& cfg, const CampaignReport& r, const Throughput& throughput);

// Reads DIR/summary.json and checks its format version and shape. InputError
// located at "DIR/summary.json: ..." otherwise.
ojson read_report(const std::string& dir);

// The bounds of a summary's figures (report_figures.cpp): a count above 2^53 (no
// campaign comes near; a JSON reader that uses doubles would round it), seconds
// negative, not finite or above 1e12, or shards whose programs and runs are not the
// totals: InputError located at where + ": /field". read_report checks them, and a
// merge checks what it writes.
constexpr uint64_t kMaxReportCount = uint64_t{1} << 53;
constexpr double kMaxReportSeconds = 1e12;
void check_figures(const ojson& summary, const std::string& where);
// a + b; InputError(where, ...) naming `what` when the sum passes kMaxReportCount.
uint64_t add_counts(uint64_t a, uint64_t b, const std::string& what, const std::string& where);

// Joins the shards of one campaign: the same seed, profile, generator version,
// seeds per program, targets and shard count, and no shard twice (InputError
// naming the two folders otherwise). Counts add up (InputError beyond
// kMaxReportCount); a signature's first case is the lowest case index over the
// shards, its hits the sum; coverage merges. The result is checked as read_report
// checks a file: a merge never writes what its reader refuses.
// `origins` names each summary's folder, for messages.
ojson merge_reports(const std::vector<ojson>& summaries, const std::vector<std::string>& origins);

std::string report_markdown(const ojson& summary);  // report_markdown.cpp
std::string report_junit(const ojson& summary);     // report_junit.cpp
std::string report_html(const ojson& summary);      // report_html.cpp

// What the renderers share: "12.3" for (12.345, 1); the targets a summary's
// signature entry names, "+"-joined ("c+erlang"); the campaign in one line; every
// target compared ("oracle, c, erlang"); the signatures counted ("2 new, 1 known"),
// and one signature's status ("NEW", "known", "known deviation");
// a signature entry's first differences ("c, run 0:\n  first difference at ...").
std::string fixed_point(double v, int digits);
std::string targets_of(const ojson& signature_entry);
std::string campaign_title(const ojson& summary);
std::string targets_words(const ojson& summary);
std::string signatures_words(const ojson& summary);
std::string status_words(const ojson& signature_entry);  // "NEW", "known", "known deviation"
std::string first_difference_words(const ojson& signature_entry);

// Adds the page `name` with `text` to `pages` and gives the name it has there: two
// signatures whose case is one file share its page (a campaign rerun on its own
// corpus can reach one stored case under two signatures); another text under a
// name already taken gets a name of its own (name-2.html, ...).
std::string add_page(std::vector<std::pair<std::string, std::string>>& pages, const std::string& name,
                     std::string text);

// Writes summary.json, summary.md, junit.xml, index.html and `pages` (paths in the
// folder: the triage pages) into dir, created when needed, as one folder
// (write_folder, runners/process/files.hpp): either all of them arrive, summary.json last,
// or a WriteError leaves dir as it was. summary.json marks a complete report.
void write_report(const std::string& dir, const ojson& summary,
                  const std::vector<std::pair<std::string, std::string>>& pages = {});

}  // namespace concord
