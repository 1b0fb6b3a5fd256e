// tests/targets/v2_programs.hpp: the programs of the oracle's version 2 tests, and
// the oracle's result line for a run, for the targets' tests to compare with.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracle/interpreter.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every raw string literal R"(concord 2; ...)" of an oracle test file.
inline std::vector<std::string> version_2_programs(const std::string& file) {
  std::string src = slurp(std::string(build_paths::source_dir) + "/tests/oracle/" + file);
  std::vector<std::string> out;
  const std::string open = "R\"(concord 2;";
  for (size_t at = src.find(open); at != std::string::npos; at = src.find(open, at)) {
    size_t from = at + 3, end = src.find(")\"", from);
    if (end == std::string::npos) break;
    out.push_back(src.substr(from, end - from));
    at = end;
  }
  return out;
}

// The oracle's result line for one run, without its newline.
inline std::string oracle_line(const Program& p, const RunSettings& r) {
  std::string line = result_line(run(p, r));
  line.pop_back();
  return line;
}

}  // namespace concord
