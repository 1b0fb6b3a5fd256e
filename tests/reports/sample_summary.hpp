// tests/reports/sample_summary.hpp: a small summary.json of one shard of a
// campaign (seed 3, target c, 2 shards), one signature, for the report merge tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "reports/report.hpp"

namespace concord::test {

inline ojson sample_summary(uint64_t shard, uint64_t programs, uint64_t first_case, uint64_t hits) {
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
  r.totals.elapsed = 10.0 + static_cast<double>(shard);
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

// dir/summary.json, and each page a signature names (relative paths) beside it.
inline void write_summary(const std::string& dir, const ojson& s) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/summary.json") << s.dump(2);
}

}  // namespace concord::test
