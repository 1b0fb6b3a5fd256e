// targets/erlang/launcher/erlang_launcher.cpp: the erlang target's side of the node. The node is a
// harness-supervised subprocess like any backend, but a persistent one: its faults
// become TIMEOUT, CRASH or BAD_OUTPUT lines through collect_answers(), and then it
// is killed so that the next request gets a fresh node.
#include "erlang_launcher.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>

#include "oracle/interpreter.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/backends.hpp"
#include "targets/common/install_paths.hpp"
#include "targets/common/unsupported.hpp"

namespace concord {
namespace {

// A frame: 4-byte big-endian length, then "SEED TURNS MAX;...\n" and the module.
std::string frame(const std::string& source, const std::vector<RunSettings>& runs) {
  std::string payload;
  for (const RunSettings& s : runs)
    payload += (payload.empty() ? "" : ";") + std::to_string(s.seed) + " " + std::to_string(s.turns) + " " +
               std::to_string(s.max_processes);
  payload += "\n";
  payload += source;
  if (payload.size() > UINT32_MAX) throw std::length_error("the module does not fit in a frame (4 GiB)");
  auto n = static_cast<uint32_t>(payload.size());
  std::string f = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                   static_cast<char>(n)};
  return f + payload;
}

std::string seconds(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

}  // namespace

ErlangTargetConfig erlang_config_from_env(const std::string& default_ebin) {
  ErlangTargetConfig cfg;
  if (const char* erl = std::getenv("CONCORD_ERL"); erl && *erl) cfg.erl = split_command(erl);
  const char* ebin = std::getenv("CONCORD_ERLANG_EBIN");
  cfg.ebin = ebin && *ebin ? ebin : default_ebin;
  return cfg;
}

ErlangTarget::ErlangTarget(ErlangTargetConfig cfg) : cfg_(std::move(cfg)) {}

ErlangTarget::~ErlangTarget() {
  if (!node_) return;
  node_->close_stdin();  // the node halts at end of input
  Deadline d = deadline_after(0.5);
  node_->drain_stderr(d);
  node_->wait_until(d);
  stop_node();
}

pid_t ErlangTarget::node_pid() const { return node_ ? node_->pid() : -1; }

std::vector<std::string> ErlangTarget::node_command(const std::vector<std::string>& paths) const {
  // The emulator's own words after ours: the last of two flags wins (CONCORD_ERL="erl +S 2").
  std::vector<std::string> argv = {cfg_.erl.at(0)};
  argv.insert(argv.end(), cfg_.erl_flags.begin(), cfg_.erl_flags.end());
  argv.insert(argv.end(), cfg_.erl.begin() + 1, cfg_.erl.end());
  // Absolute: the node runs in its own temporary directory.
  argv.push_back("-pa");
  argv.push_back(std::filesystem::absolute(cfg_.ebin).string());
  for (const std::string& p : paths) {
    argv.push_back("-pa");
    argv.push_back(std::filesystem::absolute(p).string());
  }
  for (const char* w : {"-s", "concord_node", "main"}) argv.push_back(w);
  if (!cfg_.node_target.empty()) argv.push_back(cfg_.node_target);
  return argv;
}

void ErlangTarget::start_node() {
  // Checked here because erl itself would only print a do_boot crash on stdout.
  if (!std::filesystem::exists(std::filesystem::path(cfg_.ebin) / "concord_node.beam"))
    throw std::runtime_error("no concord_node.beam in " + cfg_.ebin +
                             " (built by the concord_erlang_rt target; $CONCORD_ERLANG_EBIN overrides the directory)");
  std::vector<std::string> paths = cfg_.code_paths ? cfg_.code_paths() : std::vector<std::string>{};
  tmp_ = std::make_unique<TempDir>("concord-" + cfg_.name);
  // No crash dump: a dying node would spend seconds writing erl_crash.dump.
  Command cmd{node_command(paths),
              {{"TMPDIR", tmp_->path()}, {"ERL_CRASH_DUMP_SECONDS", "0"}},
              tmp_->path(),
              Limits{0, cfg_.address_space_bytes}};
  try {
    node_ = std::make_unique<Subprocess>(cmd);
  } catch (const SubprocessError& e) {
    throw SubprocessError(std::string(e.what()) + " ($CONCORD_ERL names the emulator, default erl)");
  }
}

void ErlangTarget::stop_node() {
  if (node_) node_->kill();
  node_.reset();
  tmp_.reset();  // after the node: whatever it left there goes too
}

void ErlangTarget::run_on_node(const std::string& f, const std::vector<RunSettings>& good,
                               const std::vector<size_t>& max_bytes,
                               const std::function<void(size_t, const std::string&)>& on_answer) {
  // A node that printed between requests, or died, is replaced. Its death is seen
  // first in its exit status: its stdout can stay open for a moment after, held by
  // erl_child_setup, which is in a session of its own and exits after the node.
  if (node_ && (node_->wait_until(Clock::now()) || node_->output_pending())) stop_node();
  if (!node_) start_node();
  Deadline request_deadline = deadline_after(cfg_.request_timeout);
  Deadline first = std::min(request_deadline, deadline_after(cfg_.run_timeout));
  if (node_->write(f, first) == Subprocess::Io::kTimeout) {
    for (size_t k = 0; k < good.size(); k++)
      on_answer(k,
                harness_error("TIMEOUT", who() + ": did not read its frame within " + seconds(cfg_.run_timeout)).line);
    stop_node();
    return;
  }
  // A failed write (kEof) means the node is gone: reading tells how it ended.
  bool healthy =
      collect_answers(*node_, who(), good, cfg_.run_timeout, request_deadline, max_bytes, [&](size_t k, Answer a) {
        // The BEAM's last words when an allocation fails (RLIMIT_AS): "Cannot allocate
        // N bytes", or "Cannot reallocate" when a growing binary (a journal) fails
        // first: the run is out of memory, as the c target says of its programs, not
        // a crash of unknown cause.
        const std::string& err = node_->stderr_text();
        if (a.code() == "CRASH" &&
            (err.find("Cannot allocate") != std::string::npos || err.find("Cannot reallocate") != std::string::npos))
          a = harness_error("MEMORY", a.json["message"].get<std::string>());
        on_answer(k, a.line);
      });
  if (!healthy) stop_node();
}

void ErlangTarget::answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit) {
  std::vector<RunSettings> good;
  std::vector<size_t> index;  // good run -> its place in `runs`
  for (size_t i = 0; i < runs.size(); i++)
    if (runs[i].bad.empty()) {
      good.push_back(runs[i].settings);
      index.push_back(i);
    }
  size_t next = 0;  // the next run of `runs` to answer
  auto answer_bad_until = [&](size_t end) {
    for (; next < end; next++) emit(error_line("BAD_REQUEST", runs[next].bad));
  };
  auto fail_rest = [&](const std::string& code, const std::string& message) {
    for (; next < runs.size(); next++)
      emit(runs[next].bad.empty() ? error_line(code, message) : error_line("BAD_REQUEST", runs[next].bad));
  };
  if (good.empty()) return answer_bad_until(runs.size());  // no node needed

  std::string f;
  try {
    f = frame(cfg_.emit(p), good);
  } catch (const std::bad_alloc&) {
    throw;                          // serve() answers MEMORY
  } catch (const Unsupported& e) {  // e.g. a version 2 program: not implemented yet (SPEC §10)
    return fail_rest("UNSUPPORTED", e.what());
  } catch (const std::exception& e) {
    return fail_rest("INTERNAL", "emit_" + cfg_.name + ": " + e.what());
  }
  try {
    std::vector<size_t> bounds;
    for (const RunSettings& s : good) bounds.push_back(answer_bytes_bound(p, s));
    run_on_node(f, good, bounds, [&](size_t k, const std::string& line) {
      answer_bad_until(index[k]);
      emit(line + "\n");
      next++;
    });
  } catch (const std::bad_alloc&) {
    stop_node();
    throw;
  } catch (const std::exception& e) {  // the node could not be started
    stop_node();
    fail_rest("CRASH", cfg_.name + ": cannot start the node: " + e.what());
  }
  answer_bad_until(runs.size());
}

std::string erlang_runtime_dir() { return runtime_path("erlang/runtime", CONCORD_ERLANG_RUNTIME_SRC); }

int serve_erlang(const LaunchOptions& o) {
  ErlangTargetConfig cfg = erlang_config_from_env(runtime_path("erlang/ebin", CONCORD_ERLANG_EBIN));
  if (o.run_timeout) cfg.run_timeout = *o.run_timeout;
  ErlangTarget erlang(cfg);
  serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
    erlang.answer(prog, runs, emit);
  });
  return 0;
}

}  // namespace concord
