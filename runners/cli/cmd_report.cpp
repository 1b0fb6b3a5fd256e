// runners/cli/cmd_report.cpp: `concord report merge --into OUT DIR...`: the report
// folders of a campaign's shards joined into one (reports/report.hpp), their
// triage pages copied along. With --corpus (the merged corpus), each signature
// names its file there and keeps the triage page of the case that corpus kept.
#include <filesystem>
#include <iostream>
#include <set>

#include "oracle/error.hpp"
#include "reports/report.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/load.hpp"
#include "runners/protocol/safe_names.hpp"

namespace concord {
namespace {

namespace fs = std::filesystem;

std::string contents_or_empty(const std::string& path) {
  try {
    return read_file(path);
  } catch (const std::exception&) {
    return "";
  }
}

// The triage page to keep for a merged signature: by default the one of the
// shard whose case was kept; with a merged corpus, the one whose case file is the
// merged corpus's file byte for byte, when a shard has it.
void place_signature(ojson& s, const std::vector<ojson>& inputs, const std::string* corpus) {
  if (corpus && s.contains("corpus_file")) {
    std::string merged = (fs::path(*corpus) / fs::path(s["corpus_file"].get<std::string>()).filename()).string();
    if (fs::exists(merged)) {
      std::string want = contents_or_empty(merged);
      for (const ojson& in : inputs)
        for (const ojson& other : in["signatures"])
          if (other["signature"] == s["signature"] && other.contains("corpus_file") &&
              other.contains("triage_source") && contents_or_empty(other["corpus_file"]) == want)
            s["triage_source"] = other["triage_source"];
      s["corpus_file"] = merged;
    }
  }
}

int report_merge(int argc, char** argv) {
  Args a = parse_args(argc - 1, argv + 1, {"--into", "--corpus"}, {});
  if (!a.option("--into") || a.positional.empty())
    throw InputError("", "usage: concord report merge --into OUT [--corpus MERGED_CORPUS] DIR... (see concord --help)");
  const std::string out = *a.option("--into");
  // Read and check every input before writing anything.
  std::vector<ojson> inputs;
  for (const std::string& dir : a.positional) {
    ojson j = read_report(dir);
    for (size_t i = 0; i < j["signatures"].size(); i++) {
      ojson& s = j["signatures"][i];
      if (!s.contains("triage")) continue;
      // A page of this shard's folder, never a file elsewhere that a summary names.
      std::string field = (fs::path(dir) / "summary.json").string() + ": /signatures/" + std::to_string(i) + "/triage";
      if (!s["triage"].is_string()) throw InputError(field, "expected a path inside " + dir);
      std::string src = path_inside(dir, s["triage"].get<std::string>(), field);
      if (!fs::is_regular_file(src)) throw InputError(src, "the triage page that summary.json names is missing");
      s["triage_source"] = src;
    }
    inputs.push_back(std::move(j));
  }
  ojson merged = merge_reports(inputs, a.positional);
  std::set<std::string> shards;
  for (const ojson& sh : merged["shards"]) shards.insert(sh.value("shard", std::string()));
  uint64_t n = merged["shard_count"];
  ojson missing = ojson::array();
  for (uint64_t i = 0; i < n; i++)
    if (!shards.count(std::to_string(i) + "/" + std::to_string(n)))
      missing.push_back(std::to_string(i) + "/" + std::to_string(n));
  if (!missing.empty()) merged["missing_shards"] = missing;

  std::vector<std::pair<std::string, std::string>> pages;
  for (ojson& s : merged["signatures"]) {
    place_signature(s, inputs, a.option("--corpus"));
    if (!s.contains("triage_source")) continue;
    std::string src = s["triage_source"], page = "triage/" + fs::path(src).filename().string();
    s["triage"] = add_page(pages, page, read_file(src));  // two shards' pages may share a name
    s.erase("triage_source");
  }
  write_report(out, merged, pages);
  std::cout << "merged " << inputs.size() << " reports into " << out << ": " << merged["programs"] << " programs, "
            << merged["runs"] << " runs, " << merged["signatures"].size() << " signatures, shards";
  for (const std::string& s : shards) std::cout << " " << s;
  std::cout << " of " << n << "\n";
  if (!missing.empty()) std::cout << "missing shards: " << missing.dump() << " (the report covers the others only)\n";
  std::cout << "report: " << out << "/index.html\n";
  return kOk;
}

}  // namespace

int cmd_report(int argc, char** argv) {
  if (argc > 2 && std::string(argv[2]) == "merge") return report_merge(argc, argv);
  throw InputError("", "usage: concord report merge --into OUT [--corpus MERGED_CORPUS] DIR...");
}

}  // namespace concord
