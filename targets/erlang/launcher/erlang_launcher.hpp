// targets/erlang/launcher/erlang_launcher.hpp: the `erlang` target behind the protocol (`concord
// backend erlang`): emit the program as one Erlang module and send it, with the
// request's runs, as one frame to a persistent BEAM node (targets/erlang/README.md,
// "Node input: frames"), relaying the node's lines unchanged. The node is started
// on the first request and reused; a node that dies, hangs or prints garbage is
// killed, its runs get CRASH, TIMEOUT or BAD_OUTPUT, and the next request starts a
// fresh one. ErlangTarget serves every BEAM target: another one (elixir) gives it
// its emitter, its runtime's code paths and its concord_target module.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/serve.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "targets/launch.hpp"

namespace concord {

struct ErlangTargetConfig {
  std::string name = "erlang";  // the target, in messages ("erlang: cannot start the node: ...")
  std::function<std::string(const Program&)> emit = [](const Program& p) { return emit_erlang(p); };
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
  // ebin, in -pa order; each found at start_node() or the start fails, saying which.
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

// `concord backend erlang`: serves the protocol on stdin/stdout until EOF.
int serve_erlang(const LaunchOptions& o);

class ErlangTarget {
 public:
  explicit ErlangTarget(ErlangTargetConfig cfg);
  ~ErlangTarget();  // closes the node's stdin, gives it a moment to halt, kills the rest
  ErlangTarget(const ErlangTarget&) = delete;
  ErlangTarget& operator=(const ErlangTarget&) = delete;

  // An Answerer (serve.hpp). BAD_REQUEST runs are answered here; the others go to the
  // node in one frame. An emit failure answers INTERNAL per run; a node that cannot
  // be started, CRASH.
  void answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit);

  // The live node's pid (its process group), or -1 before the first request and
  // after a fault.
  pid_t node_pid() const;
  // The emulator, erl_flags, the emulator's own flags, then -pa EBIN, -pa for each
  // of `paths` (the target's code_paths) and -s concord_node main [node_target].
  std::vector<std::string> node_command(const std::vector<std::string>& paths = {}) const;

 private:
  void start_node();                                       // throws SubprocessError or std::runtime_error
  std::string who() const { return cfg_.name + " node"; }  // the node, in messages
  void stop_node();
  // Sends one frame (the runs `good`, then the module) and relays the node's answers
  // (each at most max_bytes[k]) through on_answer(k, line). Throws when the node
  // cannot be started.
  void run_on_node(const std::string& frame, const std::vector<RunSettings>& good, const std::vector<size_t>& max_bytes,
                   const std::function<void(size_t, const std::string&)>& on_answer);

  ErlangTargetConfig cfg_;
  std::unique_ptr<TempDir> tmp_;  // the node's TMPDIR and working directory (crash dumps land there)
  std::unique_ptr<Subprocess> node_;
};

}  // namespace concord
