// tests/runners/shrink_test.cpp: the shrinker (runners/shrink/shrink.hpp) with tests that
// ask only the oracle: each pass's candidates on a small program, exactly; a
// hand-written program with one reachable `fail BOOM` shrunk to the smallest
// program that still fails so; properties over generated programs (the result is
// valid, still interesting, no bigger, and the same with 1 or 2 jobs); the time
// limit, a start that is not interesting, and the worker-thread contract.
// Reproduce a property failure with the RC_PARAMS="reproduce=..." line RapidCheck
// prints, e.g.
//   RC_PARAMS="reproduce=..." build/tests/shrink_test --gtest_filter=ShrinkProperties.*
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/load.hpp"
#include "runners/shrink/shrink.hpp"
#include "runners/shrink/shrink_passes.hpp"
#include "runners/shrink/shrink_walk.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {
namespace {

// 40 cases per property unless RC_PARAMS says otherwise (RapidCheck reads it when
// the first property runs): each case shrinks twice.
[[maybe_unused]] const bool kFewerCases = setenv("RC_PARAMS", "max_success=40", /*overwrite=*/0) == 0;

// --- helpers -------------------------------------------------------------------

Program parsed(const std::string& text) { return program_from_source(text, "test.conc"); }

// A program in the printer's form, for comparing programs as text (unchecked: a
// pass may propose an invalid candidate).
std::string printed(const std::string& text) { return print_program(parse_program(text)); }

const ShrinkPass& pass_named(const std::string& name) {
  for (const ShrinkPass& p : shrink_passes())
    if (name == p.name) return p;
  throw std::logic_error("no shrink pass " + name);
}

// Every candidate of one pass on `s`, in order.
std::vector<ShrinkState> candidates(const std::string& pass, const ShrinkState& s) {
  std::vector<ShrinkState> out;
  for (size_t n = 0;; n++) {
    ShrinkState c = s;
    if (!pass_named(pass).make(c, n)) return out;
    out.push_back(std::move(c));
  }
}

// Every candidate program of one pass on a program, printed.
std::vector<std::string> candidate_programs(const std::string& pass, const std::string& text) {
  std::vector<std::string> out;
  for (const ShrinkState& c : candidates(pass, ShrinkState{parsed(text), {RunSettings{}}}))
    out.push_back(print_program(c.program));
  return out;
}

std::vector<std::string> all_printed(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  for (const std::string& t : texts) out.push_back(printed(t));
  return out;
}

ojson oracle_result(const ShrinkCase& c, size_t run_index = 0) {
  Program p = program_from_json(c.program);
  check(p);
  return result_to_json(run(p, c.runs.at(run_index)));
}

bool has_failure(const ojson& result, const std::string& code) {
  for (const ojson& f : result["failures"])
    if (f["code"] == code) return true;
  return false;
}

// Options whose test is `interesting`, the same function on every worker.
ShrinkOptions options(std::function<bool(const ShrinkCase&)> interesting, int jobs = 1) {
  ShrinkOptions opt;
  opt.jobs = jobs;
  opt.make_test = [interesting](int) { return interesting; };
  return opt;
}

// "Some run's result has a failure with code C."
InterestingFn fails_with(const std::string& code) {
  return [code](const ShrinkCase& c) {
    for (size_t i = 0; i < c.runs.size(); i++)
      if (has_failure(oracle_result(c, i), code)) return true;
    return false;
  };
}

// --- each pass, on a small program ------------------------------------------------

TEST(ShrinkPasses, ChunksDropWholeBodiesThenHalvesThenQuarters) {
  EXPECT_EQ(
      candidate_programs("chunks", R"(
kind A() {
    state n: int = 0;
    on m() {
        n = 1;
        n = 2;
        if n == 2 {
            n = 3;
            n = 4;
        }
        n = 5;
        stop;
    }
}
process a = A();
)"),
      all_printed({
          // whole bodies: the handler's, the if's
          "kind A() { state n: int = 0; on m() { } } process a = A();",
          "kind A() { state n: int = 0; on m() { n = 1; n = 2; if n == 2 { } n = 5; stop; } } process a = A();",
          // halves of the handler's 5 (chunks of 3); the if's halves are single statements
          "kind A() { state n: int = 0; on m() { n = 5; stop; } } process a = A();",
          "kind A() { state n: int = 0; on m() { n = 1; n = 2; if n == 2 { n = 3; n = 4; } } } process a = A();",
          // quarters (chunks of 2)
          "kind A() { state n: int = 0; on m() { if n == 2 { n = 3; n = 4; } n = 5; stop; } } process a = A();",
          "kind A() { state n: int = 0; on m() { n = 1; n = 2; stop; } } process a = A();",
          "kind A() { state n: int = 0; on m() { n = 1; n = 2; if n == 2 { n = 3; n = 4; } n = 5; } } process a = A();",
      }));
}

TEST(ShrinkPasses, StatementsDropEachStatementOuterFirst) {
  EXPECT_EQ(candidate_programs("statements", R"(
kind A() {
    state n: int = 0;
    on m() {
        n = 1;
        if n == 1 { n = 2; } else { stop; }
    }
}
process a = A();
)"),
            all_printed({
                "kind A() { state n: int = 0; on m() { if n == 1 { n = 2; } else { stop; } } } process a = A();",
                "kind A() { state n: int = 0; on m() { n = 1; } } process a = A();",
                "kind A() { state n: int = 0; on m() { n = 1; if n == 1 { } else { stop; } } } process a = A();",
                "kind A() { state n: int = 0; on m() { n = 1; if n == 1 { n = 2; } } } process a = A();",
            }));
}

TEST(ShrinkPasses, IfIsReplacedByEachNonEmptyBranch) {
  EXPECT_EQ(candidate_programs("if", R"(
kind A() {
    state n: int = 0;
    on m() {
        if n == 1 { n = 2; } else { stop; }
        if n == 3 { n = 4; n = 5; }
    }
}
process a = A();
)"),
            all_printed({
                "kind A() { state n: int = 0; on m() { n = 2; if n == 3 { n = 4; n = 5; } } } process a = A();",
                "kind A() { state n: int = 0; on m() { stop; if n == 3 { n = 4; n = 5; } } } process a = A();",
                "kind A() { state n: int = 0; on m() { if n == 1 { n = 2; } else { stop; } n = 4; n = 5; } } "
                "process a = A();",
            }));
}

TEST(ShrinkPasses, RepeatIsInlinedOrRunsFewerRounds) {
  EXPECT_EQ(candidate_programs("repeat", R"(
kind A() {
    state n: int = 0;
    on m() {
        repeat 4 { n = n + 1; }
        repeat 1 { }
    }
}
process a = A();
)"),
            all_printed({
                "kind A() { state n: int = 0; on m() { n = n + 1; repeat 1 { } } } process a = A();",
                "kind A() { state n: int = 0; on m() { repeat 1 { n = n + 1; } repeat 1 { } } } process a = A();",
                "kind A() { state n: int = 0; on m() { repeat 2 { n = n + 1; } repeat 1 { } } } process a = A();",
            }));
}

TEST(ShrinkPasses, SpawnLosesItsSupervisorOrItsBind) {
  EXPECT_EQ(candidate_programs("spawn", R"(
kind A() {
    state w: addr = self;
    on m() {
        w = spawn A() under s temporary;
        spawn A();
    }
}
supervisor s one_for_one intensity 0 { }
)"),
            all_printed({
                "kind A() { state w: addr = self; on m() { w = spawn A(); spawn A(); } } "
                "supervisor s one_for_one intensity 0 { }",
                "kind A() { state w: addr = self; on m() { spawn A() under s temporary; spawn A(); } } "
                "supervisor s one_for_one intensity 0 { }",
            }));
}

// The send statement of each candidate: the expressions pass changes one
// expression at a time.
std::vector<std::string> send_lines(const std::vector<std::string>& programs) {
  std::vector<std::string> out;
  for (const std::string& p : programs) {
    size_t at = p.find("send ");
    out.push_back(p.substr(at, p.find('\n', at) - at));
  }
  return out;
}

TEST(ShrinkPasses, ExpressionsBecomeConstantsOperandsOrSmallerLiterals) {
  EXPECT_EQ(send_lines(candidate_programs("expressions", R"(
kind A() {
    on m(x: int) {
        send m(x + 5) to @b;
    }
}
process a = A();
process b = A();
)")),
            (std::vector<std::string>{
                "send m(x + 5) to self;", "send m(x + 5) to @a;",  // the receiver: self, a declared process
                "send m(0) to @b;", "send m(1) to @b;",            // x + 5: constants,
                "send m(x) to @b;", "send m(5) to @b;",            // then each operand
                "send m(0 + 5) to @b;", "send m(1 + 5) to @b;",    // x
                "send m(x + 0) to @b;", "send m(x + 1) to @b;", "send m(x + 2) to @b;",  // 5: 0, 1, half
            }));
}

TEST(ShrinkPasses, ConstantArgumentsStayLiterals) {
  EXPECT_EQ(candidate_programs("expressions", R"(
kind A(p: addr) { }
process a = A(@b);
process b = A(@b);
given m(4) to @a;
)"),
            all_printed({
                "kind A(p: addr) { } process a = A(@a); process b = A(@b); given m(4) to @a;",
                "kind A(p: addr) { } process a = A(@b); process b = A(@a); given m(4) to @a;",
                "kind A(p: addr) { } process a = A(@b); process b = A(@b); given m(0) to @a;",
                "kind A(p: addr) { } process a = A(@b); process b = A(@b); given m(1) to @a;",
                "kind A(p: addr) { } process a = A(@b); process b = A(@b); given m(2) to @a;",
            }));
}

const char* const kTree = R"(
kind A() { }
supervisor s one_for_one intensity 3 {
    permanent process a = A();
    transient supervisor t one_for_all intensity 1 {
        temporary process b = A();
    }
}
process c = A();
given m() to @a;
given m() to @b;
)";

TEST(ShrinkPasses, RootsGoWithTheirGivenMessages) {
  // Each root twice: the second time with the process limit lowered too (below).
  const char* without_s = "kind A() { } process c = A();";
  const char* without_c =
      "kind A() { } supervisor s one_for_one intensity 3 { permanent process a = A(); transient supervisor t "
      "one_for_all intensity 1 { temporary process b = A(); } } given m() to @a; given m() to @b;";
  EXPECT_EQ(candidate_programs("roots", kTree), all_printed({without_s, without_s, without_c, without_c}));
}

TEST(ShrinkPasses, ADroppedRootLowersTheProcessLimitByWhatItStarted) {
  std::vector<ShrinkState> cs = candidates("roots", ShrinkState{parsed(kTree), {RunSettings{0, 10, 50}}});
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[0].runs[0].max_processes, 50);
  EXPECT_EQ(cs[1].runs[0].max_processes, 48);  // a and b (supervisors are not processes, SPEC §8)
  EXPECT_EQ(cs[3].runs[0].max_processes, 49);  // c
  // With every limit at 1 there is nothing to lower: one candidate per root.
  EXPECT_EQ(candidates("roots", ShrinkState{parsed(kTree), {RunSettings{0, 10, 1}}}).size(), 2u);
}

TEST(ShrinkPasses, ChildrenGoWithTheirGivenMessages) {
  EXPECT_EQ(candidate_programs("children", kTree),
            all_printed({
                "kind A() { } supervisor s one_for_one intensity 3 { transient supervisor t one_for_all intensity 1 { "
                "temporary process b = A(); } } process c = A(); given m() to @b;",
                "kind A() { } supervisor s one_for_one intensity 3 { permanent process a = A(); } process c = A(); "
                "given m() to @a;",
                "kind A() { } supervisor s one_for_one intensity 3 { permanent process a = A(); transient supervisor t "
                "one_for_all intensity 1 { } } process c = A(); given m() to @a;",
            }));
}

TEST(ShrinkPasses, HoistPutsAChildInItsSupervisorsPlace) {
  EXPECT_EQ(candidate_programs("hoist", kTree),
            all_printed({
                "kind A() { } process a = A(); process c = A(); given m() to @a;",
                "kind A() { } supervisor t one_for_all intensity 1 { temporary process b = A(); } process c = A(); "
                "given m() to @b;",
                // b takes t's place, and t's restart type
                "kind A() { } supervisor s one_for_one intensity 3 { permanent process a = A(); transient process b "
                "= A(); } process c = A(); given m() to @a; given m() to @b;",
            }));
}

TEST(ShrinkPasses, IntensityGoesToZeroThenHalves) {
  EXPECT_EQ(candidate_programs("intensity", kTree),
            all_printed({
                "kind A() { } supervisor s one_for_one intensity 0 { permanent process a = A(); transient supervisor "
                "t one_for_all intensity 1 { temporary process b = A(); } } process c = A(); given m() to @a; given "
                "m() to @b;",
                "kind A() { } supervisor s one_for_one intensity 1 { permanent process a = A(); transient supervisor "
                "t one_for_all intensity 1 { temporary process b = A(); } } process c = A(); given m() to @a; given "
                "m() to @b;",
                "kind A() { } supervisor s one_for_one intensity 3 { permanent process a = A(); transient supervisor "
                "t one_for_all intensity 0 { temporary process b = A(); } } process c = A(); given m() to @a; given "
                "m() to @b;",
            }));
}

TEST(ShrinkPasses, GivenAndHandlersDropEach) {
  const char* text = "kind A() { on m() { } on n() { } } process a = A(); given m() to @a; given n() to @a;";
  EXPECT_EQ(candidate_programs("given", text),
            all_printed({"kind A() { on m() { } on n() { } } process a = A(); given n() to @a;",
                         "kind A() { on m() { } on n() { } } process a = A(); given m() to @a;"}));
  EXPECT_EQ(candidate_programs("handlers", text),
            all_printed({"kind A() { on n() { } } process a = A(); given m() to @a; given n() to @a;",
                         "kind A() { on m() { } } process a = A(); given m() to @a; given n() to @a;"}));
}

TEST(ShrinkPasses, KindsGoWithTheirProcessesAndSpawns) {
  EXPECT_EQ(candidate_programs("kinds", R"(
kind A() { on m() { spawn B(); send m() to @b; } }
kind B() { }
process a = A();
process b = B();
given m() to @a;
given m() to @b;
)"),
            all_printed({
                "kind B() { } process b = B(); given m() to @b;",
                "kind A() { on m() { send m() to @b; } } process a = A(); given m() to @a;",
            }));
}

TEST(ShrinkPasses, FieldsGoWithTheirAssignmentsAndBinds) {
  EXPECT_EQ(candidate_programs("fields", R"(
kind A() {
    state n: int = 0;
    state w: addr = self;
    on m() {
        n = 1;
        if n == 1 { n = 2; w = spawn A(); }
    }
}
)"),
            all_printed({
                // the read in the condition is left: this candidate is invalid
                "kind A() { state w: addr = self; on m() { if n == 1 { w = spawn A(); } } }",
                "kind A() { state n: int = 0; on m() { n = 1; if n == 1 { n = 2; spawn A(); } } }",
            }));
}

TEST(ShrinkPasses, KindParametersGoWithTheirArguments) {
  EXPECT_EQ(candidate_programs("kind-params", R"(
kind A(x: int, y: addr) { on m() { spawn A(1, self); } }
process a = A(2, @a);
)"),
            all_printed({
                "kind A(y: addr) { on m() { spawn A(self); } } process a = A(@a);",
                "kind A(x: int) { on m() { spawn A(1); } } process a = A(2);",
            }));
}

TEST(ShrinkPasses, HandlerParametersGoWithTheArgumentsOfTheirSignature) {
  EXPECT_EQ(candidate_programs("handler-params", R"(
kind A() { on m(x: int, y: addr) { send m(x, y) to self; send m(1) to self; } }
process a = A();
given m(1, @a) to @a;
given m(@a, 1) to @a;
)"),
            all_printed({
                "kind A() { on m(y: addr) { send m(y) to self; send m(1) to self; } } process a = A(); "
                "given m(@a) to @a; given m(@a, 1) to @a;",
                "kind A() { on m(x: int) { send m(x) to self; send m(1) to self; } } process a = A(); "
                "given m(1) to @a; given m(@a, 1) to @a;",
            }));
}

// The runs of every candidate of a pass on the program of one_for_one_restart.conc
// (2 turns, 2 processes made), as {seed, turns, max_processes}.
std::vector<std::vector<int64_t>> candidate_runs(const std::string& pass, std::vector<RunSettings> runs) {
  Program p = load_program(std::string(build_paths::source_dir) + "/corpus/hand/one_for_one_restart.conc");
  std::vector<std::vector<int64_t>> out;
  for (const ShrinkState& c : candidates(pass, ShrinkState{p, std::move(runs)})) {
    EXPECT_TRUE(c.program == p);
    std::vector<int64_t> flat;
    for (const RunSettings& r : c.runs)
      for (int64_t v : {static_cast<int64_t>(r.seed), r.turns, r.max_processes}) flat.push_back(v);
    out.push_back(flat);
  }
  return out;
}

TEST(ShrinkPasses, RunSettingsShrinkTowardWhatTheRunUses) {
  using Runs = std::vector<std::vector<int64_t>>;
  std::vector<RunSettings> two = {{5, 100, 10}, {0, 3, 2}};
  EXPECT_EQ(candidate_runs("runs", two), (Runs{{5, 100, 10}, {0, 3, 2}}));
  // the turns used (2: the limit ends the run), one more (quiescent), half
  EXPECT_EQ(candidate_runs("turns", two), (Runs{{5, 2, 10, 0, 3, 2},
                                                {5, 3, 10, 0, 3, 2},
                                                {5, 50, 10, 0, 3, 2},
                                                {5, 100, 10, 0, 2, 2},
                                                {5, 100, 10, 0, 1, 2}}));
  // 1, the processes made (2), half
  EXPECT_EQ(candidate_runs("max-processes", two),
            (Runs{{5, 100, 1, 0, 3, 2}, {5, 100, 2, 0, 3, 2}, {5, 100, 5, 0, 3, 2}, {5, 100, 10, 0, 3, 1}}));
  EXPECT_EQ(candidate_runs("seed", two), (Runs{{0, 100, 10, 0, 3, 2}}));
}

// --- version 2 (SPEC §16–§21) --------------------------------------------------------

TEST(ShrinkPasses, CallsBecomeSendsOrLoseTheirBinds) {
  // The call: a send of the same message, then the call without its bind; the API
  // statement: without its bind.
  EXPECT_EQ(candidate_programs("calls", R"(concord 2;
kind A() {
    state n: int = 0;
    on m() {
        n = call m() to @b;
        n = restart_child(s, @b);
    }
}
supervisor s one_for_one intensity 0 { }
process b = A();
)"),
            all_printed({
                "concord 2; kind A() { state n: int = 0; on m() { send m() to @b; n = restart_child(s, @b); } } "
                "supervisor s one_for_one intensity 0 { } process b = A();",
                "concord 2; kind A() { state n: int = 0; on m() { call m() to @b; n = restart_child(s, @b); } } "
                "supervisor s one_for_one intensity 0 { } process b = A();",
                "concord 2; kind A() { state n: int = 0; on m() { n = call m() to @b; restart_child(s, @b); } } "
                "supervisor s one_for_one intensity 0 { } process b = A();",
            }));
}

TEST(ShrinkPasses, SignificantChildrenBecomeOrdinaryThenAutoShutdownNever) {
  // Declared children first, then spawns, then the supervisor's auto_shutdown.
  const char* head = "concord 2; kind A() { on m() { spawn A() under s transient";
  const char* sup = "; } } supervisor s one_for_one intensity 0";
  EXPECT_EQ(candidate_programs("significant", R"(concord 2;
kind A() { on m() { spawn A() under s transient significant; } }
supervisor s one_for_one intensity 0 auto_shutdown any_significant {
    transient significant process a = A();
    temporary process b = A();
}
)"),
            all_printed({
                std::string(head) + " significant" + sup +
                    " auto_shutdown any_significant { transient process a = A(); temporary process b = A(); }",
                std::string(head) + sup +
                    " auto_shutdown any_significant { transient significant process a = A(); temporary process b = "
                    "A(); }",
                std::string(head) + " significant" + sup +
                    " { transient significant process a = A(); temporary process b = A(); }",
            }));
}

// The text with each pair's first string replaced by its second, everywhere.
std::string replaced(std::string text, std::initializer_list<std::pair<std::string, std::string>> pairs) {
  for (const auto& [from, to] : pairs)
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

// Names as a generator makes them: a kind called Self (spawned ones are self-1,
// ...), a tag and a process called stop_, a kind of 32 characters.
const char* const kNamed = R"(
kind Self() {
    on stop_(step: int) {
        spawn Abcdefghijklmnopqrstuvwxyz_01234(step);
        send stop_(step) to @abcdefghijklmnopqrstuvwxyz_01234-1;
    }
}
kind Abcdefghijklmnopqrstuvwxyz_01234(limit: int) {
    state count: int = limit;
    on stop_(step: int) {
        count = count + step;
    }
}
process stop_ = Self();
process w = Self();
given stop_(2) to @stop_;
)";

TEST(ShrinkPasses, NamesBecomeShortOneAtATimeWithEveryUse) {
  const std::string k = kNamed, gen = "Abcdefghijklmnopqrstuvwxyz_01234";
  EXPECT_EQ(candidate_programs("names", k),
            all_printed({
                // kinds: A, B, ... (free case-insensitively); the spawned name follows
                replaced(k, {{"kind Self", "kind A"}, {"spawn Self", "spawn A"}, {"= Self(", "= A("}}),
                replaced(k, {{gen, "A"}, {"@abcdefghijklmnopqrstuvwxyz_01234-1", "@a-1"}}),
                // declared processes and supervisors: a, b, ...
                replaced(k, {{"process stop_", "process a"}, {"@stop_", "@a"}}),
                replaced(k, {{"process w ", "process a "}}),  // as short, but not of the sequence
                // tags: m, n, ...
                replaced(k, {{"stop_(", "m("}}),
                // variables, per kind: x, y, ...
                replaced(k, {{"step: int) {\n        spawn", "x: int) {\n        spawn"},
                             {gen + "(step)", gen + "(x)"},
                             {"stop_(step) to", "stop_(x) to"}}),
                replaced(k, {{"limit", "x"}}),
                replaced(k, {{"count", "x"}}),
                replaced(k, {{"step: int) {\n        count", "x: int) {\n        count"}, {"+ step", "+ x"}}),
            }));
  // A name that is short already stays: nothing left to rename.
  EXPECT_TRUE(candidate_programs("names", "kind A() { on m() { fail BOOM; } }\nprocess a = A();\n").empty());
}

TEST(Shrink, GeneratorNamesBecomeShortReadableOnes) {
  const char* text = R"(
kind Self() {
    on stop_() {
        fail BOOM;
    }
}
kind Abcdefghijklmnopqrstuvwxyz_01234(total: int) {
    state seen: int = total;
    on stop_() {
        seen = seen + 1;
        send stop_() to @stop_;
    }
}
process stop_ = Self();
process worker = Abcdefghijklmnopqrstuvwxyz_01234(1);
given stop_() to @worker;
)";
  ShrinkCase start{program_to_json(parsed(text)), {RunSettings{0, 100, 10}}};
  ASSERT_TRUE(fails_with("BOOM")(start));
  ShrinkResult r = shrink(start, options(fails_with("BOOM")));
  Program q = program_from_json(r.shrunk.program);
  check(q);
  EXPECT_TRUE(fails_with("BOOM")(r.shrunk));
  std::string shrunk = print_program(q);
  for (const char* old : {"Self", "Abcdefghij", "stop_", "worker", "seen", "total"})
    EXPECT_EQ(shrunk.find(old), std::string::npos) << old << " survives in\n" << shrunk;
  for (const Kind& k : q.kinds) EXPECT_EQ(k.name.size(), 1u) << shrunk;
  for (const std::string& name : declared_processes(q)) EXPECT_EQ(name.size(), 1u) << shrunk;
}

TEST(ShrinkPasses, ReasonsBecomeNormalThenShutdown) {
  // Each expression in turn: the receiver (self), the reason read (normal,
  // shutdown), the stop's code (normal: a plain `stop`, then shutdown).
  EXPECT_EQ(candidate_programs("expressions", R"(concord 2;
kind A() {
    on m(r: reason) {
        exit(@a, r);
        stop BOOM;
    }
}
process a = A();
)"),
            all_printed({
                "concord 2; kind A() { on m(r: reason) { exit(self, r); stop BOOM; } } process a = A();",
                "concord 2; kind A() { on m(r: reason) { exit(@a, normal); stop BOOM; } } process a = A();",
                "concord 2; kind A() { on m(r: reason) { exit(@a, shutdown); stop BOOM; } } process a = A();",
                "concord 2; kind A() { on m(r: reason) { exit(@a, r); stop; } } process a = A();",
                "concord 2; kind A() { on m(r: reason) { exit(@a, r); stop shutdown; } } process a = A();",
            }));
}

// --- the measures ----------------------------------------------------------------

TEST(Shrink, SizeCountsNodesAndProcessCountCountsDeclarationsAndSpawns) {
  Program p = parsed(R"(
kind A(p: int) {
    state n: int = p + 1;      # kind, parameter, field, 3 expression nodes: 6
    on m(x: int) {             # handler, parameter: 2
        n = x;                 # statement, expression: 2
        if x == 0 {            # statement, 3 expression nodes: 4
            spawn A(1);        # statement, expression: 2
        }
    }
}
process a = A(3);              # declaration, argument: 2
supervisor s one_for_one intensity 0 {
    permanent process b = A(1);  # supervisor, child, argument: 3
}
given m(2) to @a;              # given, argument: 2
)");
  EXPECT_EQ(program_size(p), 23u);
  EXPECT_EQ(process_count(p), 3u);  // a, b, the spawn
}

// --- a hand-written program ------------------------------------------------------

// Lots of parts that do not matter; `fail BOOM` is reached by the given job(42, 7)
// to w2 (and by nothing else).
const char* const kBusy = R"(
kind Counter(limit: int) {
    state n: int = 0;
    state peer: addr = self;
    init {
        n = limit * 2;
    }
    on tick(k: int) {
        n = n + k;
        if n > limit {
            send tock(n) to peer;
        } else {
            repeat 3 {
                send tick(1) to self;
            }
        }
    }
    on tock(v: int) {
        n = v % 7;
    }
}

kind Worker(boss: addr, id: int) {
    state done: int = 0;
    state child: addr = self;
    on job(x: int, y: int) {
        done = done + 1;
        if x == 42 {
            child = spawn Helper(y) under pool temporary;
            send help(y) to child;
            if y > 3 {
                fail BOOM;
            }
        }
        send report(done, id) to boss;
    }
    on quit() {
        stop;
    }
}

kind Helper(v: int) {
    on help(y: int) {
        send thanks(v + y) to self;
    }
    on thanks(z: int) {
    }
}

kind Boss() {
    state reports: int = 0;
    on report(d: int, from: int) {
        reports = reports + d * from;
    }
}

process boss = Boss();
process counter = Counter(5);
supervisor top one_for_all intensity 3 {
    permanent process w1 = Worker(@boss, 1);
    transient supervisor pool one_for_one intensity 2 {
        permanent process w2 = Worker(@boss, 2);
    }
}

given tick(1) to @counter;
given job(1, 2) to @w1;
given job(42, 7) to @w2;
given tick(3) to @counter;
given quit() to @w1;
)";

TEST(Shrink, AHandWrittenProgramShrinksToTheFailureAlone) {
  Program p = parsed(kBusy);
  ShrinkCase start{program_to_json(p), {RunSettings{7, 1000, 100}, RunSettings{3, 500, 100}}};
  ASSERT_TRUE(fails_with("BOOM")(start));
  ShrinkOptions opt = options(fails_with("BOOM"));
  std::vector<std::string> log;
  opt.log = [&](const std::string& line) { log.push_back(line); };
  ShrinkResult r = shrink(start, opt);
  Program q = program_from_json(r.shrunk.program);
  check(q);
  EXPECT_TRUE(fails_with("BOOM")(r.shrunk));
  // The least a failure needs: a kind with one handler that fails, a process of it,
  // a message for it: 5 nodes.
  EXPECT_EQ(r.stats.size_after, 5u) << print_program(q);
  EXPECT_EQ(q.kinds.size(), 1u);
  EXPECT_EQ(q.kinds[0].handlers.size(), 1u);
  EXPECT_EQ(q.given.size(), 1u);
  // Its names are the pass `names`' (kind Worker, process w2 and tag job before it).
  EXPECT_EQ(print_program(q), printed(R"(
kind A() {
    on m() {
        fail BOOM;
    }
}
process a = A();
given m() to @a;
)"));
  EXPECT_EQ(r.stats.size_before, program_size(p));
  EXPECT_EQ(r.stats.runs_before, 2u);
  EXPECT_EQ(r.stats.runs_after, 1u);
  ASSERT_EQ(r.shrunk.runs.size(), 1u);
  // One turn delivers the message; no process is spawned; seed 0 schedules as well.
  EXPECT_EQ(r.shrunk.runs[0].turns, 1);
  EXPECT_EQ(r.shrunk.runs[0].max_processes, 1);
  EXPECT_EQ(r.shrunk.runs[0].seed, 0u);
  EXPECT_EQ(r.stats.processes_before, 5u);  // boss, counter, w1, w2, the spawned Helper
  EXPECT_EQ(r.stats.processes_after, 1u);
  EXPECT_GT(r.stats.tests, r.stats.accepted);
  EXPECT_FALSE(r.stats.timed_out);
  ASSERT_GE(log.size(), 3u);
  EXPECT_EQ(log.front(), "start: size 112, 2 runs");
  EXPECT_EQ(log.back().rfind("done: size 112 -> 5, ", 0), 0u) << log.back();
}

// A version 2 program where a link carries a failure to another process, among
// monitors, a trap, calls, the API and a significant child: all of that goes,
// down to a process that links to another and fails.
const char* const kBusy2 = R"(concord 2;
kind Worker(peer: addr) {
    state why: reason = normal;
    state n: int = 0;
    init {
        monitor(peer);
    }
    on job(r: reason) {
        n = call ping(1) to @helper;
        link(peer);
        n = restart_child(top, @temp);
        why = r;
        fail BOOM;
    }
    on down(who: addr, w: reason) {
        why = w;
    }
}
kind Helper() {
    init {
        trap_exit(1);
    }
    on ping(x: int) {
        reply x + 1;
    }
    on exit(from: addr, w: reason) {
        stop w;
    }
}
supervisor top one_for_one intensity 3 auto_shutdown any_significant {
    transient significant process temp = Helper();
}
process helper = Helper();
process w = Worker(@victim);
process victim = Worker(@w);
given job(shutdown) to @w;
)";

// "Some run journals a link signal that makes its receiver exit."
bool link_exit(const ShrinkCase& c) {
  for (size_t i = 0; i < c.runs.size(); i++) {
    ojson result = oracle_result(c, i);  // kept: a range-for over result["journal"] of a temporary would dangle
    for (const ojson& e : result["journal"])
      if (e["ev"] == "signal" && e["kind"] == "link" && e["effect"] == "exit") return true;
  }
  return false;
}

TEST(Shrink, AVersion2ProgramShrinksToTheLinkAlone) {
  ShrinkCase start{program_to_json(parsed(kBusy2)), {RunSettings{0, 100, 100}}};
  ASSERT_TRUE(link_exit(start));
  ShrinkResult r = shrink(start, options(link_exit));
  Program q = program_from_json(r.shrunk.program);
  check(q);
  EXPECT_TRUE(link_exit(r.shrunk));
  // Nothing of version 2 is left but the link: no call, reply, monitor, trap, API
  // statement, exit or down handler, significant child or auto_shutdown.
  size_t links = 0, others = 0;
  visit_stmts(q, [&](const std::vector<Stmt>& body, size_t i) {
    StmtKind k = body[i].kind;
    if (k == StmtKind::Link) links++;
    if (k == StmtKind::Call || k == StmtKind::Reply || k == StmtKind::Monitor || k == StmtKind::TrapExit ||
        k == StmtKind::Api)
      others++;
    return false;
  });
  EXPECT_EQ(links, 1u) << print_program(q);
  EXPECT_EQ(others, 0u) << print_program(q);
  EXPECT_TRUE(q.system.size() == 2 && std::all_of(q.system.begin(), q.system.end(),
                                                  [](const Decl& d) { return std::holds_alternative<ProcessDecl>(d); }))
      << print_program(q);
  // The least the passes can reach: the link's target becomes the first declared
  // process (expressions: each declared process in order), `temp`, hoisted out of
  // its supervisor; its kind stays, since no pass changes a declared process's kind.
  // So: the linking kind with one handler (link, @temp, fail), temp's kind, two
  // processes and the message: 9 nodes.
  EXPECT_EQ(r.stats.size_after, 9u) << print_program(q);
  EXPECT_EQ(q.kinds.size(), 2u) << print_program(q);
  size_t handlers = 0, fields = 0;
  for (const Kind& k : q.kinds) handlers += k.handlers.size(), fields += k.state.size();
  EXPECT_EQ(handlers, 1u) << print_program(q);
  EXPECT_EQ(fields, 0u) << print_program(q);
  EXPECT_EQ(q.given.size(), 1u) << print_program(q);
}

// w fails BOOM on the given go(); x and y, of two kinds, are given poke(), which
// they handle doing nothing. In a one-turn run the seed picks which of the three
// ready processes is served; a seed that picks w, and no longer picks it once x or
// y (with its message) is gone, ties both to the case: no pass but the reseeded
// ones can drop them (not even a whole kind: each has its own).
const char* kSeedTied = R"(
kind W() { on go() { fail BOOM; } }
kind A() { on poke() {} }
kind B() { on poke() {} }
process w = W();
process x = A();
process y = B();
given go() to @w;
given poke() to @x;
given poke() to @y;
)";

TEST(ShrinkPasses, ReseededPassesTryEachSeedWithEachDroppedPart) {
  ShrinkState s{parsed(kSeedTied), {RunSettings{12345, 1, 1}}};
  std::vector<ShrinkState> plain = candidates("roots", s), tried = candidates("roots-reseeded", s);
  ASSERT_EQ(plain.size(), 3u);
  ASSERT_EQ(tried.size(), 3u * 8);
  for (size_t k = 0; k < tried.size(); k++) {
    EXPECT_EQ(print_program(tried[k].program), print_program(plain[k / 8].program)) << k;
    EXPECT_EQ(tried[k].runs.at(0).seed, k % 8) << k;
    EXPECT_EQ(tried[k].runs.at(0).turns, 1) << k;
  }
  EXPECT_EQ(candidates("given-reseeded", s).size(), 3u * 8);
  EXPECT_EQ(candidates("children-reseeded", s).size(), 0u);
}

TEST(Shrink, ProcessesTheSeedTiesInAreDroppedWithAnotherSeed) {
  // "w fails within one turn" (the only turn: w was served).
  auto w_fails = [](const ShrinkCase& c) { return has_failure(oracle_result(c), "BOOM"); };
  auto without = [](const char* name) {
    Program p = parsed(kSeedTied);
    std::erase_if(p.system, [&](const Decl& d) { return std::get<ProcessDecl>(d).name == name; });
    std::erase_if(p.given, [&](const Given& g) { return g.to == name; });
    return program_to_json(p);
  };
  // A seed that serves w among three but neither among w and x nor w and y, and
  // seed 0 (the seed pass's) neither: only the reseeded passes let x and y go.
  auto serves_w_without_x_or_y = [&](uint64_t seed) {
    return w_fails(ShrinkCase{without("x"), {RunSettings{seed, 1, 10}}}) ||
           w_fails(ShrinkCase{without("y"), {RunSettings{seed, 1, 10}}});
  };
  ASSERT_FALSE(serves_w_without_x_or_y(0)) << "seed 0 serves w among two: pick another program";
  std::optional<uint64_t> tied;
  for (uint64_t seed = 1; seed < 10000 && !tied; seed++)
    if (w_fails(ShrinkCase{program_to_json(parsed(kSeedTied)), {RunSettings{seed, 1, 10}}}) &&
        !serves_w_without_x_or_y(seed))
      tied = seed;
  ASSERT_TRUE(tied) << "no seed among 10,000 ties both busy processes in";
  ShrinkResult r =
      shrink(ShrinkCase{program_to_json(parsed(kSeedTied)), {RunSettings{*tied, 1, 10}}}, options(w_fails));
  Program q = program_from_json(r.shrunk.program);
  EXPECT_TRUE(w_fails(r.shrunk));
  EXPECT_EQ(r.stats.processes_after, 1u) << print_program(q);
  ASSERT_EQ(q.system.size(), 1u) << print_program(q);
  // w, of kind W and given go(), renamed by the pass `names`.
  EXPECT_EQ(print_program(q), printed("kind A() { on m() { fail BOOM; } }\nprocess a = A();\ngiven m() to @a;\n"));
}

TEST(Shrink, AStartThatIsNotInterestingOrNotValidIsRefused) {
  ShrinkCase start{program_to_json(parsed(kBusy)), {RunSettings{}}};
  EXPECT_THROW(shrink(start, options(fails_with("NOT_THERE"))), std::invalid_argument);
  EXPECT_THROW(shrink(ShrinkCase{start.program, {}}, options(fails_with("BOOM"))), std::invalid_argument);
  ShrinkCase invalid = start;
  invalid.program["kinds"][0]["name"] = "counter";  // a kind name must start upper case
  EXPECT_THROW(shrink(invalid, options(fails_with("BOOM"))), InputError);
}

TEST(Shrink, TheTimeLimitStopsEarlyWithAValidInterestingCase) {
  ShrinkCase start{program_to_json(parsed(kBusy)), {RunSettings{3, 500, 100}}};
  InterestingFn slow = [](const ShrinkCase& c) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return fails_with("BOOM")(c);
  };
  ShrinkOptions opt = options(slow);
  opt.max_seconds = 0.05;
  ShrinkResult r = shrink(start, opt);
  EXPECT_TRUE(r.stats.timed_out);
  EXPECT_LT(r.stats.seconds, 1.0);
  EXPECT_LT(r.stats.tests, 30u);
  Program q = program_from_json(r.shrunk.program);
  EXPECT_NO_THROW(check(q));
  EXPECT_TRUE(fails_with("BOOM")(r.shrunk));
  EXPECT_LE(r.stats.size_after, r.stats.size_before);
  EXPECT_GT(r.stats.size_after, 5u);  // not the end: the whole shrink takes 50 tests
}

TEST(Shrink, EachWorkerMakesOneTestOnItsThreadAndUsesItThere) {
  ShrinkCase start{program_to_json(parsed(kBusy)), {RunSettings{3, 500, 100}}};
  std::mutex m;
  std::map<int, int> made;  // worker -> make_test calls
  std::atomic<int> elsewhere{0}, calls{0};
  ShrinkOptions opt;
  opt.jobs = 3;
  opt.make_test = [&](int worker) -> InterestingFn {
    std::lock_guard<std::mutex> lock(m);
    made[worker]++;
    std::thread::id mine = std::this_thread::get_id();
    return [&, mine](const ShrinkCase& c) {
      calls++;
      if (std::this_thread::get_id() != mine) elsewhere++;
      return fails_with("BOOM")(c);
    };
  };
  ShrinkResult three = shrink(start, opt);
  EXPECT_EQ(made, (std::map<int, int>{{0, 1}, {1, 1}, {2, 1}}));
  EXPECT_EQ(elsewhere, 0);
  EXPECT_EQ(static_cast<size_t>(calls), three.stats.tests);
  ShrinkResult one = shrink(start, options(fails_with("BOOM")));
  EXPECT_EQ(three.shrunk.program.dump(), one.shrunk.program.dump());
  EXPECT_EQ(three.stats.accepted, one.stats.accepted);
}

TEST(Shrink, AnExceptionOfTheTestReachesTheCaller) {
  ShrinkCase start{program_to_json(parsed(kBusy)), {RunSettings{3, 500, 100}}};
  for (int jobs : {1, 2}) {
    std::atomic<int> calls{0};
    InterestingFn breaks = [&](const ShrinkCase& c) {
      if (++calls > 3) throw std::runtime_error("backend gone");
      return fails_with("BOOM")(c);
    };
    EXPECT_THROW(shrink(start, options(breaks, jobs)), std::runtime_error) << jobs << " jobs";
  }
}

// --- generated programs --------------------------------------------------------

std::string runs_text(const std::vector<RunSettings>& runs) {
  std::string out;
  for (const RunSettings& r : runs)
    out += std::to_string(r.seed) + "/" + std::to_string(r.turns) + "/" + std::to_string(r.max_processes) + " ";
  return out;
}

// Shrinks `start` with 1 and with 2 jobs and checks what holds of any shrink: the
// same result either way, valid, still interesting, no bigger.
void check_shrink(const ShrinkCase& start, const InterestingFn& interesting) {
  ShrinkResult one = shrink(start, options(interesting, 1));
  ShrinkResult two = shrink(start, options(interesting, 2));
  RC_ASSERT(one.shrunk.program.dump() == two.shrunk.program.dump());
  RC_ASSERT(runs_text(one.shrunk.runs) == runs_text(two.shrunk.runs));
  Program q = program_from_json(one.shrunk.program);
  check(q);
  RC_ASSERT(program_to_json(q) == one.shrunk.program);
  RC_ASSERT(interesting(one.shrunk));
  RC_ASSERT(one.stats.size_after == program_size(q));
  RC_ASSERT(one.stats.size_after <= one.stats.size_before);
  RC_ASSERT(one.stats.runs_after <= one.stats.runs_before);
  RC_ASSERT(!one.stats.timed_out);
  RC_TAG(one.stats.size_after < one.stats.size_before ? "smaller" : "same size");
}

rc::Gen<std::vector<RunSettings>> some_runs() {
  return rc::gen::resize(3, rc::gen::nonEmpty(rc::gen::container<std::vector<RunSettings>>(gen::any_run_settings())));
}

RC_GTEST_PROP(ShrinkProperties, KeepsAnEventOfTheJournal, ()) {
  Program p = *gen::any_program();
  ShrinkCase start{program_to_json(p), *some_runs()};
  std::set<std::string> evs;
  ojson first = oracle_result(start);
  for (const ojson& e : first["journal"]) evs.insert(e["ev"].get<std::string>());
  RC_PRE(!evs.empty());
  std::string ev = *rc::gen::elementOf(std::vector<std::string>(evs.begin(), evs.end()));
  RC_TAG(ev);
  check_shrink(start, [ev](const ShrinkCase& c) {
    for (size_t i = 0; i < c.runs.size(); i++) {
      ojson r = oracle_result(c, i);
      for (const ojson& e : r["journal"])
        if (e["ev"] == ev) return true;
    }
    return false;
  });
}

// Version 2 programs (the v2 profile): its events (signal, call, resume, api) and
// its passes too.
RC_GTEST_PROP(ShrinkProperties, KeepsAnEventOfAVersion2Journal, ()) {
  Program p = *gen::any_program(gen::profile_named("v2"));
  ShrinkCase start{program_to_json(p), *some_runs()};
  std::set<std::string> evs;
  ojson first = oracle_result(start);
  for (const ojson& e : first["journal"]) evs.insert(e["ev"].get<std::string>());
  RC_PRE(!evs.empty());
  std::string ev = *rc::gen::elementOf(std::vector<std::string>(evs.begin(), evs.end()));
  RC_TAG(ev);
  check_shrink(start, [ev](const ShrinkCase& c) {
    for (size_t i = 0; i < c.runs.size(); i++) {
      ojson r = oracle_result(c, i);
      for (const ojson& e : r["journal"])
        if (e["ev"] == ev) return true;
    }
    return false;
  });
}

RC_GTEST_PROP(ShrinkProperties, KeepsTheOutcomeAndAFailureCode, ()) {
  Program p = *gen::any_program();
  ShrinkCase start{program_to_json(p), *some_runs()};
  ojson first = oracle_result(start);
  RC_PRE(!first["failures"].empty());
  std::string outcome = first["outcome"];
  std::string code =
      (*rc::gen::elementOf(std::vector<ojson>(first["failures"].begin(), first["failures"].end())))["code"];
  RC_TAG(code);
  check_shrink(start, [outcome, code](const ShrinkCase& c) {
    ojson r = oracle_result(c);  // the first run's
    return r["outcome"] == outcome && has_failure(r, code);
  });
}

}  // namespace
}  // namespace concord
