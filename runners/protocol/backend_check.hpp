// runners/protocol/backend_check.hpp: `concord backend-check NAME`, a self-test of a
// backend against runners/PROTOCOL.md before it meets a corpus or a campaign. It
// sends one backend process, through the harness's own Backend (its timeouts: a
// backend that hangs fails a check, it does not hang the test), in this order:
//
//   runs             a version 1 program (or 2, when only 2 is claimed) of workers with
//                    four runs: four answers in order, each the oracle's
//   not-json         a line that is not JSON: one BAD_REQUEST line, then the next
//                    request is served as usual
//   invalid-program  a program that is not one in the JSON form (a kind without
//                    "handlers"): INVALID_PROGRAM for each run, then served as usual
//   unknown-setting  a run with a key a run does not have, and a good one: BAD_REQUEST
//                    for the first only, the oracle's result for the second
//   not-claimed      a version 2 program that uses every feature: each run the
//                    oracle's answer or UNSUPPORTED; skipped when the backend's
//                    declaration leaves something out ("supports"), since concord
//                    never sends it such a program
//   huge             2,000 processes and 20,000 given messages: the oracle's result,
//                    or MEMORY or UNSUPPORTED, within the backend's timeouts
//   eof              stdin closed: the backend exits with status 0 within 5 s
//
// Answers are compared as a campaign compares them: results byte for byte, errors
// by code.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"

namespace concord {

struct CheckResult {
  enum class Status { kPass, kFail, kSkip } status = Status::kPass;
  std::string id;        // "runs", "not-json", ...
  std::string sent;      // what was sent, in words
  std::string expected;  // what the protocol asks for
  std::string got;       // what came back
};

// Every check, in the order above, on one backend of `spec` (restarted by the
// harness when it must be); `on_result` is called as each ends.
std::vector<CheckResult> check_backend(const BackendSpec& spec,
                                       const std::function<void(const CheckResult&)>& on_result = {});

// "PASS  runs: a version 1 program with 4 runs: expected ...; got ..."
std::string check_line(const CheckResult& r);

}  // namespace concord
