// tests/runners/coverage_test.cpp: coverage counting (runners/campaign/coverage.hpp) on
// small hand-written programs and their oracle results, with exact counts: the
// constructs of a program, the events, failures, decisions and outcomes of
// results, error objects, merging, the JSON form, blind spots and the text table.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/campaign/coverage.hpp"
#include "tests/oracle/checked_program.hpp"

using namespace concord;

namespace {

uint64_t count(const Coverage::Counts& c, const std::string& name) {
  auto it = c.find(name);
  return it == c.end() ? 0 : it->second;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A permanent child fails with a program code and is restarted; a temporary one
// stops and is removed; a message goes to a never-spawned name and to a dead one.
const char* const kSupervised = R"(
kind Cell(peer: addr) {
    state n: int = 0;
    on bump() {
        n = n + 1;
        send crash() to peer;
        fail BOOM;
    }
    on crash() {
        stop;
    }
}
kind Idle() {
    state n2: int = -1;
    on go(x: int) { if x == 1 { n2 = x << 64; } else if x { } else { } }
}
supervisor sup one_for_one intensity 1 {
    permanent process a = Cell(@b);
    temporary process b = Cell(@a);
}
process i = Idle();
given bump() to @a;
given bump() to @idle-1;
given nobody(1) to @i;
)";

}  // namespace

TEST(Coverage, CountsTheConstructsOfAProgram) {
  Program p = checked(
      "kind Idle() { state n2: int = -1; on go(x: int) { if x == 1 { n2 = x << 64; } else if x { } else { } "
      "repeat 0 { n2 = 7 / 0; } } }\n"
      "kind Cell(peer: addr) { state n: int = 0; state x: addr = self;\n"
      "  init { send go(9223372036854775807) to peer; }\n"
      "  on bump() { n = n + 1; send crash() to peer; fail BOOM; }\n"
      "  on crash() { stop; x = spawn Idle() under sup transient; spawn Idle(); send go(@a) to @idle-3; } }\n"
      "supervisor sup one_for_one intensity 1 { permanent process a = Cell(@b); temporary process b = Cell(@a); "
      "  transient supervisor inner rest_for_one intensity 0 { } }\n"
      "process i = Idle();\n"
      "given bump() to @a;\ngiven bump() to @idle-1;\ngiven nobody(1) to @i;\n");
  Coverage c;
  c.add_program(p);
  EXPECT_EQ(c.programs, 1u);
  const Coverage::Counts& k = c.constructs;
  EXPECT_EQ(count(k, "stmt:send"), 3u);
  EXPECT_EQ(count(k, "stmt:assign"), 3u);
  EXPECT_EQ(count(k, "stmt:if"), 2u);
  EXPECT_EQ(count(k, "stmt:if_else"), 1u);  // the inner if's else block is empty
  EXPECT_EQ(count(k, "stmt:else_if"), 1u);
  EXPECT_EQ(count(k, "stmt:repeat"), 1u);
  EXPECT_EQ(count(k, "stmt:repeat_0"), 1u);
  EXPECT_EQ(count(k, "stmt:spawn"), 2u);
  EXPECT_EQ(count(k, "stmt:stop"), 1u);
  EXPECT_EQ(count(k, "stmt:fail"), 1u);
  EXPECT_EQ(count(k, "handler:fail_after_send"), 1u);
  EXPECT_EQ(count(k, "spawn:unsupervised"), 1u);
  EXPECT_EQ(count(k, "spawn:under"), 1u);
  EXPECT_EQ(count(k, "spawn:under:transient"), 1u);
  EXPECT_EQ(count(k, "spawn:bind"), 1u);
  EXPECT_EQ(count(k, "op:eq"), 1u);
  EXPECT_EQ(count(k, "op:eq_addr"), 0u);
  EXPECT_EQ(count(k, "op:shl"), 1u);
  EXPECT_EQ(count(k, "op:div"), 1u);
  EXPECT_EQ(count(k, "literal:shift_past_63"), 1u);
  EXPECT_EQ(count(k, "literal:zero_divisor"), 1u);
  EXPECT_EQ(count(k, "literal:-1"), 1u);
  EXPECT_EQ(count(k, "literal:1"), 3u);  // x == 1, n + 1, the given's argument
  EXPECT_EQ(count(k, "literal:0"), 2u);  // n's initialiser, 7 / 0
  EXPECT_EQ(count(k, "op:add"), 1u);
  EXPECT_EQ(count(k, "literal:INT64_MAX"), 1u);
  EXPECT_EQ(count(k, "send:in_init"), 1u);
  EXPECT_EQ(count(k, "send:to_spawned_name"), 1u);
  EXPECT_EQ(count(k, "send:mismatched_args"), 1u);  // go(@a): go takes an int
  EXPECT_EQ(count(k, "expr:self"), 1u);
  EXPECT_EQ(count(k, "root:supervisor"), 1u);
  EXPECT_EQ(count(k, "root:process"), 1u);
  EXPECT_EQ(count(k, "supervisor:nested"), 1u);
  EXPECT_EQ(count(k, "supervisor:childless"), 1u);
  EXPECT_EQ(count(k, "strategy:one_for_one"), 1u);
  EXPECT_EQ(count(k, "strategy:rest_for_one"), 1u);
  EXPECT_EQ(count(k, "restart:permanent"), 1u);
  EXPECT_EQ(count(k, "restart:temporary"), 1u);
  EXPECT_EQ(count(k, "restart:transient"), 1u);
  EXPECT_EQ(count(k, "intensity:0"), 1u);
  EXPECT_EQ(count(k, "intensity:positive"), 1u);
  EXPECT_EQ(count(k, "given:message"), 3u);
  EXPECT_EQ(count(k, "given:to_spawned_name"), 1u);
  EXPECT_EQ(count(k, "given:stray_tag"), 1u);  // nobody(1) to @i
  EXPECT_EQ(count(k, "send:stray_tag"), 0u);
}

TEST(Coverage, CountsWhatARunDid) {
  Program p = checked(kSupervised);
  Coverage c;
  c.add_result(result_to_json(run(p, RunSettings{0, 100, 10})));
  EXPECT_EQ(c.results, 1u);
  EXPECT_EQ(count(c.outcomes, "quiescent"), 1u);
  // Turn 0: sup, a, b, i start; bump() to a is queued, bump() to idle-1 dropped,
  // nobody(1) to i queued. Then a fails with BOOM after sending crash() to b
  // (restart), i fails with NO_HANDLER, b stops (temporary: removed).
  EXPECT_EQ(count(c.events, "drop:given"), 1u);
  EXPECT_EQ(count(c.events, "drop:unknown"), 1u);
  EXPECT_EQ(count(c.events, "start:supervisor"), 1u);
  EXPECT_EQ(count(c.events, "start:restart"), 1u);
  EXPECT_EQ(count(c.events, "deliver"), 3u);
  EXPECT_EQ(count(c.events, "deliver:given"), 2u);
  EXPECT_EQ(count(c.failures, "BOOM"), 1u);
  EXPECT_EQ(count(c.failures, "NO_HANDLER"), 1u);
  EXPECT_EQ(count(c.decisions, "restart"), 1u);
  EXPECT_EQ(count(c.decisions, "remove"), 1u);
  EXPECT_EQ(count(c.events, "exit:failure"), 2u);
  EXPECT_EQ(count(c.events, "exit:normal"), 1u);
  EXPECT_EQ(count(c.events, "exit"), 3u);
  EXPECT_EQ(count(c.events, "decision"), 2u);
  std::vector<std::string> spots = c.blind_spots();
  EXPECT_FALSE(has(spots, "failures:<program code>"));
  EXPECT_FALSE(has(spots, "failures:NO_HANDLER"));
  EXPECT_TRUE(has(spots, "failures:DIV_ZERO"));
  EXPECT_TRUE(has(spots, "decisions:give_up"));
  EXPECT_TRUE(has(spots, "outcomes:turn_limit"));
  EXPECT_FALSE(has(spots, "outcomes:quiescent"));
}

TEST(Coverage, AnErrorObjectCountsOnlyAsAnOutcome) {
  Coverage c;
  c.add_result(ojson::parse(R"({"ok":false,"code":"TIMEOUT","message":"no result in 10 s"})"));
  EXPECT_EQ(c.results, 1u);
  EXPECT_EQ(count(c.outcomes, "error:TIMEOUT"), 1u);
  EXPECT_TRUE(c.events.empty());
  EXPECT_TRUE(c.failures.empty());
  EXPECT_TRUE(c.decisions.empty());
}

TEST(Coverage, KnowsEverythingTheSpecHas) {
  const std::vector<std::string>& k = Coverage::known("constructs");
#define OP(e, json, text, prec) EXPECT_TRUE(has(k, std::string("op:") + json)) << json;
#include "oracle/ops.def"
#undef OP
  for (const char* s : {"stmt:assign",
                        "stmt:if",
                        "stmt:repeat",
                        "stmt:send",
                        "stmt:spawn",
                        "stmt:stop",
                        "stmt:fail",
                        "expr:int",
                        "expr:addr",
                        "expr:self",
                        "expr:var",
                        "expr:unary",
                        "expr:binary",
                        "strategy:one_for_one",
                        "strategy:one_for_all",
                        "strategy:rest_for_one",
                        "restart:permanent",
                        "restart:transient",
                        "restart:temporary",
                        "spawn:under:temporary",
                        "intensity:0"})
    EXPECT_TRUE(has(k, s)) << s;
  for (const char* s : {"start", "deliver", "drop", "exit", "decision"}) EXPECT_TRUE(has(Coverage::known("events"), s));
  for (const char* s : {"NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC"})
    EXPECT_TRUE(has(Coverage::known("failures"), s));
  for (const char* s : {"restart", "keep", "remove", "give_up"}) EXPECT_TRUE(has(Coverage::known("decisions"), s));
  // Nothing seen, a version 2 program counted: every known name is a blind spot, in
  // order. Without a version 2 program, version 2's names (SPEC §22) are left out.
  Coverage none;
  none.programs_v2 = 1;
  std::vector<std::string> all;
  for (const std::string& cat : Coverage::categories())
    for (const std::string& n : Coverage::known(cat)) all.push_back(cat + ":" + n);
  EXPECT_EQ(none.blind_spots(), all);
  std::vector<std::string> v1 = Coverage{}.blind_spots();
  EXPECT_LT(v1.size(), all.size());
  for (const std::string& s : v1) EXPECT_TRUE(std::find(all.begin(), all.end(), s) != all.end()) << s;
  for (const char* s : {"constructs:stmt:send", "events:exit:failure", "decisions:give_up"})
    EXPECT_TRUE(std::find(v1.begin(), v1.end(), s) != v1.end()) << s;
  for (const char* s :
       {"constructs:stmt:link", "events:signal:link:exit", "decisions:auto_shutdown", "outcomes:deadlock"})
    EXPECT_TRUE(std::find(v1.begin(), v1.end(), s) == v1.end()) << s;
  EXPECT_TRUE(Coverage::known("nothing").empty());
  for (const std::string& cat : Coverage::categories()) {
    const std::vector<std::string>& names = Coverage::known(cat);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << cat << " lists a name twice";
  }
}

TEST(Coverage, MergesAndRoundTripsThroughJson) {
  Program p = checked(kSupervised);
  Coverage a, b;
  a.add_program(p);
  a.add_result(result_to_json(run(p, RunSettings{0, 100, 10})));
  b.add_program(p);
  b.add_result(result_to_json(run(p, RunSettings{5, 0, 10})));
  b.add_result(ojson::parse(R"({"ok":false,"code":"CRASH","message":"x"})"));
  Coverage m = a;
  m.merge(b);
  EXPECT_EQ(m.programs, 2u);
  EXPECT_EQ(m.results, 3u);
  EXPECT_EQ(count(m.constructs, "stmt:send"), 2 * count(a.constructs, "stmt:send"));
  EXPECT_EQ(count(m.outcomes, "quiescent"), 1u);
  EXPECT_EQ(count(m.outcomes, "turn_limit"), 1u);
  EXPECT_EQ(count(m.outcomes, "error:CRASH"), 1u);
  EXPECT_EQ(count(m.failures, "BOOM"), 1u);

  ojson j = m.to_json();
  EXPECT_EQ(j["programs"], 2);
  EXPECT_EQ(j["failures"]["BOOM"], 1);
  EXPECT_EQ(j["failures"]["DIV_ZERO"], 0);  // known names are listed even when unseen
  EXPECT_FALSE(j["failures"].contains("<program code>"));
  EXPECT_EQ(j["outcomes"]["error:CRASH"], 1);
  EXPECT_EQ(j["blind_spots"].size(), m.blind_spots().size());
  Coverage back = Coverage::from_json(j);
  EXPECT_EQ(back.to_json(), j);
  EXPECT_EQ(back.blind_spots(), m.blind_spots());
  EXPECT_THROW(Coverage::from_json(ojson::parse(R"({"programs":1})")), InputError);
}

TEST(Coverage, PrintsACompactTable) {
  Program p = checked(kSupervised);
  Coverage c;
  c.add_program(p);
  c.add_result(result_to_json(run(p, RunSettings{0, 100, 10})));
  std::string t = c.to_text();
  EXPECT_EQ(t.rfind("coverage: 1 programs, 1 results, ", 0), 0u) << t;
  for (const std::string& cat : Coverage::categories()) EXPECT_NE(t.find(cat + " ("), std::string::npos) << t;
  EXPECT_NE(t.find("  BOOM 1"), std::string::npos) << t;
  EXPECT_NE(t.find("blind spots: "), std::string::npos) << t;
  EXPECT_NE(t.find("decisions:give_up"), std::string::npos) << t;
  for (size_t at = 0, nl; (nl = t.find('\n', at)) != std::string::npos; at = nl + 1) {
    if (t.compare(at, 12, "blind spots:") == 0) continue;
    EXPECT_LE(nl - at, 120u) << "a line too long: " << t.substr(at, nl - at);
  }
}

// A run at scale reaches the capacities (coverage.hpp): ids past 1,024, a mailbox
// 1,000 deep (from the oracle's measure), a child list of 100, 1,000 turns, a
// spawned number of 4 digits; the peaks keep the largest, merge takes the largest,
// and a report from before capacities existed still reads.
TEST(Coverage, CountsTheCapacitiesARunReachedAndTheirPeaks) {
  Program p = checked(R"(
kind W() {
    init { send hi() to self; }
    on hi() { }
}
kind Boss() {
    on go() {
        repeat 2 { repeat 600 { spawn W() under wide temporary; } }
        repeat 1000 { send tick() to self; }
    }
    on tick() { }
}
supervisor wide one_for_one intensity 1 {
    permanent process boss = Boss();
}
given go() to @boss;
given hi() to @w-1234;
)");
  RunResult r = run(p, RunSettings{0, 1500, 100000});
  RunSize size = run_size(*r.world);
  EXPECT_GE(size.deepest_mailbox, 1000);
  Coverage c;
  c.add_program(p);
  c.add_result(result_to_json(r), &size);
  EXPECT_EQ(count(c.constructs, "addr:spawned_many_digits"), 1u);
  for (const char* s : {"ids:over_1024", "mailbox:1000_deep", "children:100", "turns:1000", "spawned_number:4_digits"})
    EXPECT_EQ(count(c.capacity, s), 1u) << s;
  EXPECT_EQ(count(c.capacity, "ids:over_10000"), 0u);
  EXPECT_EQ(count(c.peaks, "ids"), 1201u);
  EXPECT_EQ(count(c.peaks, "children"), 1201u);
  EXPECT_EQ(count(c.peaks, "spawned_number_digits"), 4u);
  EXPECT_EQ(count(c.peaks, "turns"), 1500u);
  std::vector<std::string> spots = c.blind_spots();
  EXPECT_TRUE(has(spots, "capacity:ids:over_10000"));
  EXPECT_FALSE(has(spots, "capacity:mailbox:1000_deep"));
  // Without the oracle's measure the mailbox depth is unknown: not counted.
  Coverage blind;
  blind.add_result(result_to_json(r));
  EXPECT_EQ(count(blind.capacity, "mailbox:1000_deep"), 0u);
  EXPECT_EQ(count(blind.peaks, "mailbox"), 0u);

  Coverage small;
  small.add_result(result_to_json(run(p, RunSettings{0, 5, 100000})), nullptr);
  Coverage m = small;
  m.merge(c);
  EXPECT_EQ(count(m.peaks, "turns"), 1500u) << "the largest, not a sum";
  EXPECT_EQ(count(m.capacity, "ids:over_1024"), 2u);
  ojson j = m.to_json();
  EXPECT_EQ(j["peaks"]["ids"], 1201);
  EXPECT_EQ(Coverage::from_json(j).to_json(), j);
  j.erase("capacity");
  j.erase("peaks");
  EXPECT_TRUE(Coverage::from_json(j).capacity.empty()) << "an older report reads";
  EXPECT_NE(c.to_text().find("largest reached: children 1201, ids 1201"), std::string::npos) << c.to_text();
}
