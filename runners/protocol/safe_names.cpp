// runners/protocol/safe_names.cpp: case names and paths inside a folder.
#include "safe_names.hpp"

#include <algorithm>
#include <filesystem>

#include "oracle/error.hpp"

namespace concord {

namespace fs = std::filesystem;

namespace {

bool name_byte(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// The absolute, normal form of p with its symbolic links resolved as far as they
// exist, without a trailing separator.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  fs::path r = fs::weakly_canonical(abs, ec);
  if (ec) r = abs.lexically_normal();
  if (r.has_relative_path() && r.filename().empty()) r = r.parent_path();
  return r;
}

}  // namespace

std::string case_name_problem(const std::string& name) {
  const std::string rule = "a case name is 1 to " + std::to_string(kMaxCaseNameBytes) +
                           " of A-Z a-z 0-9 _ . -, not starting with '.' or '-', without \"..\"";
  if (name.empty()) return "empty: " + rule;
  if (name.size() > kMaxCaseNameBytes) return std::to_string(name.size()) + " bytes long: " + rule;
  if (!std::all_of(name.begin(), name.end(), name_byte)) return "'" + name + "' has other characters: " + rule;
  if (name[0] == '.' || name[0] == '-') return "'" + name + "' starts with '" + name[0] + "': " + rule;
  if (name.find("..") != std::string::npos) return "'" + name + "' has \"..\": " + rule;
  return "";
}

void check_case_name(const std::string& name, const std::string& where) {
  std::string problem = case_name_problem(name);
  if (!problem.empty()) throw InputError(where, problem);
}

std::string path_inside(const std::string& root, const std::string& rel, const std::string& where) {
  fs::path r(rel);
  if (rel.empty()) throw InputError(where, "an empty path: expected a path inside " + root);
  if (r.has_root_name() || r.has_root_directory())
    throw InputError(where, "'" + rel + "' is absolute: expected a path inside " + root);
  for (const fs::path& part : r)
    if (part == "..") throw InputError(where, "'" + rel + "' has a '..' component: expected a path inside " + root);
  fs::path joined = fs::path(root) / r;
  fs::path base = resolved(root), full = resolved(joined);
  auto [b, f] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
  if (b != base.end() || f == full.end())
    throw InputError(where, "'" + rel + "' leads out of " + root + " (through a symbolic link)");
  return joined.string();
}

}  // namespace concord
