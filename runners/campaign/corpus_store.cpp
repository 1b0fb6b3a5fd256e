// runners/campaign/corpus_store.cpp: atomic writes, one case per signature, merging.
#include "corpus_store.hpp"

#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "oracle/error.hpp"
#include "runners/protocol/safe_names.hpp"

namespace concord {

namespace fs = std::filesystem;

ojson case_json(const NewCase& c) {
  ojson j = ojson::object();
  j["concord_case"] = 1;
  j["name"] = c.name.empty() ? case_name_for(c.signature) : c.name;
  j["about"] = c.about;
  if (!c.signature.empty()) j["signature"] = c.signature;
  if (!c.detail.empty()) j["detail"] = c.detail;
  j["status"] = c.status;
  if (!c.reason.empty()) j["reason"] = c.reason;
  if (!c.found.is_null()) j["found"] = c.found;
  j["program"] = c.program;
  ojson runs = ojson::array();
  for (const CaseRun& r : c.runs) {
    ojson run = ojson::object();
    run["seed"] = r.settings.seed;
    run["turns"] = r.settings.turns;
    run["max_processes"] = r.settings.max_processes;
    run["expect"] = r.expect;
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  return j;
}

std::string case_name_for(const std::string& signature) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a: stable across machines and builds
  for (unsigned char ch : signature) h = (h ^ ch) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("div_") + hex;
}

size_t json_size(const ojson& j) {
  size_t n = 1;
  if (j.is_structured())
    for (const ojson& v : j) n += json_size(v);
  return n;
}

namespace {

// Every case file under `dir` with its signature ("" when it has none).
std::vector<std::pair<std::string, ojson>> read_cases(const std::string& dir) {
  std::vector<std::pair<std::string, ojson>> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const std::string& f : find_cases(dir)) out.emplace_back(f, read_json_file(f));
  return out;
}

std::string signature_in(const ojson& j) {
  return j.is_object() && j.contains("signature") && j["signature"].is_string() ? j["signature"].get<std::string>()
                                                                                : "";
}

size_t program_size_in(const ojson& j) { return j.is_object() && j.contains("program") ? json_size(j["program"]) : 0; }

// The file NAME.case.json under dir; the name checked (safe_names.hpp) whoever made it.
std::string case_path(const std::string& dir, const ojson& j) {
  std::string name = j["name"].get<std::string>();
  check_case_name(name, "case " + name + ": /name");
  return path_inside(dir, name + ".case.json", "case " + name + ": /name");
}

Stored store_json(const std::string& dir, const ojson& j, const std::string& signature) {
  for (const auto& [path, other] : read_cases(dir))
    if (signature_in(other) == signature) {
      if (program_size_in(other) <= program_size_in(j)) return Stored{path, false, true};
      write_file_atomic(path, j.dump(2) + "\n");  // same signature, smaller program: it takes the place
      return Stored{path, true, true};
    }
  std::string path = case_path(dir, j);
  write_file_atomic(path, j.dump(2) + "\n");
  return Stored{path, true, false};
}

}  // namespace

Stored store_case(const std::string& dir, const NewCase& c) {
  if (c.signature.empty()) throw std::invalid_argument("store_case: a stored case needs its signature");
  return store_json(dir, case_json(c), c.signature);
}

std::vector<std::string> corpus_signatures(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& [path, j] : read_cases(dir)) {
    if (!j.is_object()) throw InputError(path, "not a case file: expected a JSON object");
    std::string s = signature_in(j);
    if (!s.empty()) out.push_back(s);
  }
  return out;
}

MergeReport merge_corpora(const std::string& into, const std::vector<std::string>& from) {
  // Every input is read and checked before anything is written: load_case refuses a
  // bad name or a source outside the shard's folder (safe_names.hpp), and every
  // path written below is checked to stay inside `into`.
  std::vector<std::pair<std::string, ojson>> incoming;
  for (const std::string& dir : from) {
    std::vector<std::string> files = find_cases(dir);
    for (const std::string& f : files) {
      load_case(f);  // throws a located InputError for a corrupt case
      incoming.emplace_back(f, read_json_file(f));
    }
  }
  for (const auto& [file, j] : incoming) {
    if (signature_in(j).empty() || !j.contains("program")) path_inside(into, fs::path(file).filename(), file);
    if (j.contains("source")) path_inside(into, j["source"].get<std::string>(), file + ": /source");
  }
  // The signatures `into` holds before the merge: their cases were checked when
  // they were stored (or reviewed since); a shard's case claiming one is only a
  // claim, which a merge, running no target, cannot check. It never replaces them.
  std::set<std::string> held;
  for (const std::string& s : corpus_signatures(into)) held.insert(s);
  MergeReport rep;
  std::error_code ec;
  fs::create_directories(into, ec);
  for (const auto& [file, j] : incoming) {
    std::string sig = signature_in(j);
    if (!sig.empty() && j.contains("program")) {
      if (held.count(sig)) {
        rep.held++;
        continue;
      }
      std::string dest = case_path(into, j);  // a file name another case has is not taken
      if (fs::exists(dest) && signature_in(read_json_file(dest)) != sig) {
        rep.conflicts.push_back(file + ": " + dest + " exists with another signature");
        continue;
      }
      Stored s = store_json(into, j, sig);
      if (!s.existed)
        rep.added++;
      else if (s.written)
        rep.replaced++;
      else
        rep.kept++;
      continue;
    }
    fs::path dest = fs::path(into) / fs::path(file).filename();
    std::string text = read_file(file);
    if (fs::exists(dest)) {
      if (read_file(dest.string()) == text)
        rep.same++;
      else
        rep.conflicts.push_back(file + ": " + dest.string() + " exists with other content");
      continue;
    }
    if (j.contains("source") && j["source"].is_string()) {  // a hand case: its program file comes along
      fs::path src = fs::path(file).parent_path() / j["source"].get<std::string>();  // checked by load_case
      write_file_atomic(path_inside(into, j["source"].get<std::string>(), file + ": /source"), read_file(src.string()));
    }
    write_file_atomic(dest.string(), text);
    rep.copied++;
  }
  return rep;
}

}  // namespace concord
