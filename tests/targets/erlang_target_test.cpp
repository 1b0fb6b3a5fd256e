// tests/targets/erlang_target_test.cpp: the erlang target beyond the corpus. Random
// valid programs (generators/) give byte for byte the oracle's result lines through
// `concord backend erlang`; and every fault of the node costs the request it
// happens in and nothing more: a killed node (idle or busy), a module that never
// answers, a module that does not compile, an emulator that does not exist.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <signal.h>

#include <sys/wait.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"
#include "tests/targets/erlang_backend.hpp"
#include "tests/targets/kill_node.hpp"
#include "tests/targets/v2_programs.hpp"
#include "tests/targets/wrapper_script.hpp"

using namespace concord;

namespace {

const char* kPing = R"(
kind P(peer: addr) {
    state n: int = 0;
    on ping() { n = n + 1; if (n < 4) { send ping() to peer; } }
}
process a = P(@b);
process b = P(@a);
given ping() to @a;
)";

// Pings forever: a run of it ends at its turn limit only.
const char* kEndless = R"(
kind P(peer: addr) { on ping() { send ping() to peer; } }
process a = P(@b);
process b = P(@a);
given ping() to @a;
)";

std::string code_of(const std::string& line) {
  ojson j = ojson::parse(line);
  return j.value("ok", true) ? "" : j.value("code", "?");
}

// The real module, with dispatch/4 (every handler) replaced by a loop that never
// returns: the conductor waits for a turn that never ends.
std::string with_endless_handlers(const Program& p) {
  std::string m = std::regex_replace(emit_erlang(p), std::regex(R"((^|[^:\w])dispatch\()"), "$1dispatch_unused(");
  return m + "\ndispatch(_K, _Tag, _Args, _S) -> concord_test_spin().\nconcord_test_spin() -> concord_test_spin().\n";
}

const std::vector<RunSettings> kRuns = {{0, 100, 10}, {7, 3, 10}};

void expect_oracle_lines(const Program& p, const std::vector<std::string>& got, const std::vector<RunSettings>& runs) {
  ASSERT_EQ(got.size(), runs.size());
  for (size_t i = 0; i < runs.size(); i++) EXPECT_EQ(got[i], oracle_line(p, runs[i])) << "run " << i;
}

CommandResult concord_backend_erlang(const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::string& request) {
  return run_command(Command{{build_paths::concord_binary, "backend", "erlang"}, env, "", {}}, request, 60);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace

// The number of programs is RC_PARAMS' max_success (tests/CMakeLists.txt sets 300:
// about 13 ms each, the oracle included). All of them go to one node, so a module
// that leaves something behind in it shows up as a difference in a later program.
RC_GTEST_PROP(ErlangTarget, GeneratedProgramsGiveTheOraclesLines, ()) {
  Program p = *gen::any_program();
  check(p);
  std::vector<RunSettings> runs = *rc::gen::container<std::vector<RunSettings>>(3, gen::any_run_settings());
  std::vector<Answer> got = erlang_backend().request(program_to_json(p), runs);
  RC_ASSERT(got.size() == runs.size());
  for (size_t i = 0; i < runs.size(); i++) {
    std::string want = oracle_line(p, runs[i]);
    if (got[i].line != want)
      RC_LOG() << print_program(p) << "\nrun " << i << "\n  oracle: " << want << "\n  erlang: " << got[i].line << "\n";
    RC_ASSERT(got[i].line == want);
  }
}

TEST(ErlangTarget, StartsTheNodeOnTheFirstGoodRunAndKeepsIt) {
  Program p = checked(kPing);
  FramedRuntime t(erlang_runtime_config(erlang_test_config()));
  std::vector<std::string> lines;
  t.answer(p, {RunRequest{{}, "turns: bad"}}, [&](const std::string& l) { lines.push_back(l); });
  EXPECT_EQ(t.pid(), -1) << "a request without a good run needs no node";
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(code_of(lines[0]), "BAD_REQUEST");
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  pid_t node = t.pid();
  EXPECT_GT(node, 0);
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_EQ(t.pid(), node);
}

// The node says it is up before its first frame, and its boot is not the first run's
// time: an emulator that takes 3 s to start (a busy machine), with runs of 2 s at most,
// answers every run. Before the ready line, its first run was a TIMEOUT.
TEST(ErlangTarget, ANodeSlowToBootIsNotARunThatHung) {
  Program p = checked(kPing);
  TempDir dir("concord-test");
  ErlangTargetConfig cfg = erlang_test_config(2);
  cfg.erl = {wrapper_script(dir, "erl", "sleep 3; exec erl \"$@\"")};
  FramedRuntime t(erlang_runtime_config(cfg));
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

// Something printed where the node says it is ready, or a node that ends first: it
// cannot be started (CRASH for each run, saying what it printed or how it ended).
TEST(ErlangTarget, ANodeThatPrintsOrEndsBeforeItIsReadyCannotBeStarted) {
  Program p = checked(kPing);
  struct Setup {
    const char* script;
    const char* said;
  };
  TempDir dir("concord-test");
  for (const Setup& s :
       {Setup{"echo hello; exec erl \"$@\"", "printed \"hello\" where it says \"concord ready\""},
        Setup{"echo oops >&2; exit 3", "ended before it was ready (exited with 3); its stderr: oops"}}) {
    ErlangTargetConfig cfg = erlang_test_config(2);
    cfg.erl = {wrapper_script(dir, "erl", s.script)};
    FramedRuntime t(erlang_runtime_config(cfg));
    std::vector<std::string> got = ask(t, p, kRuns);
    ASSERT_EQ(got.size(), kRuns.size());
    for (const std::string& line : got) {
      EXPECT_EQ(code_of(line), "CRASH") << line;
      EXPECT_NE(line.find("cannot start the erlang node"), std::string::npos) << line;
      EXPECT_NE(ojson::parse(line).value("message", "").find(s.said), std::string::npos) << line;
    }
    EXPECT_EQ(t.pid(), -1);
  }
}

// A long-lived node's memory grows (fragmentation): it is replaced after
// requests_per_process frames, and the fresh ones answer the same.
TEST(ErlangTarget, ANodeIsReplacedAfterItsShareOfRequestsAndAnswersTheSame) {
  Program p = checked(kPing);
  FramedRuntimeConfig cfg = erlang_runtime_config(erlang_test_config());
  cfg.requests_per_process = 3;
  FramedRuntime t(cfg);
  expect_replaced_every(t, 3, 7, [&] { expect_oracle_lines(p, ask(t, p, kRuns), kRuns); });
}

TEST(ErlangTarget, ANodeKilledBetweenRequestsIsReplaced) {
  Program p = checked(kPing);
  FramedRuntime t(erlang_runtime_config(erlang_test_config()));
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  pid_t node = t.pid();
  ASSERT_GT(node, 0);
  kill_and_wait(node);
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_GT(t.pid(), 0);
  EXPECT_NE(t.pid(), node);
}

TEST(ErlangTarget, ANodeKilledDuringARequestCostsThatRequestOnly) {
  Program ping = checked(kPing), endless = checked(kEndless);
  FramedRuntime t(erlang_runtime_config(erlang_test_config()));
  expect_oracle_lines(ping, ask(t, ping, kRuns), kRuns);  // the node is up: its pid is known before the long request
  pid_t node = t.pid();
  ASSERT_GT(node, 0);
  std::thread killer([node] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ::kill(-node, SIGKILL);
  });
  std::vector<std::string> got = ask(t, endless, {{0, 1000000000, 10}, {1, 10, 10}});
  killer.join();
  ASSERT_EQ(got.size(), 2u);
  for (const std::string& line : got) {
    std::string code = code_of(line);
    EXPECT_TRUE(code == "CRASH" || code == "TIMEOUT") << line;
  }
  EXPECT_NE(got[0].find("SIGKILL"), std::string::npos) << got[0];
  EXPECT_EQ(t.pid(), -1) << "the dead node is forgotten";
  expect_oracle_lines(ping, ask(t, ping, kRuns), kRuns);
  EXPECT_NE(t.pid(), node);
}

TEST(ErlangTarget, ANodeOutOfMemoryAnswersMemoryAndTheNextRequestWorks) {
  // Every turn spawns 1000 processes that stay alive; the node may have 1.5 GiB of
  // address space, of which the BEAM reserves 1 GiB at start.
  Program hog = checked(
      "kind Idle() { state x: int = 0; on never() {} }\n"
      "kind S() { on go() { repeat 1000 { spawn Idle(); } send go() to self; } }\n"
      "process s = S();\ngiven go() to @s;\n");
  Program ping = checked(kPing);
  ErlangTargetConfig cfg = erlang_test_config();
  cfg.address_space_bytes = int64_t{3} << 29;
  FramedRuntime t(erlang_runtime_config(cfg));
  std::vector<std::string> got = ask(t, hog, {{1, 100000000, 10000000}});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(code_of(got[0]), "MEMORY") << got[0];
  EXPECT_NE(got[0].find("allocate"), std::string::npos) << got[0];  // "Cannot allocate" or "Cannot reallocate"
  expect_oracle_lines(ping, ask(t, ping, kRuns), kRuns);
}

TEST(ErlangTarget, AModuleThatNeverAnswersTimesOutAndTheNextRequestWorks) {
  Program p = checked(kPing);
  bool endless = true;
  ErlangTargetConfig cfg = erlang_test_config(2);
  cfg.emit = [&](const Program& prog) { return endless ? with_endless_handlers(prog) : emit_erlang(prog); };
  FramedRuntime t(erlang_runtime_config(cfg));
  auto start = std::chrono::steady_clock::now();
  std::vector<std::string> got = ask(t, p, kRuns);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) EXPECT_EQ(code_of(line), "TIMEOUT") << line;
  EXPECT_NE(got[0].find("within 2 s"), std::string::npos) << got[0];
  EXPECT_GE(took, 2.0);
  EXPECT_LT(took, 6.0) << "the run timeout is 2 s";
  endless = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

TEST(ErlangTarget, AModuleThatDoesNotCompileIsInternalPerRunAndTheNodeStays) {
  Program p = checked(kPing);
  bool broken = true;
  ErlangTargetConfig cfg = erlang_test_config();
  cfg.emit = [&](const Program& prog) { return emit_erlang(prog) + (broken ? "\nnot_erlang( -> .\n" : ""); };
  FramedRuntime t(erlang_runtime_config(cfg));
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) EXPECT_EQ(code_of(line), "INTERNAL") << line;
  pid_t node = t.pid();
  EXPECT_GT(node, 0);
  broken = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_EQ(t.pid(), node) << "a module that does not compile is not a fault of the node";
}

TEST(ErlangTarget, AnEmitterFailureIsInternalPerGoodRun) {
  Program p = checked(kPing);
  ErlangTargetConfig cfg = erlang_test_config();
  cfg.emit = [](const Program&) -> std::string { throw std::runtime_error("no such construct"); };
  FramedRuntime t(erlang_runtime_config(cfg));
  std::vector<std::string> lines;
  t.answer(p, {RunRequest{{}, ""}, RunRequest{{}, "seed: bad"}}, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(code_of(lines[0]), "INTERNAL");
  EXPECT_NE(lines[0].find("emit_erlang: no such construct"), std::string::npos) << lines[0];
  EXPECT_EQ(code_of(lines[1]), "BAD_REQUEST");
  EXPECT_EQ(t.pid(), -1);
}

TEST(ErlangTarget, BadRunsAreAnsweredInPlaceBetweenTheNodesLines) {
  Program p = checked(kPing);
  std::string request = request_line(program_to_json(p), {{0, 10, 10}, {1, -1, 10}, {2, 10, 10}});
  CommandResult r = concord_backend_erlang({}, request);
  EXPECT_EQ(r.status.code, 0) << r.err;
  std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out << r.err;
  EXPECT_EQ(lines[0], oracle_line(p, {0, 10, 10}));
  EXPECT_EQ(code_of(lines[1]), "BAD_REQUEST");
  EXPECT_EQ(lines[2], oracle_line(p, {2, 10, 10}));
}

TEST(ErlangTarget, AMissingEmulatorOrRuntimeIsACrashThatSaysWhich) {
  Program p = checked(kPing);
  std::string request = request_line(program_to_json(p), {{0, 10, 10}, {1, 10, 10}});
  struct Setup {
    std::pair<std::string, std::string> env;
    std::string named;
  };
  for (const Setup& s :
       {Setup{{"CONCORD_ERL", "/nonexistent/erl"}, "/nonexistent/erl"},
        Setup{{"CONCORD_ERLANG_EBIN", "/nonexistent/ebin"}, "no concord_node.beam in /nonexistent/ebin"}}) {
    CommandResult r = concord_backend_erlang({s.env}, request);
    EXPECT_EQ(r.status.code, 0) << r.err;
    std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out << r.err;
    for (const std::string& line : lines) {
      EXPECT_EQ(code_of(line), "CRASH") << line;
      EXPECT_NE(line.find("erlang: cannot start the erlang node"), std::string::npos) << line;
      EXPECT_NE(line.find(s.named), std::string::npos) << line;
    }
  }
}
