// runners/protocol/load.cpp: files to programs and cases, with located errors.
#include "load.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/json_text.hpp"
#include "oracle/limits.hpp"
#include "oracle/text.hpp"
#include "safe_names.hpp"

namespace concord {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, std::string("cannot open file: ") + std::strerror(errno));
  std::string data;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<size_t>(in.gcount()));
    if (static_cast<int64_t>(data.size()) > kMaxInputBytes)
      throw InputError(path, "file is larger than " + std::to_string(kMaxInputBytes) + " bytes");
  }
  if (in.bad()) throw InputError(path, "read error");
  return data;
}

static std::string with_origin(const std::string& origin, const InputError& e) {
  return e.where.empty() ? origin : origin + ":" + (e.where[0] == '/' ? " " : "") + e.where;
}

Program program_from_source(const std::string& text, const std::string& origin) {
  try {
    size_t first = text.find_first_not_of(" \t\r\n");
    Program p = (first != std::string::npos && text[first] == '{') ? program_from_json_text(text) : parse_program(text);
    check(p);
    return p;
  } catch (const InputError& e) {
    throw InputError(with_origin(origin, e), e.what_is_wrong);
  }
}

Program load_program(const std::string& path) { return program_from_source(read_file(path), path); }

namespace {

int64_t int_at(const ojson& j, const char* key, int64_t dflt, const std::string& ptr) {
  if (!j.contains(key)) return dflt;
  return json_int64(j[key], ptr + "/" + key);
}

}  // namespace

ojson read_json_file(const std::string& path, bool exact_integers) {
  std::string text = read_file(path);
  try {
    return parse_json_text(text, JsonTextOptions{exact_integers});
  } catch (const InputError& e) {
    throw InputError(with_origin(path, e), e.what_is_wrong);
  }
}

Case load_case(const std::string& path) {
  ojson j = read_json_file(path);
  auto fail = [&](const std::string& ptr, const std::string& what) -> void {
    throw InputError(path + ": " + ptr, what);
  };
  if (!j.is_object()) fail("", "a case file is a JSON object");
  static const char* const known[] = {"concord_case", "name",   "about",  "source", "program", "runs",
                                      "signature",    "status", "reason", "found",  "detail"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::none_of(std::begin(known), std::end(known), [&](const char* k) { return it.key() == k; }))
      fail("/" + it.key(), "unknown key '" + it.key() + "'");
  if (!j.contains("concord_case") || j["concord_case"] != 1) fail("/concord_case", "expected format version 1");
  Case c;
  c.path = path;
  if (!j.contains("name") || !j["name"].is_string()) fail("/name", "missing or not a string");
  c.name = j["name"].get<std::string>();
  check_case_name(c.name, path + ": /name");  // it becomes file names and identifiers (export, merge)
  if (j.contains("about") && j["about"].is_string()) c.about = j["about"].get<std::string>();
  if (j.contains("source") == j.contains("program")) fail("", "expected exactly one of 'source' or 'program'");
  if (j.contains("source")) {
    if (!j["source"].is_string()) fail("/source", "expected a file name");
    // Relative to the case's folder and inside it: never read from elsewhere.
    std::string folder = fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().string();
    fs::path src = path_inside(folder, j["source"].get<std::string>(), path + ": /source");
    std::error_code ec;
    if (!fs::is_regular_file(src, ec))
      fail("/source", "the program file '" + j["source"].get<std::string>() + "' (" + src.string() +
                          ") does not exist or is not a file");
    c.program = load_program(src.string());
  } else {
    try {
      c.program = program_from_json(j["program"]);
      check(c.program);
    } catch (const InputError& e) {
      throw InputError(path + ": /program" + e.where, e.what_is_wrong);
    }
  }
  if (j.contains("signature")) {
    if (!j["signature"].is_string()) fail("/signature", "expected a string");
    c.signature = j["signature"].get<std::string>();
  }
  if (j.contains("detail")) {
    if (!j["detail"].is_string()) fail("/detail", "expected a string");
    c.detail = j["detail"].get<std::string>();
  }
  if (j.contains("status")) {
    if (j["status"] != "regression" && j["status"] != "known-divergence")
      fail("/status", "expected \"regression\" or \"known-divergence\"");
    c.status = j["status"].get<std::string>();
  }
  if (c.status == "known-divergence" && (c.signature.empty() || !j.contains("reason") || !j["reason"].is_string()))
    fail("/reason", "a known divergence needs its signature and a reason");
  if (j.contains("reason") && j["reason"].is_string()) c.reason = j["reason"].get<std::string>();
  if (j.contains("found")) c.found = j["found"];
  if (!j.contains("runs") || !j["runs"].is_array() || j["runs"].empty()) fail("/runs", "expected a non-empty array");
  for (size_t i = 0; i < j["runs"].size(); i++) {
    const ojson& r = j["runs"][i];
    std::string ptr = "/runs/" + std::to_string(i);
    if (!r.is_object()) fail(ptr, "expected an object");
    CaseRun cr;
    if (!r.contains("seed")) fail(ptr + "/seed", "missing: expected an unsigned 64-bit integer");
    try {
      cr.settings.seed = json_uint64(r["seed"], ptr + "/seed");
      cr.settings.turns = int_at(r, "turns", kDefaultTurns, ptr);
      cr.settings.max_processes = int_at(r, "max_processes", kDefaultProcesses, ptr);
    } catch (const InputError& e) {
      throw InputError(path + ": " + e.where, e.what_is_wrong);
    }
    if (!r.contains("expect")) fail(ptr + "/expect", "missing expected result");
    cr.expect = r["expect"];
    c.runs.push_back(std::move(cr));
  }
  return c;
}

std::vector<std::string> find_cases(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "not a directory");
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->is_regular_file() && p.size() > 10 && p.compare(p.size() - 10, 10, ".case.json") == 0) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace concord
