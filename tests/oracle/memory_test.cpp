// tests/oracle/memory_test.cpp: the oracle's memory limit (oracle/memory.hpp, SPEC
// §11): a run that would grow without end stops with OutOfMemory at the same turn
// every time, a run below the limit is unchanged by it, and no result line is
// longer than the text the run counted for it (so none is longer than the limit).
// Version 2's state (monitors, links, queued signals, pending items, waiting
// callers) is counted while it is held and given back when it goes.
#include <gtest/gtest.h>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"

using namespace concord;

namespace {

// Each turn delivers the message that sends the next: the journal grows forever.
const char* kLoop = "kind P() { on go() { send go() to self; } }\nprocess a = P();\ngiven go() to @a;\n";

// Restores the process-wide limit after a test.
struct Limit {
  explicit Limit(int64_t bytes) : old(oracle_memory_limit()) { set_oracle_memory_limit(bytes); }
  ~Limit() { set_oracle_memory_limit(old); }
  int64_t old;
};

std::string stop_message(const Program& p, const RunSettings& r) {
  try {
    run(p, r);
  } catch (const OutOfMemory& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(OracleMemory, ALoopOfABillionTurnsStopsWithOutOfMemory) {
  Limit limit(16 << 20);
  Program p = checked(kLoop);
  std::string first = stop_message(p, RunSettings{0, 1000000000, 10});
  EXPECT_NE(first.find("the run needs more than the oracle's memory limit of 16 MiB (at turn "), std::string::npos)
      << first;
  EXPECT_NE(first.find("$CONCORD_ORACLE_MEMORY"), std::string::npos) << first;
  EXPECT_EQ(stop_message(p, RunSettings{0, 1000000000, 10}), first) << "the same run stops at the same turn";
  std::string line = memory_error_line(OutOfMemory(first));
  EXPECT_EQ(line, error_line("MEMORY", first));
}

TEST(OracleMemory, ARunBelowTheLimitIsUnchanged) {
  Program p = checked(kLoop);
  std::string small, large;
  {
    Limit limit(16 << 20);
    small = result_line(run(p, RunSettings{3, 20000, 10}));
  }
  {
    Limit limit(int64_t{1} << 30);
    large = result_line(run(p, RunSettings{3, 20000, 10}));
  }
  EXPECT_EQ(small, large);
  EXPECT_NE(small.find("\"turns\":20000,\"journal\""), std::string::npos);
}

TEST(OracleMemory, NoResultLineIsLongerThanItsCountedText) {
  size_t runs = 0;
  auto expect_within = [&](const Program& p, const RunSettings& r, const std::string& what) {
    RunResult res = run(p, r);
    std::string line = result_line(res);
    EXPECT_LE(static_cast<int64_t>(line.size()), res.world->text_bound) << what;
    EXPECT_LE(res.world->text_bound, res.world->memory_used) << what;
    runs++;
  };
  for (const std::string& f : find_cases(std::string(build_paths::source_dir) + "/corpus")) {
    Case c = load_case(f);
    for (const CaseRun& r : c.runs) expect_within(c.program, r.settings, f);
  }
  for (const char* profile : {"default", "supervision", "spawn-heavy", "arith", "v2"})
    for (uint64_t seed = 1; seed <= 40; seed++) {
      const gen::Profile& pr = gen::profile_named(profile);
      Program p = gen::generate_program(seed, pr);
      for (const RunSettings& r : gen::generate_runs(seed, pr, 4))
        expect_within(p, r, std::string(profile) + " seed " + std::to_string(seed));
    }
  EXPECT_GT(runs, 750u);
}

namespace {

// The turn an OutOfMemory message names, or -1.
int64_t stop_turn(const std::string& message) {
  size_t at = message.find("(at turn ");
  return at == std::string::npos ? -1 : std::stoll(message.substr(at + 9));
}

}  // namespace

// A monitor of a live process journals nothing, so 1000 a turn pile up unseen by
// the journal: only their count stops the run (4 MiB / (1000 × 32 bytes) is about
// 130 turns; the journal alone would allow thousands).
TEST(OracleMemory, Version2MonitorsAreCounted) {
  Limit limit(4 << 20);
  Program p = checked(
      "concord 2;\nkind W() { on go() { repeat 1000 { monitor(@b); } send go() to self; } }\n"
      "kind B() { }\nprocess a = W();\nprocess b = B();\ngiven go() to @a;\n");
  std::string message = stop_message(p, RunSettings{0, 2000, 10});
  EXPECT_GT(stop_turn(message), 50) << message;
  EXPECT_LT(stop_turn(message), 400) << message;
}

// What goes is given back: monitors a demonitor removes, and those of a process
// that exits (here each spawned process monitors 1000 times in init, then stops:
// §19.1, a failed start). Both runs reach their turn limit under the limit that
// stops the test above at about turn 130.
TEST(OracleMemory, Version2StateIsGivenBackWhenItGoes) {
  Limit limit(4 << 20);
  Program demonitors = checked(
      "concord 2;\nkind W() { on go() { repeat 1000 { monitor(@b); demonitor(@b); } send go() to self; } }\n"
      "kind B() { }\nprocess a = W();\nprocess b = B();\ngiven go() to @a;\n");
  EXPECT_EQ(stop_message(demonitors, RunSettings{0, 400, 10}), "");
  Program exits = checked(
      "concord 2;\nkind M() { init { repeat 1000 { monitor(@b); } stop; } }\n"
      "kind W() { on go() { spawn M(); send go() to self; } }\n"
      "kind B() { }\nprocess a = W();\nprocess b = B();\ngiven go() to @a;\n");
  RunResult r = run(exits, RunSettings{0, 400, 10});
  EXPECT_EQ(r.outcome, "turn_limit");
  EXPECT_LT(r.world->memory_used, int64_t{2} << 20) << "the monitors of the stopped processes were given back";
}

TEST(OracleMemory, SizesAreReadWithBinaryUnits) {
  EXPECT_EQ(parse_size("1073741824", "x"), int64_t{1} << 30);
  EXPECT_EQ(parse_size("512M", "x"), int64_t{512} << 20);
  EXPECT_EQ(parse_size("2g", "x"), int64_t{2} << 30);
  EXPECT_EQ(parse_size("1T", "x"), int64_t{1} << 40);
  EXPECT_THROW(parse_size("", "x"), InputError);
  EXPECT_THROW(parse_size("12x", "x"), InputError);
  EXPECT_THROW(parse_size("1.5G", "x"), InputError);
  EXPECT_THROW(parse_size("512K", "x"), InputError) << "below the minimum of 1M";
  EXPECT_THROW(parse_size("99999999999999999999G", "x"), InputError);
  EXPECT_EQ(size_text(int64_t{1} << 30), "1 GiB");
  EXPECT_EQ(size_text(1234567), "1234567 bytes");
}

TEST(OracleSteps, ARunThatWorksWithoutEndStopsWithOutOfSteps) {
  // 99,002 statements a turn and almost nothing journaled: memory would allow
  // millions of turns; the step limit ends it.
  struct Steps {
    explicit Steps(int64_t n) : old(oracle_step_limit()) { set_oracle_step_limit(n); }
    ~Steps() { set_oracle_step_limit(old); }
    int64_t old;
  } steps(5000000);
  Program p = checked(
      "kind P() { state x: int = 0;\n"
      "  on go() { repeat 990 { repeat 99 { x = x + 1; } } send go() to self; } }\n"
      "process a = P();\ngiven go() to @a;\n");
  RunSettings r{0, 1000000000, 10};
  std::string message;
  try {
    run(p, r);
  } catch (const OutOfSteps& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("the run needs more than the oracle's limit of 5000000 statements (at turn 5"),
            std::string::npos)
      << message;
  std::string line = answer_line(p, r);
  EXPECT_EQ(line, error_line("TIMEOUT", message));
  EXPECT_EQ(answer_line(p, RunSettings{0, 40, 10}), result_line(run(p, RunSettings{0, 40, 10})))
      << "below the limit nothing changes";
}
