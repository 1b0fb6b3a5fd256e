// runners/cli/args.cpp: options, numbers, durations and shell quoting for every
// command of `concord`.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

bool Args::flag(const std::string& f) const {
  for (const auto& x : flags)
    if (x == f) return true;
  return false;
}

const std::string* Args::option(const std::string& o) const {
  for (const auto& x : options)
    if (x.first == o) return &x.second;
  return nullptr;
}

std::vector<std::string> Args::all(const std::string& o) const {
  std::vector<std::string> v;
  for (const auto& x : options)
    if (x.first == o) v.push_back(x.second);
  return v;
}

Args parse_args(int argc, char** argv, const std::vector<std::string>& with_value,
                const std::vector<std::string>& known_flags) {
  Args a;
  for (int i = 2; i < argc; i++) {
    std::string s = argv[i];
    if (s.rfind("--", 0) != 0) {
      a.positional.push_back(s);
      continue;
    }
    std::string value;
    bool inline_value = false;
    if (auto eq = s.find('='); eq != std::string::npos) {
      value = s.substr(eq + 1);
      s = s.substr(0, eq);
      inline_value = true;
    }
    bool takes = std::find(with_value.begin(), with_value.end(), s) != with_value.end();
    bool is_flag = std::find(known_flags.begin(), known_flags.end(), s) != known_flags.end();
    if (!takes && !is_flag) throw InputError("", "unknown option '" + s + "' (see concord --help)");
    if (is_flag) {
      a.flags.push_back(s);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw InputError("", "option " + s + " needs a value");
      value = argv[++i];
    }
    a.options.emplace_back(s, value);
  }
  return a;
}

uint64_t parse_u64(const std::string& s, const std::string& what) {
  if (s.empty()) throw InputError("", what + " is empty");
  int base = 10;
  size_t start = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    start = 2;
  }
  uint64_t v = 0;
  for (size_t i = start; i < s.size(); i++) {
    int d;
    char c = s[i];
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      throw InputError("", what + " '" + s + "' is not a number");
    if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
      throw InputError("", what + " '" + s + "' is out of range");
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

int64_t parse_i64(const std::string& s, const std::string& what) {
  uint64_t v = parse_u64(s, what);
  if (v > static_cast<uint64_t>(INT64_MAX)) throw InputError("", what + " '" + s + "' is out of range");
  return static_cast<int64_t>(v);
}

std::string one_file(const Args& a, const char* cmd) {
  if (a.positional.size() != 1)
    throw InputError("", std::string("usage: concord ") + cmd + " FILE (see concord --help)");
  return a.positional[0];
}

bool is_case_file(const std::string& path) {
  return path.size() > 10 && path.compare(path.size() - 10, 10, ".case.json") == 0;
}

double parse_seconds(const std::string& s, const std::string& what) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || !(v > 0) || v > 1e6) throw InputError("", what + " '" + s + "' is not a number of seconds");
  return v;
}

double parse_duration(const std::string& s, const std::string& what) {
  static const std::pair<char, double> units[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}};
  for (const auto& [u, factor] : units)
    if (!s.empty() && s.back() == u) return parse_seconds(s.substr(0, s.size() - 1), what) * factor;
  return parse_seconds(s, what);
}

}  // namespace concord
