// runners/cli/cmd_backend.cpp: `concord backend oracle|c|erlang`: the built-in
// targets serving the backend protocol (runners/PROTOCOL.md) on stdin/stdout.
#include <boost/process/search_path.hpp>
#include <cstdlib>
#include <iostream>

#include "oracle/error.hpp"
#include "runners/c_backend.hpp"
#include "runners/cli/cli.hpp"
#include "runners/erlang_backend.hpp"
#include "runners/serve.hpp"
#include "targets/c/emitter/emit_c.hpp"

namespace concord {

std::string default_c_compiler() {
  const char* cc = std::getenv("CONCORD_CC");
  if (cc && *cc) return cc;
#ifndef CONCORD_RT_SANITIZED
  if (!boost::process::search_path("tcc").empty()) return "tcc";
#endif
  return CONCORD_DEFAULT_CC;
}

// `concord backend NAME`: serve the protocol on stdin/stdout until EOF.
int cmd_backend(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--timeout"}, {});
  if (a.positional.size() != 1 ||
      (a.positional[0] != "oracle" && a.positional[0] != "c" && a.positional[0] != "erlang"))
    throw InputError("", "usage: concord backend oracle|c|erlang (see concord --help)");
  if (a.positional[0] == "oracle") {
    serve(std::cin, std::cout, answer_with_oracle);
    return kOk;
  }
  if (a.positional[0] == "erlang") {
    ErlangTargetConfig cfg = erlang_config_from_env(CONCORD_ERLANG_EBIN);
    if (const std::string* t = a.option("--timeout")) cfg.run_timeout = parse_seconds(*t, "--timeout");
    ErlangTarget erlang(cfg);
    serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
      erlang.answer(prog, runs, emit);
    });
    return kOk;
  }
  CTargetConfig cfg;
  cfg.emit = [](const Program& prog) { return emit_c(prog); };
  cfg.cc = split_command(default_c_compiler());
#ifdef CONCORD_FAULT_CC_FLAG
  cfg.cc.push_back(CONCORD_FAULT_CC_FLAG);  // a build with a planted fault (CMake's CONCORD_FAULT)
#endif
  cfg.rt_include = CONCORD_RT_INCLUDE;
  const char* rt_lib = std::getenv("CONCORD_RT_LIB");  // e.g. the sanitized runtime, for `ctest -L sanitize`
  cfg.rt_lib = rt_lib && *rt_lib ? rt_lib : CONCORD_RT_LIB;
#ifdef CONCORD_RT_SANITIZED
  cfg.address_space_bytes = 0;  // ASan reserves terabytes of address space
#endif
  for (const std::string& w : cfg.cc)
    if (w.rfind("-fsanitize", 0) == 0) cfg.address_space_bytes = 0;  // likewise for a sanitizing $CONCORD_CC
  if (const std::string* t = a.option("--timeout")) cfg.run_timeout = parse_seconds(*t, "--timeout");
  CTarget c(cfg);
  serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
    c.answer(prog, runs, emit);
  });
  return kOk;
}

}  // namespace concord
