// tests/targets/framed_ask.hpp: asking an in-process FramedRuntime (a js or BEAM
// node) for a program's runs, as the tests that watch the node do.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <functional>
#include <string>
#include <vector>

#include "targets/common/framed_runtime.hpp"

namespace concord {

// The lines (without '\n') a FramedRuntime answers for `runs`, all well-formed.
inline std::vector<std::string> ask(FramedRuntime& t, const Program& p, const std::vector<RunSettings>& runs) {
  std::vector<RunRequest> requests;
  for (const RunSettings& r : runs) requests.push_back(RunRequest{r, ""});
  std::vector<std::string> lines;
  t.answer(p, requests, [&](const std::string& l) { lines.push_back(l.substr(0, l.size() - 1)); });
  return lines;
}

// With t's config requests_per_process = `every`: makes `requests` requests through
// `ask_once` (which checks its answers) and expects the interpreter to be replaced
// after every `every` of them, each retired one gone with its whole process group.
inline void expect_replaced_every(FramedRuntime& t, int every, int requests, const std::function<void()>& ask_once) {
  ASSERT_EQ(t.config().requests_per_process, every);
  std::vector<pid_t> pids;
  for (int i = 0; i < requests; i++) {
    ask_once();
    pids.push_back(t.pid());
    ASSERT_GT(pids.back(), 0) << "request " << i;
  }
  for (int i = 1; i < requests; i++) {
    if (i % every == 0) {
      EXPECT_NE(pids[i], pids[i - 1]) << "request " << i << " should have a fresh interpreter";
      errno = 0;
      EXPECT_EQ(::kill(-pids[i - 1], 0), -1) << "the retired interpreter " << pids[i - 1] << " or its group lives on";
      EXPECT_EQ(errno, ESRCH);
    } else {
      EXPECT_EQ(pids[i], pids[i - 1]) << "request " << i << " should reuse the interpreter";
    }
  }
}

}  // namespace concord
