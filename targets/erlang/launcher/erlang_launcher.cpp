// targets/erlang/launcher/erlang_launcher.cpp: the erlang target's side of the node:
// how it is started and what its last words mean; the rest (frames, faults,
// replacement) is the FramedRuntime's.
#include "erlang_launcher.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "runners/protocol/backends.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/common/install_paths.hpp"

namespace concord {

ErlangTargetConfig erlang_config_from_env(const std::string& default_ebin) {
  ErlangTargetConfig cfg;
  if (const char* erl = std::getenv("CONCORD_ERL"); erl && *erl) cfg.erl = split_command(erl);
  const char* ebin = std::getenv("CONCORD_ERLANG_EBIN");
  cfg.ebin = ebin && *ebin ? ebin : default_ebin;
  return cfg;
}

std::vector<std::string> erlang_node_command(const ErlangTargetConfig& cfg, const std::vector<std::string>& paths) {
  // The emulator's own words after ours: the last of two flags wins (CONCORD_ERL="erl +S 2").
  std::vector<std::string> argv = {cfg.erl.at(0)};
  argv.insert(argv.end(), cfg.erl_flags.begin(), cfg.erl_flags.end());
  argv.insert(argv.end(), cfg.erl.begin() + 1, cfg.erl.end());
  // Absolute: the node runs in its own temporary directory.
  argv.push_back("-pa");
  argv.push_back(std::filesystem::absolute(cfg.ebin).string());
  for (const std::string& p : paths) {
    argv.push_back("-pa");
    argv.push_back(std::filesystem::absolute(p).string());
  }
  for (const char* w : {"-s", "concord_node", "main"}) argv.push_back(w);
  if (!cfg.node_target.empty()) argv.push_back(cfg.node_target);
  return argv;
}

FramedRuntimeConfig erlang_runtime_config(const ErlangTargetConfig& cfg) {
  FramedRuntimeConfig f;
  f.target = cfg.name;
  f.who = cfg.name + " node";
  f.emit = cfg.emit;
  f.run_timeout = cfg.run_timeout;
  f.request_timeout = cfg.request_timeout;
  // The BEAM's last words when an allocation fails (RLIMIT_AS): "Cannot allocate N
  // bytes", or "Cannot reallocate" when a growing binary (a journal) fails first:
  // the run is out of memory, as the c target says of its programs, not a crash of
  // unknown cause.
  f.memory_markers = {"Cannot allocate", "Cannot reallocate"};
  f.start_hint = "$CONCORD_ERL names the emulator, default erl";
  f.ready_line = "concord ready";  // the runtime says it is up before its first frame
  f.command = [cfg](const std::string& tmpdir) {
    // Checked here because erl itself would only print a do_boot crash on stdout.
    if (!std::filesystem::exists(std::filesystem::path(cfg.ebin) / "concord_node.beam"))
      throw std::runtime_error(
          "no concord_node.beam in " + cfg.ebin +
          " (built by the concord_erlang_rt target; $CONCORD_ERLANG_EBIN overrides the directory)");
    std::vector<std::string> paths = cfg.code_paths ? cfg.code_paths() : std::vector<std::string>{};
    // No crash dump: a dying node would spend seconds writing erl_crash.dump.
    return Command{erlang_node_command(cfg, paths),
                   {{"TMPDIR", tmpdir}, {"ERL_CRASH_DUMP_SECONDS", "0"}},
                   tmpdir,
                   Limits{0, cfg.address_space_bytes}};
  };
  return f;
}

FramedRuntimeConfig erlang_free_runtime_config(const ErlangTargetConfig& cfg) {
  ErlangTargetConfig free = cfg;
  int n = cfg.free_schedulers > 0 ? cfg.free_schedulers
                                  : std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  for (size_t i = 0; i + 1 < free.erl_flags.size(); i++)
    if (free.erl_flags[i] == "+S") free.erl_flags[i + 1] = std::to_string(n);
  FramedRuntimeConfig f = erlang_runtime_config(free);
  f.who = cfg.name + " node (free runs)";
  f.emit = nullptr;
  f.emit_free = cfg.emit_free;
  return f;
}

int serve_beam(const ErlangTargetConfig& cfg) {
  FramedRuntime node(erlang_runtime_config(cfg));
  std::unique_ptr<FramedRuntime> free_node;  // started at the first free request
  Answerer free;
  if (cfg.emit_free)
    free = [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
      if (!free_node) free_node = std::make_unique<FramedRuntime>(erlang_free_runtime_config(cfg));
      free_node->answer(prog, runs, emit, RunMode::Free);
    };
  serve(
      std::cin, std::cout,
      [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
        node.answer(prog, runs, emit);
      },
      free);
  return 0;
}

std::string erlang_runtime_dir() { return runtime_path("erlang/runtime", build_paths::erlang_runtime_src); }

int serve_erlang(const LaunchOptions& o) {
  ErlangTargetConfig cfg = erlang_config_from_env(runtime_path("erlang/ebin", build_paths::erlang_ebin));
  if (o.run_timeout) cfg.run_timeout = *o.run_timeout;
  return serve_beam(cfg);
}

}  // namespace concord
