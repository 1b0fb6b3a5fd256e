// tests/targets/js_target_test.cpp: the js target beyond the corpus. Random valid
// programs (generators/) give byte for byte the oracle's result lines through
// `concord backend js`; every program runs in a fresh vm context; and every fault of
// the node costs the request it happens in and nothing more: a killed node (idle or
// busy), a program that never answers, one that fills the heap (caught by the host,
// and past it, by V8), garbage on stdout, an answer longer than its run can produce,
// a program that does not load, an emitter that fails, a node or a runtime that
// does not exist.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <signal.h>

#include <sys/wait.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"
#include "tests/targets/js_backend.hpp"
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

// The emitted program with the handlers of kind 0 (k0_h0, k0_h1, ...) replaced by
// `body`: function declarations after the final return are still hoisted, and the
// last declaration of a name wins.
std::string with_handler(const Program& p, const std::string& body) {
  std::string out = emit_js(p);
  for (size_t h = 0; h < p.kinds[0].handlers.size(); h++)
    out += "function k0_h" + std::to_string(h) + "(p, m) { " + body + " }\n";
  return out;
}

const std::vector<RunSettings> kRuns = {{0, 100, 10}, {7, 3, 10}};

void expect_oracle_lines(const Program& p, const std::vector<std::string>& got, const std::vector<RunSettings>& runs) {
  ASSERT_EQ(got.size(), runs.size());
  for (size_t i = 0; i < runs.size(); i++) EXPECT_EQ(got[i], oracle_line(p, runs[i])) << "run " << i;
}

CommandResult concord_backend_js(const std::vector<std::pair<std::string, std::string>>& env,
                                 const std::string& request) {
  return run_command(Command{{build_paths::concord_binary, "backend", "js"}, env, "", {}}, request, 60);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace

// The number of programs is RC_PARAMS' max_success (tests/CMakeLists.txt sets 300).
// All of them go to one node, so a program that leaves something behind in it shows
// up as a difference in a later program.
RC_GTEST_PROP(JsTarget, GeneratedProgramsGiveTheOraclesLines, ()) {
  Program p = *gen::any_program();
  check(p);
  std::vector<RunSettings> runs = *rc::gen::container<std::vector<RunSettings>>(3, gen::any_run_settings());
  std::vector<Answer> got = js_backend().request(program_to_json(p), runs);
  RC_ASSERT(got.size() == runs.size());
  for (size_t i = 0; i < runs.size(); i++) {
    std::string want = oracle_line(p, runs[i]);
    if (got[i].line != want)
      RC_LOG() << print_program(p) << "\nrun " << i << "\n  oracle: " << want << "\n  js:     " << got[i].line << "\n";
    RC_ASSERT(got[i].line == want);
  }
}

// The node says it is up before its first frame, and its boot is not the first run's
// time: a node that takes 3 s to start, with runs of 2 s at most, answers every run.
TEST(JsTarget, ANodeSlowToBootIsNotARunThatHung) {
  Program p = checked(kPing);
  TempDir dir("concord-test");
  JsTargetConfig cfg = js_test_config(2);
  cfg.node = {wrapper_script(dir, "node", "sleep 3; exec node \"$@\"")};
  FramedRuntime t(js_runtime_config(cfg));
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

TEST(JsTarget, ANodeThatPrintsBeforeItIsReadyCannotBeStarted) {
  Program p = checked(kPing);
  TempDir dir("concord-test");
  JsTargetConfig cfg = js_test_config(2);
  cfg.node = {wrapper_script(dir, "node", "echo hello; exec node \"$@\"")};
  FramedRuntime t(js_runtime_config(cfg));
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) {
    EXPECT_EQ(code_of(line), "CRASH") << line;
    EXPECT_NE(ojson::parse(line).value("message", "").find("printed \"hello\" where it says \"concord ready\""),
              std::string::npos)
        << line;
  }
}

TEST(JsTarget, StartsTheNodeOnTheFirstGoodRunAndKeepsIt) {
  Program p = checked(kPing);
  FramedRuntime t(js_runtime_config(js_test_config()));
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

// A program that writes a global of its context, then one that fails to load if it
// sees it: each program has a fresh context, so the second one runs.
TEST(JsTarget, EachProgramRunsInAFreshContext) {
  Program p = checked(kPing);
  bool first = true;
  JsTargetConfig cfg = js_test_config();
  cfg.emit = [&](const Program& prog) {
    std::string probe = first ? "globalThis.concordLeak = 7;\n"
                              : "if (globalThis.concordLeak !== undefined) throw new Error('a global survived');\n";
    return probe + emit_js(prog);
  };
  FramedRuntime t(js_runtime_config(cfg));
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  pid_t node = t.pid();
  first = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_EQ(t.pid(), node) << "both programs ran on one node";
}

// A long-lived node's memory grows: it is replaced after requests_per_process
// frames, and the fresh ones answer the same.
TEST(JsTarget, ANodeIsReplacedAfterItsShareOfRequestsAndAnswersTheSame) {
  Program p = checked(kPing);
  FramedRuntimeConfig cfg = js_runtime_config(js_test_config());
  cfg.requests_per_process = 3;
  FramedRuntime t(cfg);
  expect_replaced_every(t, 3, 7, [&] { expect_oracle_lines(p, ask(t, p, kRuns), kRuns); });
}

TEST(JsTarget, ANodeKilledBetweenRequestsIsReplaced) {
  Program p = checked(kPing);
  FramedRuntime t(js_runtime_config(js_test_config()));
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  pid_t node = t.pid();
  ASSERT_GT(node, 0);
  kill_and_wait(node);
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_GT(t.pid(), 0);
  EXPECT_NE(t.pid(), node);
}

TEST(JsTarget, ANodeKilledDuringARequestCostsThatRequestOnly) {
  Program ping = checked(kPing), endless = checked(kEndless);
  FramedRuntime t(js_runtime_config(js_test_config()));
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

// Every turn spawns 1000 processes that stay alive. The host measures its heap as the
// run grows and gives the run up with MEMORY; the node lives on.
TEST(JsTarget, ARunThatFillsTheHeapAnswersMemoryAndTheNodeStays) {
  Program hog = checked(
      "kind Idle() { state x: int = 0; on never() {} }\n"
      "kind S() { on go() { repeat 1000 { spawn Idle(); } send go() to self; } }\n"
      "process s = S();\ngiven go() to @s;\n");
  Program ping = checked(kPing);
  JsTargetConfig cfg = js_test_config();
  cfg.heap_mb = 128;
  FramedRuntime t(js_runtime_config(cfg));
  expect_oracle_lines(ping, ask(t, ping, kRuns), kRuns);
  pid_t node = t.pid();
  std::vector<std::string> got = ask(t, hog, {{1, 100000000, 10000000}, {2, 5, 10}});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(code_of(got[0]), "MEMORY") << got[0];
  EXPECT_NE(got[0].find("heap"), std::string::npos) << got[0];
  EXPECT_EQ(got[1], oracle_line(hog, {2, 5, 10})) << "the next run of the same request is whole";
  EXPECT_EQ(t.pid(), node) << "the node survived";
  expect_oracle_lines(ping, ask(t, ping, kRuns), kRuns);
}

// Past the host's measurements (a handler that allocates by itself), V8 runs out of
// heap and aborts the node: MEMORY, from its last words, and a fresh node next.
TEST(JsTarget, ANodeThatV8AbortsForHeapAnswersMemoryAndTheNextRequestWorks) {
  Program p = checked(kPing);
  bool hog = true;
  JsTargetConfig cfg = js_test_config();
  cfg.heap_mb = 32;
  cfg.emit = [&](const Program& prog) {
    return hog ? with_handler(prog, "const junk = []; for (;;) junk.push([junk.length, junk.length + 1]);")
               : emit_js(prog);
  };
  FramedRuntime t(js_runtime_config(cfg));
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  EXPECT_EQ(code_of(got[0]), "MEMORY") << got[0];
  EXPECT_NE(got[0].find("SIGABRT"), std::string::npos) << got[0];
  EXPECT_EQ(t.pid(), -1);
  hog = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

TEST(JsTarget, AProgramThatNeverAnswersTimesOutAndTheNextRequestWorks) {
  Program p = checked(kPing);
  bool endless = true;
  JsTargetConfig cfg = js_test_config(2);
  cfg.emit = [&](const Program& prog) { return endless ? with_handler(prog, "for (;;) {}") : emit_js(prog); };
  FramedRuntime t(js_runtime_config(cfg));
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

// A program that reaches the host's own process through rt (a function of the main
// context) and prints on its stdout.
TEST(JsTarget, GarbageOnStdoutIsBadOutputAndTheNodeIsReplaced) {
  Program p = checked(kPing);
  bool garbage = true;
  JsTargetConfig cfg = js_test_config();
  cfg.emit = [&](const Program& prog) {
    return (garbage ? "rt.send.constructor('return process')().stdout.write('not a result\\n');\n" : "") +
           emit_js(prog);
  };
  FramedRuntime t(js_runtime_config(cfg));
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) EXPECT_EQ(code_of(line), "BAD_OUTPUT") << line;
  EXPECT_NE(got[0].find("not a result"), std::string::npos) << got[0];
  EXPECT_EQ(t.pid(), -1) << "a node that printed garbage is not trusted again";
  garbage = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

// A program that writes 50 MB on the host's stdout before its result: the line is
// longer than any answer of its runs can be (runners/protocol/answer_bound.hpp), so the target
// reads no further than that bound and answers BAD_OUTPUT at once.
TEST(JsTarget, AnAnswerLongerThanTheRunCanProduceIsBadOutputReadNoFurther) {
  Program p = checked(kPing);
  bool flood = true;
  JsTargetConfig cfg = js_test_config();
  cfg.emit = [&](const Program& prog) {
    // Written as the host writes (fs.writeSync on fd 1), so that nothing of the host's
    // own lines comes between: process.stdout would queue it behind them.
    return (flood ? "{ const req = rt.send.constructor('return process')().mainModule.require;\n"
                    "  const fs = req('fs'), b = req('buffer').Buffer.alloc(50000000, 120);\n"
                    "  for (let off = 0; off < b.length;)\n"
                    "    try { off += fs.writeSync(1, b, off); } catch (e) { if (e.code !== 'EAGAIN') throw e; } }\n"
                  : "") +
           emit_js(prog);
  };
  FramedRuntime t(js_runtime_config(cfg));
  size_t bound = answer_bytes_bound(p, kRuns[0]);
  ASSERT_LT(bound, size_t{4} << 20);
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) EXPECT_EQ(code_of(line), "BAD_OUTPUT") << line;
  EXPECT_NE(got[0].find("a line longer than " + std::to_string(bound) + " bytes"), std::string::npos) << got[0];
  EXPECT_EQ(t.pid(), -1) << "the node is not trusted again";
  flood = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
}

TEST(JsTarget, AProgramThatDoesNotLoadIsInternalPerRunAndTheNodeStays) {
  Program p = checked(kPing);
  bool broken = true;
  JsTargetConfig cfg = js_test_config();
  cfg.emit = [&](const Program& prog) { return emit_js(prog) + (broken ? "\nnot javascript (\n" : ""); };
  FramedRuntime t(js_runtime_config(cfg));
  std::vector<std::string> got = ask(t, p, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (const std::string& line : got) {
    EXPECT_EQ(code_of(line), "INTERNAL") << line;
    EXPECT_NE(line.find("does not load: SyntaxError"), std::string::npos) << line;
  }
  pid_t node = t.pid();
  EXPECT_GT(node, 0);
  broken = false;
  expect_oracle_lines(p, ask(t, p, kRuns), kRuns);
  EXPECT_EQ(t.pid(), node) << "a program that does not load is not a fault of the node";
}

TEST(JsTarget, AnEmitterFailureIsInternalPerGoodRun) {
  Program p = checked(kPing);
  JsTargetConfig cfg = js_test_config();
  cfg.emit = [](const Program&) -> std::string { throw std::runtime_error("no such construct"); };
  FramedRuntime t(js_runtime_config(cfg));
  std::vector<std::string> lines;
  t.answer(p, {RunRequest{{}, ""}, RunRequest{{}, "seed: bad"}}, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(code_of(lines[0]), "INTERNAL");
  EXPECT_NE(lines[0].find("emit_js: no such construct"), std::string::npos) << lines[0];
  EXPECT_EQ(code_of(lines[1]), "BAD_REQUEST");
  EXPECT_EQ(t.pid(), -1);
}

TEST(JsTarget, BadRunsAreAnsweredInPlaceBetweenTheNodesLines) {
  Program p = checked(kPing);
  std::string request = request_line(program_to_json(p), {{0, 10, 10}, {1, -1, 10}, {2, 10, 10}});
  CommandResult r = concord_backend_js({}, request);
  EXPECT_EQ(r.status.code, 0) << r.err;
  std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out << r.err;
  EXPECT_EQ(lines[0], oracle_line(p, {0, 10, 10}));
  EXPECT_EQ(code_of(lines[1]), "BAD_REQUEST");
  EXPECT_EQ(lines[2], oracle_line(p, {2, 10, 10}));
}

TEST(JsTarget, AMissingNodeOrRuntimeIsACrashThatSaysWhich) {
  Program p = checked(kPing);
  std::string request = request_line(program_to_json(p), {{0, 10, 10}, {1, 10, 10}});
  struct Setup {
    std::pair<std::string, std::string> env;
    std::vector<std::string> named;
  };
  for (const Setup& s :
       {Setup{{"CONCORD_NODE", "/nonexistent/node"}, {"/nonexistent/node", "$CONCORD_NODE names the interpreter"}},
        Setup{{"CONCORD_JS_RUNTIME", "/nonexistent/runtime"}, {"no host.js in /nonexistent/runtime"}}}) {
    CommandResult r = concord_backend_js({s.env}, request);
    EXPECT_EQ(r.status.code, 0) << r.err;
    std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out << r.err;
    for (const std::string& line : lines) {
      EXPECT_EQ(code_of(line), "CRASH") << line;
      EXPECT_NE(line.find("js: cannot start the node"), std::string::npos) << line;
      for (const std::string& n : s.named) EXPECT_NE(line.find(n), std::string::npos) << line;
    }
  }
}
