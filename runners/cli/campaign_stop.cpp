// runners/cli/campaign_stop.cpp: what the campaign commands (fuzz, fuzz --mode free)
// share on the command line: a shard's "i/N", and their stop on Ctrl-C.
#include <signal.h>

#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"
#include "runners/process/cleanup.hpp"

namespace concord {
namespace {

std::atomic<bool> g_interrupted{false};

void on_signal(int sig) {
  g_interrupted = true;
  cleanup::make_fatal(sig);
}

}  // namespace

void parse_shard(const std::string& s, uint64_t& index, uint64_t& count) {
  size_t slash = s.find('/');
  if (slash == std::string::npos) throw InputError("--shard", "expected i/N (e.g. 0/4), got '" + s + "'");
  index = parse_u64(s.substr(0, slash), "--shard index");
  count = parse_u64(s.substr(slash + 1), "--shard count");
  if (count == 0 || index >= count)
    throw InputError("--shard", "'" + s + "': the index must be below the count, which must be at least 1");
}

const std::atomic<bool>& install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_interrupted;
}

}  // namespace concord
