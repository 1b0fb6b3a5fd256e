// tests/runners/run_concord.hpp: the concord command as a user runs it, for the
// command-line tests: its exit code, stdout and stderr.
#pragma once

#include <boost/process.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "targets/common/build_paths.hpp"

namespace concord::test {

struct Outcome {
  int code;
  std::string out, err;
};

// Runs concord with `args`, `input` on its stdin and `env` added to its environment.
inline Outcome run_concord(const std::vector<std::string>& args, const std::string& input = "",
                           const std::vector<std::pair<std::string, std::string>>& env = {}) {
  namespace bp = boost::process;
  bp::ipstream out, err;
  bp::opstream in;
  bp::environment e = boost::this_process::environment();
  for (const auto& [k, v] : env) e.set(k, v);
  bp::child c(std::string(build_paths::concord_binary), bp::args(args), bp::std_out > out, bp::std_err > err,
              bp::std_in < in, e);
  in << input;
  in.flush();
  in.pipe().close();
  std::stringstream o, er;
  std::string line;
  while (std::getline(out, line)) o << line << "\n";
  while (std::getline(err, line)) er << line << "\n";
  c.wait();
  return {c.exit_code(), o.str(), er.str()};
}

}  // namespace concord::test
