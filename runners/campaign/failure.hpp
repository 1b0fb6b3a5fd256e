// runners/campaign/failure.hpp: a target's own failure as a finding. When the oracle
// answered a run and a target did not (it crashed, hung, printed something that is
// not an answer, or ran out of memory on a run the oracle held easily), the target
// has a bug as surely as when it answers wrong: a fuzzer's crash. Such an answer is
// named by its *failure kind*, the part of a signature after the target
// ("c:crash:SIGSEGV"):
//
//   crash:SIG<NAME>  killed by a signal its own code raises: SIGSEGV, SIGBUS,
//                    SIGFPE, SIGILL, SIGABRT (abort(), a failed assert), SIGTRAP, SIGSYS
//   crash:exit       exited by itself (any status) before answering every run
//   hang             no answer within the run's timeout
//   bad-output       printed a line that is not an answer (the harness's BAD_OUTPUT)
//   memory           answered MEMORY on a small run: the oracle's run of the same
//                    settings held at most kSmallRunItems processes, queued
//                    messages and events (RunSize), "far below" any sane memory
//                    limit (the c and erlang targets run under 4 GiB of address
//                    space: 40 KiB per item)
//
// Everything else says nothing about the program and is *no verdict*: a kill by
// any other signal (SIGKILL: `kill -9`, the kernel's OOM killer, a harness;
// SIGTERM, SIGINT, SIGHUP...), a backend that could not be started, MEMORY on a
// larger run, and any indefinite answer on a run where the oracle itself gave no
// result. A campaign confirms every failure on a fresh backend process before it
// counts (runners/campaign/campaign.hpp, "Failures").
#pragma once

#include <cstdint>
#include <string>

#include "oracle/state.hpp"
#include "runners/protocol/backend.hpp"

namespace concord {

// What the oracle's run of one setting held, measured in-process: what a target
// needs memory for (and what coverage calls the capacities a run reached).
struct RunSize {
  int64_t processes = 0;        // processes ever created (ids)
  int64_t events = 0;           // journal events
  int64_t peak_queued = 0;      // messages in all mailboxes at once, at most
  int64_t deepest_mailbox = 0;  // messages in one mailbox at once, at most
  int64_t items() const { return processes + events + peak_queued; }
};
RunSize run_size(const World& w);

constexpr int64_t kSmallRunItems = 100'000;

// The failure kind of an answer where the oracle answered `oracle` (whose run's
// size is `size`, or nullptr when unknown), or "" when the answer is no failure of
// the target: a result, a definite error other than BAD_OUTPUT, or no verdict.
std::string failure_kind(const Answer& oracle, const Answer& got, const RunSize* size);

// What an answer says happened, whether or not it is a failure of the target:
// "crash:SIGSEGV", "crash:SIGKILL", "crash:exit", "crash:unknown" (no cause in the
// message, e.g. a backend that could not start), "hang", "memory", "bad-output";
// "" for a result or another error.
std::string answer_failure(const Answer& got);

bool is_failure_kind(const std::string& kind);  // one of the kinds above ("crash:..." included)
bool is_hang(const std::string& kind);

// The signal number of "killed by signal N" in a harness message, or 0.
int killed_by_signal(const std::string& message);
// Raised by the process's own code (a fault, abort()): SEGV BUS FPE ILL ABRT TRAP SYS.
bool self_inflicted(int signal);

// The backend's stderr tail a harness message carries after "stderr tail: " (the
// last KiB of what it wrote on stderr before it failed), or "".
std::string stderr_tail_of(const Answer& a);

}  // namespace concord
