// tests/targets/c_fork_server_test.cpp: the c target's fork server (targets/c/launcher/
// fork_server.hpp) through CTarget, in memory with libtcc: one server goes on serving
// after a program that hangs, crashes, runs out of its address space or does not
// compile, each answered as before the server existed (TIMEOUT, CRASH, MEMORY,
// INTERNAL "cc failed"), with BAD_REQUEST runs kept in their places.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "oracle/check.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/c/launcher/c_launcher.hpp"
#include "tests/targets/v2_programs.hpp"

using namespace concord;

namespace {

Program program(const std::string& text) {
  Program p = parse_program(text);
  check(p);
  return p;
}

const Program& echo() {
  static const Program p = program(
      "kind E() { state n: int = 0; on go(k: int) { n = n + k; if n < 5 { send go(1) to self; } } }\n"
      "process e = E();\ngiven go(1) to @e;\n");
  return p;
}

const Program& endless() {
  static const Program p =
      program("kind P() { on go() { send go() to self; } }\nprocess p = P();\ngiven go() to @p;\n");
  return p;
}

// Every line CTarget answers for `runs` of `p`, without the '\n'.
std::vector<std::string> answer(CTarget& c, const Program& p, const std::vector<RunRequest>& runs) {
  std::vector<std::string> lines;
  c.answer(p, runs, [&](const std::string& l) { lines.push_back(l.substr(0, l.size() - 1)); });
  return lines;
}

RunRequest ask(uint64_t seed, int64_t turns = 1000) { return RunRequest{RunSettings{seed, turns, 10000}, ""}; }
RunRequest bad() { return RunRequest{RunSettings{}, "turns: out of range"}; }

std::string code_of(const std::string& line) { return ojson::parse(line).value("code", ""); }

CTargetConfig in_memory() {
  CTargetConfig cfg = c_config_from_env();
  EXPECT_TRUE(cfg.in_memory) << "built with libtcc, this test's build runs programs in memory";
  return cfg;
}

// The program `p` emitted with `statement` at the start of its first handler.
std::function<std::string(const Program&)> with_statement(const std::string& statement) {
  return [statement](const Program& p) {
    std::string c = emit_c(p);
    std::string head = "static void k0_h0(cr_ctx *c) {";
    size_t at = c.find(head);
    if (at == std::string::npos) throw std::runtime_error("no k0_h0 in the emitted C");
    return c.insert(at + head.size(), statement);
  };
}

}  // namespace

TEST(CForkServer, AnswersAsTheOracleWithBadRequestsInTheirPlaces) {
  CTarget c(in_memory());
  std::vector<std::string> got = answer(c, echo(), {bad(), ask(1), bad(), ask(2)});
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(code_of(got[0]), "BAD_REQUEST");
  EXPECT_EQ(got[1], oracle_line(echo(), RunSettings{1, 1000, 10000}));
  EXPECT_EQ(code_of(got[2]), "BAD_REQUEST");
  EXPECT_EQ(got[3], oracle_line(echo(), RunSettings{2, 1000, 10000}));
}

TEST(CForkServer, AHungProgramIsATimeoutAndTheNextProgramIsAnswered) {
  CTargetConfig cfg = in_memory();
  cfg.run_timeout = 1;
  CTarget c(cfg);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> got = answer(c, endless(), {ask(1, 1000000000), ask(2), bad()});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(code_of(got[0]), "TIMEOUT") << got[0];
  EXPECT_EQ(code_of(got[1]), "TIMEOUT") << got[1];  // not answered: the program was killed
  EXPECT_EQ(code_of(got[2]), "BAD_REQUEST");
  EXPECT_LT(took, 8) << "the hung program was not killed at its timeout";
  EXPECT_EQ(answer(c, echo(), {ask(3)}), std::vector<std::string>{oracle_line(echo(), RunSettings{3, 1000, 10000})});
}

TEST(CForkServer, ACrashIsACrashWithItsSignalAndTheNextProgramIsAnswered) {
  CTargetConfig cfg = in_memory();
  cfg.emit = with_statement(" *(volatile int *)0 = 1; ");
  CTarget c(cfg);
  std::vector<std::string> got = answer(c, echo(), {ask(1), ask(2)});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(code_of(got[0]), "CRASH") << got[0];
  EXPECT_NE(got[0].find("SIGSEGV"), std::string::npos) << got[0];
  EXPECT_EQ(code_of(got[1]), "CRASH") << got[1];
  CTarget plain(in_memory());
  EXPECT_EQ(answer(plain, echo(), {ask(4)}),
            std::vector<std::string>{oracle_line(echo(), RunSettings{4, 1000, 10000})});
}

TEST(CForkServer, AProgramThatDoesNotCompileIsCcFailedForEachRun) {
  CTargetConfig cfg = in_memory();
  cfg.emit = with_statement(" this is not C; ");
  CTarget c(cfg);
  std::vector<std::string> got = answer(c, echo(), {ask(1), bad(), ask(2)});
  ASSERT_EQ(got.size(), 3u);
  for (size_t i : {0, 2}) {
    EXPECT_EQ(code_of(got[i]), "INTERNAL") << got[i];
    EXPECT_NE(got[i].find("cc failed: "), std::string::npos) << got[i];
    EXPECT_NE(got[i].find("(libtcc)"), std::string::npos) << got[i];
  }
  EXPECT_EQ(code_of(got[1]), "BAD_REQUEST");
}

TEST(CForkServer, TheAddressSpaceLimitIsTheProgramsNotTheServers) {
  // Every turn spawns 1000 processes that stay alive: they cannot fit in 256 MiB.
  Program hog = program(
      "kind Idle() { state x: int = 0; on never() {} }\n"
      "kind S() { on go() { repeat 1000 { spawn Idle(); } send go() to self; } }\n"
      "process s = S();\ngiven go() to @s;\n");
  CTargetConfig cfg = in_memory();
  cfg.address_space_bytes = int64_t{256} << 20;
  CTarget c(cfg);
  std::vector<std::string> got = answer(c, hog, {RunRequest{RunSettings{1, 100000000, 10000000}, ""}, ask(2, 3)});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], R"({"ok":false,"code":"MEMORY","message":"out of memory"})");
  EXPECT_EQ(got[1], oracle_line(hog, RunSettings{2, 3, 10000}));
  EXPECT_EQ(answer(c, echo(), {ask(5)}), std::vector<std::string>{oracle_line(echo(), RunSettings{5, 1000, 10000})});
}
