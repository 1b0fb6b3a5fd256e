// runners/campaign/failure.cpp: failure kinds of answers (failure.hpp).
#include "failure.hpp"

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <cctype>

namespace concord {
namespace {

constexpr const char* kTailMarker = "stderr tail: ";

std::string message_of(const Answer& a) {
  if (!a.json.is_object() || !a.json.contains("message") || !a.json["message"].is_string()) return "";
  return a.json["message"].get<std::string>();
}

// The harness's own words, without the stderr tail (which the backend wrote and
// may say anything, "killed by signal 9" included).
std::string cause_part(const std::string& message) {
  size_t tail = message.find(kTailMarker);
  return tail == std::string::npos ? message : message.substr(0, tail);
}

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal-" + std::to_string(sig);
}

}  // namespace

RunSize run_size(const World& w) {
  RunSize s;
  s.processes = static_cast<int64_t>(w.procs.size());
  s.events = static_cast<int64_t>(w.journal.size());
  s.peak_queued = w.peak_queued;
  s.deepest_mailbox = w.deepest_mailbox;
  return s;
}

int killed_by_signal(const std::string& message) {
  const std::string word = "killed by signal ";
  std::string cause = cause_part(message);
  size_t at = cause.find(word);
  if (at == std::string::npos) return 0;
  int sig = 0;
  for (size_t i = at + word.size(); i < cause.size() && std::isdigit(static_cast<unsigned char>(cause[i])); i++)
    sig = std::min(sig * 10 + (cause[i] - '0'), 1000);
  return sig;
}

bool self_inflicted(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT || sig == SIGTRAP ||
         sig == SIGSYS;
}

std::string answer_failure(const Answer& got) {
  if (got.ok()) return "";
  std::string code = got.code();
  if (code == "TIMEOUT") return "hang";
  if (code == "MEMORY") return "memory";
  if (code == "BAD_OUTPUT") return "bad-output";
  if (code != "CRASH") return "";
  std::string message = message_of(got);
  if (int sig = killed_by_signal(message)) return "crash:" + signal_name(sig);
  if (cause_part(message).find("exited with ") != std::string::npos) return "crash:exit";
  return "crash:unknown";
}

std::string failure_kind(const Answer& oracle, const Answer& got, const RunSize* size) {
  std::string kind = answer_failure(got);
  if (kind == "bad-output") return kind;  // definite: whatever the oracle said
  if (kind.empty() || !oracle.ok()) return "";
  if (kind == "hang" || kind == "crash:exit") return kind;
  if (kind == "memory") return size && size->items() <= kSmallRunItems ? kind : "";
  if (kind.rfind("crash:SIG", 0) == 0) return self_inflicted(killed_by_signal(message_of(got))) ? kind : "";
  return "";  // crash:unknown: it never ran (could not start), or we cannot tell why it ended
}

bool is_failure_kind(const std::string& kind) {
  return kind.rfind("crash:", 0) == 0 || kind == "hang" || kind == "bad-output" || kind == "memory";
}

bool is_hang(const std::string& kind) { return kind == "hang"; }

std::string stderr_tail_of(const Answer& a) {
  std::string message = message_of(a);
  size_t at = message.find(kTailMarker);
  return at == std::string::npos ? "" : message.substr(at + std::strlen(kTailMarker));
}

}  // namespace concord
