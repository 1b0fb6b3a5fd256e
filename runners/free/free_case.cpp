// runners/free/free_case.cpp: reading and writing free cases (free_case.hpp), with
// the corpus's rules: strict reading, atomic writes, one case per signature.
#include "free_case.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/process/files.hpp"
#include "runners/protocol/load.hpp"
#include "runners/protocol/safe_names.hpp"

namespace concord {

namespace fs = std::filesystem;

std::string free_case_name(const std::string& signature) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a, as corpus_store's case_name_for
  for (unsigned char ch : signature) h = (h ^ ch) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("free_") + hex;
}

bool is_free_case_file(const std::string& path) {
  const std::string suffix = ".free.json";
  return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ojson free_case_json(const FreeCase& c) {
  ojson j = ojson::object();
  j["concord_free_case"] = 1;
  j["name"] = c.name.empty() ? free_case_name(c.signature) : c.name;
  j["about"] = c.about;
  j["signature"] = c.signature;
  j["violation"] = c.violation;
  j["status"] = c.status;
  if (!c.reason.empty()) j["reason"] = c.reason;
  if (!c.found.is_null()) j["found"] = c.found;
  j["program"] = c.program;
  j["run"] = {{"seed", c.settings.seed}, {"turns", c.settings.turns}, {"max_processes", c.settings.max_processes}};
  j["free_runs"] = c.free_runs;
  j["witness"] = c.witness;
  return j;
}

FreeCase load_free_case(const std::string& path) {
  ojson j = read_json_file(path);
  auto fail = [&](const std::string& ptr, const std::string& what) -> void { throw InputError(path + ": " + ptr, what); };
  if (!j.is_object()) fail("", "a free case is a JSON object");
  static const char* const known[] = {"concord_free_case", "name",   "about",     "signature", "violation", "status",
                                      "reason",            "found",  "program",   "run",       "free_runs", "witness"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::none_of(std::begin(known), std::end(known), [&](const char* k) { return it.key() == k; }))
      fail("/" + it.key(), "unknown key '" + it.key() + "'");
  if (j.value("concord_free_case", 0) != 1) fail("/concord_free_case", "expected format version 1");
  FreeCase c;
  c.path = path;
  for (const char* key : {"name", "about", "signature", "violation", "status"}) {
    if (!j.contains(key) || !j[key].is_string()) fail(std::string("/") + key, "missing or not a string");
  }
  c.name = j["name"].get<std::string>();
  check_case_name(c.name, path + ": /name");  // it becomes a file name (store_free_case)
  c.about = j["about"].get<std::string>();
  c.signature = j["signature"].get<std::string>();
  c.violation = j["violation"].get<std::string>();
  c.status = j["status"].get<std::string>();
  if (c.status != "regression" && c.status != "known-divergence")
    fail("/status", "expected \"regression\" or \"known-divergence\"");
  if (j.contains("reason") && j["reason"].is_string()) c.reason = j["reason"].get<std::string>();
  if (c.status == "known-divergence" && c.reason.empty()) fail("/reason", "a known divergence needs a reason");
  if (j.contains("found")) c.found = j["found"];
  if (!j.contains("program")) fail("/program", "missing");
  c.program = j["program"];
  try {
    c.checked = program_from_json(c.program);
    check(c.checked);
  } catch (const InputError& e) {
    throw InputError(path + ": /program" + e.where, e.what_is_wrong);
  }
  if (!j.contains("run") || !j["run"].is_object()) fail("/run", "missing: {\"seed\":S,\"turns\":L,\"max_processes\":P}");
  const ojson& r = j["run"];
  if (!r.contains("seed") || !r["seed"].is_number_unsigned()) fail("/run/seed", "expected an integer in 0..2^64-1");
  c.settings.seed = r["seed"].get<uint64_t>();
  if (!r.contains("turns") || !r["turns"].is_number_integer()) fail("/run/turns", "expected an integer");
  if (!r.contains("max_processes") || !r["max_processes"].is_number_integer())
    fail("/run/max_processes", "expected an integer");
  c.settings.turns = r["turns"].get<int64_t>();
  c.settings.max_processes = r["max_processes"].get<int64_t>();
  try {
    check_settings(c.settings);
  } catch (const InputError& e) {
    fail("/run", e.what());
  }
  if (!j.contains("free_runs") || !j["free_runs"].is_number_integer() || j["free_runs"].get<int64_t>() < 1 ||
      j["free_runs"].get<int64_t>() > 10000)
    fail("/free_runs", "expected an integer in 1..10000");
  c.free_runs = j["free_runs"].get<int>();
  if (j.contains("witness")) c.witness = j["witness"];
  return c;
}

std::vector<std::string> find_free_cases(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (is_free_case_file(dir) && fs::is_regular_file(dir, ec)) return {dir};
  if (!fs::is_directory(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && is_free_case_file(it->path().string())) out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> free_case_signatures(const std::string& dir) {
  std::vector<std::string> out;
  for (const std::string& f : find_free_cases(dir)) out.push_back(load_free_case(f).signature);
  return out;
}

FreeStored store_free_case(const std::string& dir, const FreeCase& c) {
  ojson j = free_case_json(c);
  for (const std::string& f : find_free_cases(dir)) {
    FreeCase other = load_free_case(f);
    if (other.signature != c.signature) continue;
    if (json_size(other.program) <= json_size(c.program)) return FreeStored{f, false};
    write_file_atomic(f, j.dump(2) + "\n");  // same signature, smaller program: it takes the place
    return FreeStored{f, true};
  }
  fs::create_directories(dir);
  std::string path = (fs::path(dir) / (j["name"].get<std::string>() + ".free.json")).string();
  write_file_atomic(path, j.dump(2) + "\n");
  return FreeStored{path, true};
}

}  // namespace concord
