// targets/erlang/launcher/erlang_launcher.hpp: the `erlang` target behind the protocol (`concord
// backend erlang`): emit the program as one Erlang module and send it, with the
// request's runs, as one frame to a persistent BEAM node (targets/erlang/README.md,
// "Node input: frames"), relaying the node's lines unchanged. The node is a
// FramedRuntime (targets/common/framed_runtime.hpp): started on the first request
// and reused; one that dies, hangs or prints garbage is killed, its runs get CRASH,
// TIMEOUT or BAD_OUTPUT, and the next request starts a fresh one. This configuration
// serves every BEAM target: another one (elixir) gives it its emitter, its runtime's
// code paths and its concord_target module.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "targets/common/framed_runtime.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "targets/launch.hpp"

namespace concord {

struct ErlangTargetConfig {
  std::string name = "erlang";  // the target, in messages ("erlang: cannot start the node: ...")
  std::function<std::string(const Program&)> emit = [](const Program& p) { return emit_erlang(p); };
  // The program for free runs (SPEC §25: no conductor, real schedulers); none: the
  // target answers free runs UNSUPPORTED. The node runs free frames with the erlang
  // target's runtime only (concord_free_run); another BEAM target's node answers them
  // UNSUPPORTED.
  std::function<std::string(const Program&)> emit_free = [](const Program& p) { return emit_erlang_free(p); };
  // Schedulers of the node that runs free runs: 0 is as many as the machine has
  // cores, and 2 at least, so that processes really run side by side.
  int free_schedulers = 0;
  std::vector<std::string> erl = {"erl"};  // the emulator, possibly with flags ($CONCORD_ERL split into words)
  // One scheduler: the conductor grants one turn at a time, so more schedulers only
  // move messages between cores and spin when idle (measured: +S 2 is 0-10% slower
  // on the corpus, ping-pong and spawn storms). +P: room for runs with more
  // processes than the BEAM's default limit of 262144. +sbwt none (and for the dirty
  // schedulers): an idle scheduler sleeps at once instead of spinning for more work,
  // which between two frames burnt about a fifth of the target's CPU time, taken
  // from the other targets on the same cores (bench/fuzz_bench.py).
  std::vector<std::string> erl_flags = {"-noinput", "+S",        "1",    "+P",       "4194304", "+sbwt",
                                        "none",     "+sbwtdcpu", "none", "+sbwtdio", "none"};
  std::string ebin;  // the compiled shared runtime: concord_node.beam and the rest
  // Another BEAM target's: its concord_target module (passed to concord_node:main;
  // "" is the erlang target's concord_otp), and the code paths it needs besides
  // ebin, in -pa order; each found when the node starts or the start fails, saying which.
  std::string node_target;
  std::function<std::vector<std::string>()> code_paths;
  double run_timeout = 30;  // per run; run 0 includes compiling the module
  double request_timeout = 240;
  // RLIMIT_AS of the node, as the c target's programs have: a program that allocates
  // without end costs its request (MEMORY), not the machine's memory. 0: none.
  int64_t address_space_bytes = int64_t{4} << 30;
};

// The configuration of `concord backend erlang`: $CONCORD_ERL (default "erl", split
// into words like a shell would) and $CONCORD_ERLANG_EBIN (default `default_ebin`,
// the build's ebin directory).
ErlangTargetConfig erlang_config_from_env(const std::string& default_ebin);

// The runtime's Erlang sources (what `concord mutants` rebuilds with a fault):
// targets/erlang/runtime, or its copy under share/concord when installed.
std::string erlang_runtime_dir();

// The node's command line: the emulator, erl_flags, the emulator's own flags, then
// -pa EBIN, -pa for each of `paths` (the target's code_paths) and -s concord_node
// main [node_target].
std::vector<std::string> erlang_node_command(const ErlangTargetConfig& cfg, const std::vector<std::string>& paths = {});

// The FramedRuntime configuration that runs `cfg`'s node: BAD_REQUEST runs answered
// in place, the others sent to the node in one frame; an emit failure INTERNAL per
// run; a node that cannot be started, CRASH saying what is missing.
FramedRuntimeConfig erlang_runtime_config(const ErlangTargetConfig& cfg);

// The same for free runs (SPEC §25): a node of its own, with free_schedulers
// schedulers, fed frames of the free program (emit_free).
FramedRuntimeConfig erlang_free_runtime_config(const ErlangTargetConfig& cfg);

// Serves the protocol on stdin/stdout until EOF with `cfg`'s nodes: conducted runs on
// one node, free runs (when cfg.emit_free is set) on another, each started at its
// first request.
int serve_beam(const ErlangTargetConfig& cfg);

// `concord backend erlang`: serves the protocol on stdin/stdout until EOF.
int serve_erlang(const LaunchOptions& o);

}  // namespace concord
