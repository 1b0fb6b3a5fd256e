// tests/reports/report_test.cpp: report folders (reports/report.hpp) and `concord
// report merge`: throughput samples stay bounded; a summary reads back; merging
// shards adds their counts; and, as a user runs it, two shards of a campaign plus
// `corpus merge` and `report merge` equal the same campaign on one machine. The
// diverging targets are the oracle with its output bent by sed, so the expected
// divergences are known by construction: `liar` says turn_limit for quiescent,
// `liar2` says ready 9 for the second "ready":2 of a line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "oracle/error.hpp"
#include "reports/report.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/runners/bent_oracles.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const std::string kLiar = test_backends::bent_option("liar", test_backends::kSaysTurnLimit);
const std::string kLiar2 = test_backends::bent_option("liar2", test_backends::kSecondReady2Is9);

CommandResult run_concord(std::vector<std::string> args) {
  args.insert(args.begin(), build_paths::concord_binary);
  return run_command(Command{args, {}, "", {}}, "", 300);
}

// One campaign (or shard) of seed 7 on the two liars, one worker.
CommandResult campaign(const std::string& corpus, const std::string& report, const std::string& shard = "") {
  // Unshrunk: shrinking is the shrinker's tests' business, and the merge is the same.
  std::vector<std::string> args{
      "fuzz",     "--seed",      "7",        "--cases",    "16",        "--jobs", "1",         "--seeds-per-program",
      "2",        "--no-shrink", "--target", "liar,liar2", "--backend", kLiar,    "--backend", kLiar2,
      "--corpus", corpus,        "--report", report,       "--quiet"};
  if (!shard.empty()) args.insert(args.end(), {"--shard", shard});
  return run_concord(args);
}

ojson sample_summary(uint64_t shard, uint64_t programs, uint64_t first_case, uint64_t hits) {
  CampaignConfig cfg;
  cfg.seed = 3;
  cfg.shard_index = shard;
  cfg.shard_count = 2;
  cfg.reproduce = "concord fuzz --seed 3";
  BackendSpec t;
  t.name = "c";
  cfg.targets = {t};
  CampaignReport r;
  r.totals.programs = programs;
  r.totals.runs = programs * 8;
  r.totals.elapsed = 10 + shard;
  r.totals.divergent_cases = hits;
  r.totals.seconds = {{"c", 4.0}};
  Finding f;
  f.signature = "c:outcome";
  f.case_index = first_case;
  f.divergences = {Divergence{"c", 0, "outcome", "  x\n", "", "", "", ""}};
  r.findings = {f};
  r.hits["c:outcome"] = hits;
  r.coverage.programs = programs;
  return report_summary(cfg, r, Throughput());
}

}  // namespace

TEST(Throughput, StaysBoundedAndSpansTheWholeCampaign) {
  Throughput t;
  for (int i = 0; i <= 20000; i++) {
    CampaignProgress p;
    p.elapsed = i;
    p.programs = static_cast<uint64_t>(i) * 3;
    t.add(p);
  }
  ojson j = t.to_json();
  EXPECT_LE(j.size(), Throughput::kMaxSamples);
  EXPECT_GE(j.size(), Throughput::kMaxSamples / 2);
  EXPECT_EQ(j.front()[0], 0.0);
  EXPECT_GT(j.back()[0].get<double>(), 19000);  // an even spread, not only the start
  EXPECT_EQ(j.back()[1].get<double>(), j.back()[0].get<double>() * 3);
}

TEST(Report, MergeAddsCountsKeepsTheFirstCaseAndSumsHits) {
  ojson a = sample_summary(0, 100, 12, 3), b = sample_summary(1, 90, 5, 4);
  ojson m = merge_reports({a, b}, {"a", "b"});
  EXPECT_EQ(m["programs"], 190);
  EXPECT_EQ(m["runs"], 1520);
  EXPECT_EQ(m["seconds"], 11.0);  // the shards ran side by side
  EXPECT_EQ(m["target_seconds"]["c"], 8.0);
  ASSERT_EQ(m["signatures"].size(), 1u);
  EXPECT_EQ(m["signatures"][0]["first_case"], 5);
  EXPECT_EQ(m["signatures"][0]["hits"], 7);
  EXPECT_EQ(m["shards"].size(), 2u);
  EXPECT_EQ(m["coverage"]["programs"], 190);
}

TEST(Report, MergeRefusesAnotherCampaignAndAShardTwice) {
  ojson a = sample_summary(0, 100, 12, 3), b = sample_summary(1, 90, 5, 4);
  ojson other = b;
  other["seed"] = 4;
  try {
    merge_reports({a, other}, {"r0", "r1"});
    FAIL() << "merged two campaigns";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(merge_reports({a, a}, {"r0", "r0again"}), InputError);
}

// Issue 40 defect 8: two signatures whose case is one file named one triage page
// twice, and the report's write failed on the second ("File exists") with no report.
TEST(Report, TwoSignaturesOfOneCaseShareItsPageAndTheReportIsWritten) {
  std::vector<std::pair<std::string, std::string>> pages;
  EXPECT_EQ(add_page(pages, "triage/div_1.html", "<p>one</p>"), "triage/div_1.html");
  EXPECT_EQ(add_page(pages, "triage/div_1.html", "<p>one</p>"), "triage/div_1.html");      // the same page
  EXPECT_EQ(add_page(pages, "triage/div_1.html", "<p>other</p>"), "triage/div_1-2.html");  // another text
  EXPECT_EQ(add_page(pages, "triage/div_1.html", "<p>third</p>"), "triage/div_1-3.html");
  ASSERT_EQ(pages.size(), 3u);
  TempDir dir("concord-report-pages");
  ojson s = sample_summary(0, 100, 12, 3);
  write_report(dir.path() + "/rep", s, pages);
  EXPECT_EQ(read_file(dir.path() + "/rep/triage/div_1-2.html"), "<p>other</p>");
  EXPECT_TRUE(fs::exists(dir.path() + "/rep/summary.json"));
  // A folder given one file twice is a bug of its caller, said as such, not EEXIST.
  pages.push_back({"triage/div_1.html", "<p>again</p>"});
  try {
    write_report(dir.path() + "/twice", s, pages);
    ADD_FAILURE() << "a page given twice was written";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("triage/div_1.html is given twice"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.path() + "/twice"));
}

TEST(Report, RenderedFilesSayWhatTheSummarySays) {
  ojson s = sample_summary(0, 100, 12, 3);
  std::string junit = report_junit(s);
  EXPECT_NE(junit.find("tests=\"1\" failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("name=\"c:outcome\""), std::string::npos) << junit;
  std::string html = report_html(s);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("c:outcome"), std::string::npos);
  EXPECT_NE(report_markdown(s).find("| programs | 100 "), std::string::npos) << report_markdown(s);
  s["signatures"][0]["first_difference"][0]["report"] = std::string("bell \x07 nul ") + '\0' + " end\n";
  std::string bad = report_junit(s);
  EXPECT_NE(bad.find("bell ? nul ? end"), std::string::npos) << bad;  // XML 1.0 cannot carry them
  s["signatures"] = ojson::array();
  s["flaky_cases"] = ojson::array();
  EXPECT_NE(report_junit(s).find("tests=\"1\" failures=\"0\""), std::string::npos);  // one passing case
}

TEST(ReportCli, TwoShardsMergedEqualTheCampaignOnOneMachine) {
  TempDir dir("concord-shards");
  std::string d = dir.path();
  CommandResult whole = campaign(d + "/corpus", d + "/report");
  ASSERT_EQ(whole.status.code, 1) << whole.out << whole.err;
  for (const char* shard : {"0/2", "1/2"}) {
    std::string i(1, shard[0]);
    CommandResult r = campaign(d + "/corpus-" + i, d + "/report-" + i, shard);
    ASSERT_EQ(r.status.code, 1) << r.out << r.err;
  }
  CommandResult cm = run_concord({"corpus", "merge", "--into", d + "/merged", d + "/corpus-0", d + "/corpus-1"});
  ASSERT_EQ(cm.status.code, 0) << cm.out << cm.err;
  CommandResult rm = run_concord(
      {"report", "merge", "--into", d + "/report-merged", "--corpus", d + "/merged", d + "/report-0", d + "/report-1"});
  ASSERT_EQ(rm.status.code, 0) << rm.out << rm.err;

  ojson one = read_report(d + "/report"), merged = read_report(d + "/report-merged");
  for (const char* key : {"programs", "runs", "divergent_cases", "flaky", "coverage", "no_verdict"})
    EXPECT_EQ(one[key], merged[key]) << key;
  ASSERT_EQ(one["signatures"].size(), merged["signatures"].size());
  EXPECT_GE(one["signatures"].size(), 2u);  // both liars were caught
  for (size_t i = 0; i < one["signatures"].size(); i++) {
    const ojson &a = one["signatures"][i], &b = merged["signatures"][i];
    EXPECT_EQ(a["signature"], b["signature"]);
    EXPECT_EQ(a["hits"], b["hits"]) << a["signature"];
    EXPECT_EQ(a["first_case"], b["first_case"]) << a["signature"];
    EXPECT_EQ(a["reproduce"], b["reproduce"]) << a["signature"];  // a shard's line replays without --shard
    // The merged report names the merged corpus, and each page is there.
    EXPECT_EQ(fs::path(b["corpus_file"].get<std::string>()).parent_path(), fs::path(d + "/merged"));
    EXPECT_TRUE(fs::exists(d + "/report-merged/" + b["triage"].get<std::string>())) << b.dump(2);
  }
  // The same signatures in both corpora, under the same names.
  std::vector<std::string> names_one, names_merged;
  for (const std::string& f : find_cases(d + "/corpus")) names_one.push_back(fs::path(f).filename());
  for (const std::string& f : find_cases(d + "/merged")) names_merged.push_back(fs::path(f).filename());
  EXPECT_EQ(names_one, names_merged);
  for (const std::string& f : find_cases(d + "/merged"))
    EXPECT_EQ(load_case(f).signature, load_case(d + "/corpus/" + fs::path(f).filename().string()).signature);
}

TEST(ReportCli, BadFoldersAreExit2AndNothingIsWritten) {
  TempDir dir("concord-report-bad");
  std::string d = dir.path();
  fs::create_directories(d + "/good");
  ojson s = sample_summary(0, 10, 1, 1);
  std::ofstream(d + "/good/summary.json") << s.dump();
  // Another format version.
  fs::create_directories(d + "/v2");
  ojson v2 = sample_summary(1, 10, 1, 1);
  v2["concord_report"] = 2;
  std::ofstream(d + "/v2/summary.json") << v2.dump();
  CommandResult r = run_concord({"report", "merge", "--into", d + "/out", d + "/good", d + "/v2"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("v2/summary.json: /concord_report"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("format version 2"), std::string::npos) << r.err;
  // Truncated.
  fs::create_directories(d + "/cut");
  std::string text = sample_summary(1, 10, 1, 1).dump();
  std::ofstream(d + "/cut/summary.json") << text.substr(0, text.size() / 2);
  r = run_concord({"report", "merge", "--into", d + "/out", d + "/good", d + "/cut"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("cut/summary.json"), std::string::npos) << r.err;
  // The right version, a field of the wrong type.
  fs::create_directories(d + "/odd");
  ojson odd = sample_summary(1, 10, 1, 1);
  odd["signatures"][0]["first_difference"] = "no";
  std::ofstream(d + "/odd/summary.json") << odd.dump();
  r = run_concord({"report", "merge", "--into", d + "/out", d + "/good", d + "/odd"});
  EXPECT_EQ(r.status.code, 2) << r.err;
  EXPECT_NE(r.err.find("odd/summary.json"), std::string::npos) << r.err;
  // Not a report folder at all.
  r = run_concord({"report", "merge", "--into", d + "/out", d + "/good", d + "/nowhere"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.err.find("nowhere"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d + "/out"));
  EXPECT_EQ(read_file(d + "/good/summary.json"), s.dump());  // inputs untouched
}
