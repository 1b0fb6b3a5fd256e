// tests/oracle/dialect_catalogue_test.cpp: every alternative of the oracle's dialect
// catalogue (oracle/dialect.hpp, issue 39) on a program where it changes the run.
// For each, what SPEC gives and what the alternative gives are written here by hand
// from the two rules' texts (SPEC.md and the alternative's `instead`), as events in
// the order they must come (other events may come between), never taken from the
// code under test. The run in the alternative must have recorded it as taken, and
// the run in SPEC must not show the alternative's events.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "oracle/check.hpp"
#include "oracle/dialect.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"

using namespace concord;

namespace {

std::string value_text(const ojson& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string args_text(const ojson& e) {
  std::string out;
  for (const ojson& a : e.value("args", ojson::array())) out += (out.empty() ? "" : ",") + value_text(a);
  return "(" + out + ")";
}

// A result as short lines: its events, then outcome, turns, the live processes'
// states and each supervisor's children.
std::vector<std::string> lines(const ojson& r) {
  std::vector<std::string> out;
  for (const ojson& e : r["journal"]) {
    std::string ev = e["ev"];
    if (ev == "start") out.push_back("start " + value_text(e["name"]));
    if (ev == "deliver" || ev == "call") {
      out.push_back(ev + " " + value_text(e["to"]) + " " + value_text(e["tag"]) + args_text(e));
      out.push_back("from " + value_text(e["from"]) + " to " + value_text(e["to"]));
      if (e.contains("ready")) out.push_back("ready " + e["ready"].dump());
    }
    if (ev == "resume") out.push_back("resume " + value_text(e["to"]) + " " + value_text(e["value"]));
    if (ev == "drop") out.push_back("drop " + value_text(e["to"]) + " " + value_text(e["tag"]));
    if (ev == "exit") out.push_back("exit " + value_text(e["name"]) + " " + value_text(e["reason"]));
    if (ev == "decision") out.push_back("decision " + value_text(e["process"]) + " " + value_text(e["action"]));
    if (ev == "signal")
      out.push_back("signal " + value_text(e["kind"]) + " " + value_text(e["from"]) + ">" + value_text(e["to"]) + " " +
                    value_text(e["reason"]) + " " + value_text(e["effect"]));
    if (ev == "api")
      out.push_back("api " + value_text(e["op"]) + " " + value_text(e["child"]) + " " + value_text(e["result"]));
  }
  for (const ojson& f : r["failures"])
    out.push_back("failure " + value_text(f["process"]) + " " + value_text(f["code"]));
  out.push_back("outcome " + value_text(r["outcome"]));
  out.push_back("turns " + r["turns"].dump());
  for (const ojson& a : r["alive"]) {
    std::string s = "alive " + value_text(a["name"]);
    for (auto it = a["state"].begin(); it != a["state"].end(); ++it) s += " " + it.key() + "=" + value_text(it.value());
    out.push_back(s);
  }
  for (const ojson& s : r["supervisors"]) {
    std::string c = "children " + value_text(s["name"]);
    for (const ojson& x : s["children"]) c += " " + value_text(x["name"]);
    out.push_back(c);
  }
  return out;
}

// Whether `want` occurs in `got` in this order (not necessarily next to each other).
bool in_order(const std::vector<std::string>& got, const std::vector<std::string>& want) {
  size_t at = 0;
  for (const std::string& w : want) {
    auto it = std::find(got.begin() + static_cast<long>(at), got.end(), w);
    if (it == got.end()) return false;
    at = static_cast<size_t>(it - got.begin()) + 1;
  }
  return true;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += "\n    " + s;
  return out;
}

struct Case {
  const char* alt;                         // the alternative's id
  std::string text;                        // the program
  std::vector<std::string> spec, alt_has;  // in order, SPEC's run and the alternative's
  int64_t turns = 1000, max_processes = 10000;
  uint64_t seed = 0;
};

const char* kArith = R"(
kind K() { state x: int = 0; on go(a: int, b: int) { x = OP; } }
process k = K();
given go(A, B) to @k;
)";

std::string arith(const std::string& op, const std::string& a, const std::string& b) {
  std::string t = kArith;
  t.replace(t.find("OP"), 2, op);
  t.replace(t.find("A, B"), 4, a + ", " + b);
  return t;
}

// A supervisor s (STRATEGY, intensity N) of children a, b, c of kind W: die() fails,
// quit() stops; given messages at the end.
std::string team(const std::string& strategy, int intensity, const std::string& children, const std::string& given,
                 const std::string& mode = "") {
  return "concord 2;\nkind W() { on die() { fail BOOM; } on quit() { stop; } on shut() { stop shutdown; } }\n"
         "supervisor s " +
         strategy + " intensity " + std::to_string(intensity) + (mode.empty() ? "" : " auto_shutdown " + mode) +
         " {\n" + children + "\n}\n" + given + "\n";
}

std::vector<Case> cases() {
  std::vector<Case> out = {
      // §5 values: 2^32 * 2^32 wraps to 0 modulo 2^64; saturated, INT64_MAX.
      {"mul-saturates", "", {"alive k x=0"}, {"alive k x=9223372036854775807"}},
      {"add-sub-saturate", "", {"alive k x=-9223372036854775808"}, {"alive k x=9223372036854775807"}},
      // 2^53 + 1 is no double: rounded to 2^53.
      {"arith-in-doubles", "", {"alive k x=9007199254740993"}, {"alive k x=9007199254740992"}},
      {"arith-in-32-bits", "", {"alive k x=2147483648"}, {"alive k x=-2147483648"}},
      {"div-floors", "", {"alive k x=-3"}, {"alive k x=-4"}},
      {"div-by-zero-is-zero", "", {"exit k DIV_ZERO"}, {"alive k x=0"}},
      {"rem-floored", "", {"alive k x=-1"}, {"alive k x=1"}},
      {"shift-count-unmasked", "", {"alive k x=2"}, {"alive k x=0"}},
      {"shr-logical", "", {"alive k x=-1"}, {"alive k x=9223372036854775807"}},
      {"compare-unsigned", "", {"alive k x=1"}, {"alive k x=0"}},
  };
  out[0].text = "";
  std::vector<std::string> texts = {arith("a * b", "4294967296", "4294967296"),
                                    arith("a + b", "9223372036854775807", "1"),
                                    arith("a + b", "9007199254740993", "0"),
                                    arith("a + b", "2147483647", "1"),
                                    arith("a / b", "-7", "2"),
                                    arith("a / b", "7", "0"),
                                    arith("a % b", "-7", "2"),
                                    arith("a << b", "1", "65"),
                                    arith("a >> b", "-2", "1"),
                                    arith("a < b", "-1", "1")};
  static std::vector<std::string> keep;  // the texts live as long as the cases
  keep = texts;
  for (size_t i = 0; i < texts.size(); i++) out[i].text = keep[i].c_str();

  const char* log = R"(
kind L() { state last: int = 0; on put(v: int) { last = v; } }
process log = L();
given put(1) to @log;
given put(2) to @log;
)";
  // §6.5: FIFO, put(1) first; LIFO: put(2) was queued in front of it.
  out.push_back({"mailbox-lifo",
                 log,
                 {"deliver log put(1)", "deliver log put(2)"},
                 {"deliver log put(2)", "deliver log put(1)"}});
  out.push_back({"given-reversed",
                 log,
                 {"deliver log put(1)", "deliver log put(2)"},
                 {"deliver log put(2)", "deliver log put(1)"}});
  // §8.2 step 1: a run cut at L = 3 turns has 3.
  const char* loop =
      "kind P() { init { send tick() to self; } on tick() { send tick() to self; } }\nprocess p = P();\n";
  out.push_back({"turn-limit-one-late", loop, {"outcome turn_limit", "turns 3"}, {"outcome turn_limit", "turns 4"}, 3});
  // §6.5: a message to a name with no live process is dropped, journaled.
  out.push_back({"drop-unjournaled",
                 "kind K() { }\nkind Idle() { }\nprocess k = K();\ngiven hi(7) to @idle-1;\n",
                 {"drop idle-1 hi"},
                 {"outcome quiescent"}});
  // A message to w while terminate_child has it not running waits for its restart.
  const char* dead = R"(concord 2;
kind W() { state n: int = 0; on hi() { n = n + 1; } }
kind B() { on go() { terminate_child(s, @w); send hi() to @w; restart_child(s, @w); } }
supervisor s one_for_one intensity 3 { permanent process w = W(); }
process b = B();
given go() to @b;
)";
  out.push_back({"dead-name-keeps-messages", dead, {"drop w hi", "alive w n=0"}, {"deliver w hi()", "alive w n=1"}});
  // §6.4: a send before a failure is delivered (as in Erlang); thrown away: d never gets it.
  const char* fails = R"(
kind S() { on go() { send hi() to @d; fail BOOM; } }
kind D() { state n: int = 0; on hi() { n = n + 1; } }
process s = S();
process d = D();
given go() to @s;
)";
  out.push_back({"sends-lost-on-failure",
                 fails,
                 {"exit s BOOM", "deliver d hi()", "alive d n=1"},
                 {"exit s BOOM", "alive d n=0"}});
  // §6.5: no handler fails the receiver.
  out.push_back({"no-handler-ignored",
                 "kind K() { }\nprocess k = K();\ngiven nope() to @k;\n",
                 {"deliver k nope()", "exit k NO_HANDLER"},
                 {"deliver k nope()", "alive k"}});
  // §6.6: with P = 2 and two live, a spawn fails SYSTEM_LIMIT; one late, it succeeds.
  const char* limit =
      "kind W() { }\nkind A() { on go() { spawn W(); } }\nprocess a = A();\nprocess b = W();\ngiven go() to @a;\n";
  Case lim{"process-limit-one-late", limit, {"exit a SYSTEM_LIMIT"}, {"start w-1", "alive a"}};
  lim.max_processes = 2;
  out.push_back(lim);
  // §2: spawned names count per kind from 1.
  const char* names =
      "kind Worker() { }\nkind Helper() { }\nkind A() { on go() { spawn Worker(); spawn Helper(); } }\nprocess a = "
      "A();\ngiven go() to @a;\n";
  out.push_back(
      {"spawn-number-per-program", names, {"start worker-1", "start helper-1"}, {"start worker-1", "start helper-2"}});
  out.push_back(
      {"spawn-number-from-zero", names, {"start worker-1", "start helper-1"}, {"start worker-0", "start helper-0"}});
  const char* twelve =
      "kind W() { }\nkind A() { on go() { repeat 12 { spawn W(); } } }\nprocess a = A();\ngiven go() to @a;\n";
  out.push_back({"spawn-digits-reversed", twelve, {"start w-11", "start w-12"}, {"start w-11", "start w-21"}});
  // §6.7, §7.3: a restarted process has an empty mailbox and fresh state.
  const char* keep_box = R"(
kind W() { state n: int = 0; on die() { fail BOOM; } on hi() { n = n + 1; } }
supervisor s one_for_one intensity 3 { permanent process w = W(); }
given die() to @w;
given hi() to @w;
)";
  out.push_back({"restart-keeps-mailbox",
                 keep_box,
                 {"exit w BOOM", "start w", "alive w n=0"},
                 {"exit w BOOM", "start w", "deliver w hi()", "alive w n=1"}});
  const char* keep_state = R"(
kind W() { state n: int = 0; on inc() { n = n + 1; send die() to self; } on die() { fail BOOM; } }
supervisor s one_for_one intensity 3 { permanent process w = W(); }
given inc() to @w;
)";
  out.push_back({"restart-keeps-state",
                 keep_state,
                 {"exit w BOOM", "start w", "alive w n=0"},
                 {"exit w BOOM", "start w", "alive w n=1"}});
  // §2: a restarted process keeps its name: its init's send to @w reaches it.
  const char* unbind = R"(
kind W() { state n: int = 0; init { send hi() to @w; } on hi() { n = n + 1; fail BOOM; } }
supervisor s one_for_one intensity 1 { permanent process w = W(); }
)";
  out.push_back(
      {"restart-unbinds-name",
       unbind,
       {"exit w BOOM", "decision w restart", "start w", "deliver w hi()", "exit w BOOM", "decision w give_up"},
       {"exit w BOOM", "decision w restart", "start w", "drop w hi", "alive w n=0"}});
  // §9.1: the final state is the state after the last handler.
  const char* twice =
      "kind K() { state n: int = 0; on inc() { n = n + 1; } }\nprocess k = K();\ngiven inc() to @k;\ngiven inc() to "
      "@k;\n";
  out.push_back({"final-state-before-last-turn", twice, {"alive k n=2"}, {"alive k n=1"}});
  // §7.7: children in start order.
  out.push_back({"children-newest-first",
                 team("one_for_one", 1, "permanent process a = W(); permanent process b = W();", ""),
                 {"children s a b"},
                 {"children s b a"}});

  // §7.2 restart types.
  out.push_back({"transient-restarted-on-normal",
                 team("one_for_one", 3, "transient process a = W();", "given quit() to @a;"),
                 {"exit a normal", "decision a keep"},
                 {"exit a normal", "decision a restart", "start a"}});
  out.push_back({"transient-removed-on-normal",
                 team("one_for_one", 3, "transient process a = W();", "given quit() to @a;"),
                 {"decision a keep", "children s a"},
                 {"decision a remove", "children s"}});
  out.push_back({"temporary-restarted",
                 team("one_for_one", 3, "temporary process a = W();", "given die() to @a;"),
                 {"exit a BOOM", "decision a remove"},
                 {"exit a BOOM", "decision a restart", "start a"}});
  out.push_back({"permanent-as-transient",
                 team("one_for_one", 3, "permanent process a = W();", "given quit() to @a;"),
                 {"exit a normal", "decision a restart"},
                 {"exit a normal", "decision a keep"}});
  out.push_back({"shutdown-is-abnormal",
                 team("one_for_one", 3, "transient process a = W();", "given shut() to @a;"),
                 {"exit a shutdown", "decision a keep"},
                 {"exit a shutdown", "decision a restart"}});
  // §7.4: MaxR 0 gives up at the first restart; one late, it restarts once first.
  out.push_back({"intensity-one-late",
                 team("one_for_one", 0, "permanent process a = W();", "given die() to @a;"),
                 {"exit a BOOM", "decision a give_up"},
                 {"exit a BOOM", "decision a restart", "start a"}});
  out.push_back({"intensity-one-early",
                 team("one_for_one", 1, "permanent process a = W();", "given die() to @a;"),
                 {"exit a BOOM", "decision a restart"},
                 {"exit a BOOM", "decision a give_up"}});
  // §7.4 [R8]: one one_for_all restart counts once (1 <= MaxR 1); per child, 2 > 1.
  out.push_back({"intensity-per-child",
                 team("one_for_all", 1, "permanent process a = W(); permanent process b = W();", "given die() to @a;"),
                 {"decision a restart"},
                 {"decision a give_up"}});
  // A supervisor that gives up is, to its parent, a child that exited shutdown: a
  // transient one is kept; abnormal, it is restarted.
  const char* nested = R"(
kind W() { on die() { fail BOOM; } }
supervisor top one_for_one intensity 3 {
  transient supervisor sub one_for_one intensity 0 { permanent process w = W(); }
}
given die() to @w;
)";
  out.push_back({"give-up-is-abnormal",
                 nested,
                 {"decision w give_up", "exit sub shutdown", "decision sub keep"},
                 {"decision w give_up", "exit sub shutdown", "decision sub restart", "start sub"}});
  // §7.3: one_for_all starts them again in start order; §7.5 terminates newest first.
  std::string two = "permanent process a = W(); permanent process b = W();";
  std::string three = two + " permanent process c = W();";
  out.push_back({"restart-in-reverse-order",
                 team("one_for_all", 3, two, "given die() to @a;"),
                 {"decision a restart", "start a", "start b"},
                 {"decision a restart", "start b", "start a"}});
  out.push_back({"restart-moves-last",
                 team("one_for_one", 3, two, "given die() to @a;"),
                 {"children s a b"},
                 {"children s b a"}});
  out.push_back({"terminate-in-start-order",
                 team("one_for_all", 3, three, "given die() to @c;"),
                 {"exit c BOOM", "exit b shutdown", "exit a shutdown"},
                 {"exit c BOOM", "exit a shutdown", "exit b shutdown"}});
  out.push_back({"one-for-all-keeps-temporaries",
                 team("one_for_all", 3, "permanent process a = W(); temporary process t = W();", "given die() to @a;"),
                 {"exit t shutdown", "start a", "children s a"},
                 {"exit t shutdown", "start a", "start t", "children s a t"}});
  out.push_back({"one-for-all-restarts-one",
                 team("one_for_all", 3, two, "given die() to @a;"),
                 {"exit a BOOM", "exit b shutdown", "start a", "start b"},
                 {"exit a BOOM", "decision a restart", "start a", "outcome quiescent"}});
  out.push_back({"rest-for-one-restarts-all",
                 team("rest_for_one", 3, two, "given die() to @b;"),
                 {"exit b BOOM", "decision b restart", "start b"},
                 {"exit b BOOM", "decision b restart", "exit a shutdown", "start a", "start b"}});
  out.push_back({"rest-for-one-restarts-one",
                 team("rest_for_one", 3, two, "given die() to @a;"),
                 {"exit a BOOM", "exit b shutdown", "start a", "start b"},
                 {"exit a BOOM", "decision a restart", "start a", "outcome quiescent"}});
  out.push_back({"decision-after-restart",
                 team("one_for_one", 3, "permanent process a = W();", "given die() to @a;"),
                 {"exit a BOOM", "decision a restart", "start a"},
                 {"exit a BOOM", "start a", "decision a restart"}});

  // §16.3 link signals: normal is ignored by a non-trapping process, a message to a
  // trapping one; an abnormal reason ends a non-trapping one.
  const char* normal_link = R"(concord 2;
kind A() { on go() { link(@b); send quit() to @b; } }
kind B() { on quit() { stop; } on die() { fail BOOM; } }
process a = A();
process b = B();
given go() to @a;
)";
  const char* trapping_normal = R"(concord 2;
kind T() { on go() { trap_exit(1); link(@b); send quit() to @b; } on exit(f: addr, r: reason) { } }
kind B() { on quit() { stop; } on die() { fail BOOM; } }
process a = T();
process b = B();
given go() to @a;
)";
  const char* trapping_boom = R"(concord 2;
kind T() { on go() { trap_exit(1); link(@b); send die() to @b; } on exit(f: addr, r: reason) { } }
kind B() { on quit() { stop; } on die() { fail BOOM; } }
process a = T();
process b = B();
given go() to @a;
)";
  out.push_back({"normal-link-exit-kills",
                 normal_link,
                 {"signal link b>a normal ignore", "alive a"},
                 {"signal link b>a normal exit", "exit a normal"}});
  out.push_back({"trap-ignores-normal-link",
                 trapping_normal,
                 {"signal link b>a normal message", "deliver a exit(b,normal)"},
                 {"signal link b>a normal ignore", "alive a"}});
  out.push_back({"trap-ignored-by-links",
                 trapping_boom,
                 {"signal link b>a BOOM message", "deliver a exit(b,BOOM)"},
                 {"signal link b>a BOOM exit", "exit a BOOM"}});
  // §16.3 exit signals: exit(b, normal) is ignored by a non-trapping b; exit(b, kill)
  // ends even a trapping one, killed.
  const char* exit_normal = R"(concord 2;
kind A() { on go() { exit(@b, normal); } }
kind B() { on go() { send go() to @a; } }
process a = A();
process b = B();
given go() to @b;
)";
  const char* exit_kill = R"(concord 2;
kind A() { on go() { exit(@b, kill); } }
kind B() { on go() { trap_exit(1); send go() to @a; } on exit(f: addr, r: reason) { } }
process a = A();
process b = B();
given go() to @b;
)";
  out.push_back({"exit-normal-kills",
                 exit_normal,
                 {"signal exit a>b normal ignore", "alive b"},
                 {"signal exit a>b normal exit", "exit b normal"}});
  out.push_back({"kill-trappable",
                 exit_kill,
                 {"signal exit a>b kill exit", "exit b killed"},
                 {"signal exit a>b kill message", "deliver b exit(a,killed)", "alive b"}});
  out.push_back({"kill-shown-killed", exit_kill, {"signal exit a>b kill exit"}, {"signal exit a>b killed exit"}});
  // §17.1 step 3: link signals by ascending id (b, then c); downs after links.
  const char* order = R"(concord 2;
kind W() { on exit(f: addr, r: reason) { } on down(f: addr, r: reason) { } }
kind X() { on go() { link(@b); link(@c); fail BOOM; } }
process b = W();
process c = W();
process x = X();
given go() to @x;
)";
  out.push_back({"link-signals-descending",
                 order,
                 {"signal link x>b BOOM exit", "signal link x>c BOOM exit"},
                 {"signal link x>c BOOM exit", "signal link x>b BOOM exit"}});
  const char* both = R"(concord 2;
kind A() { on go() { trap_exit(1); link(@x); monitor(@x); send die() to @x; } on exit(f: addr, r: reason) { } on down(f: addr, r: reason) { } }
kind X() { on die() { fail BOOM; } }
process a = A();
process x = X();
given go() to @a;
)";
  out.push_back({"downs-before-links",
                 both,
                 {"signal link x>a BOOM message", "signal down x>a BOOM message"},
                 {"signal down x>a BOOM message", "signal link x>a BOOM message"}});
  // §16.2: demonitor removes one monitor of the pair: one down comes.
  const char* demon = R"(concord 2;
kind A() { state downs: int = 0; on go() { monitor(@x); monitor(@x); demonitor(@x); send die() to @x; } on down(f: addr, r: reason) { downs = downs + 1; } }
kind X() { on die() { fail BOOM; } }
process a = A();
process x = X();
given go() to @a;
)";
  out.push_back({"demonitor-removes-all",
                 demon,
                 {"signal down x>a BOOM message", "alive a downs=1"},
                 {"exit x BOOM", "alive a downs=0"}});
  // §16.2: a monitor of a name with no live process: down(e, noproc) at once; a link
  // from a non-trapping process: it fails NOPROC.
  const char* to_dead = R"(concord 2;
kind A() { on go() { STMT(@nobody-1); } on down(f: addr, r: reason) { } }
kind Nobody() { }
process a = A();
given go() to @a;
)";
  static std::vector<std::string> dead_texts;
  dead_texts = {to_dead, to_dead};
  dead_texts[0].replace(dead_texts[0].find("STMT"), 4, "monitor");
  dead_texts[1].replace(dead_texts[1].find("STMT"), 4, "link");
  out.push_back({"monitor-of-dead-is-silent",
                 dead_texts[0].c_str(),
                 {"signal down nobody-1>a noproc message", "deliver a down(nobody-1,noproc)"},
                 {"outcome quiescent", "alive a"}});
  out.push_back({"link-to-dead-is-silent", dead_texts[1].c_str(), {"exit a NOPROC"}, {"alive a"}});
  // §16.2: after unlink nothing of x's exit reaches a.
  const char* unl = R"(concord 2;
kind A() { on go() { link(@x); unlink(@x); send die() to @x; } }
kind X() { on die() { fail BOOM; } }
process a = A();
process x = X();
given go() to @a;
)";
  out.push_back({"unlink-one-sided",
                 unl,
                 {"exit x BOOM", "alive a"},
                 {"exit x BOOM", "signal link x>a BOOM exit", "exit a BOOM"}});
  // §16.1, §16.5: no link survives an exit: b's failure later reaches nobody.
  const char* relink = R"(concord 2;
kind W() { on quit() { send die() to @b; stop; } }
kind B() { on go() { link(@w); send quit() to @w; } on die() { fail BOOM; } }
supervisor s one_for_one intensity 3 { permanent process w = W(); }
process b = B();
given go() to @b;
)";
  out.push_back({"restart-keeps-links",
                 relink,
                 {"exit w normal", "start w", "exit b BOOM", "alive w"},
                 {"exit w normal", "start w", "exit b BOOM", "signal link b>w BOOM exit", "exit w BOOM"}});

  // §18: a callee that stops before replying: the caller fails with code(normal) =
  // NORMAL; a call to nobody fails NOPROC; to itself CALLING_SELF.
  const char* calls = R"(concord 2;
kind S() { on ask() { stop; } }
kind C() { state got: int = 0; on go() { got = call ask() to TO; } }
process s = S();
process c = C();
given go() to @c;
)";
  static std::vector<std::string> call_texts;
  call_texts = {calls, calls, calls};
  call_texts[0].replace(call_texts[0].find("TO"), 2, "@s");
  call_texts[1].replace(call_texts[1].find("TO"), 2, "@s-1");
  call_texts[2].replace(call_texts[2].find("TO"), 2, "self");
  out.push_back({"failed-call-keeps-reason",
                 call_texts[0].c_str(),
                 {"exit s normal", "exit c NORMAL"},
                 {"exit s normal", "exit c normal"}});
  out.push_back({"call-to-dead-waits", call_texts[1].c_str(), {"exit c NOPROC"}, {"outcome deadlock"}});
  out.push_back({"calling-self-waits", call_texts[2].c_str(), {"exit c CALLING_SELF"}, {"outcome deadlock"}});
  out.push_back({"call-to-dead-unjournaled",
                 call_texts[1].c_str(),
                 {"signal call s-1>c noproc exit", "exit c NOPROC"},
                 {"exit c NOPROC"}});
  // §19: a failed init's reason is the exit's; ignore is not a failure; a failed
  // spawn consumes its name.
  const char* starts = R"(concord 2;
kind F() { init { fail BOOM; } }
kind I() { init { ignore; } }
kind A() { on go() { spawn F(); spawn F(); spawn I() under pool transient; } }
supervisor pool one_for_one intensity 3 { }
process a = A();
given go() to @a;
)";
  out.push_back(
      {"failed-start-exits-normal", starts, {"start f-1", "exit f-1 BOOM"}, {"start f-1", "exit f-1 normal"}});
  // §19.2 [R34/ignore]: a temporary static child whose start is ignored is not kept.
  const char* ignored_temporary = R"(concord 2;
kind I() { init { ignore; } }
kind W() { }
supervisor s one_for_one intensity 1 { temporary process t = I(); permanent process w = W(); }
)";
  out.push_back({"ignored-temporary-kept", ignored_temporary, {"children s w"}, {"children s t w"}});
  out.push_back({"ignore-is-failure",
                 starts,
                 {"start i-1", "exit i-1 normal", "children pool i-1"},
                 {"start i-1", "exit i-1 normal", "children pool"}});
  out.push_back({"failed-start-gives-back-name",
                 starts,
                 {"start f-1", "exit f-1 BOOM", "start f-2"},
                 {"start f-1", "exit f-1 BOOM", "start f-1", "exit f-1 BOOM", "start i-1"}});
  // §19.3: a failed restart is retried (and counted) until MaxR; at once: give up.
  const char* retry = R"(concord 2;
kind H() { on quit() { send die() to @c; stop; } }
kind C() { init { link(@h); } on die() { fail BOOM; } }
process h = H();
supervisor s one_for_one intensity 3 { permanent process c = C(); }
given quit() to @h;
)";
  out.push_back({"failed-restart-gives-up",
                 retry,
                 {"exit c BOOM", "decision c restart", "exit c NOPROC", "decision c restart"},
                 {"exit c BOOM", "decision c restart", "exit c NOPROC", "decision c give_up"}});
  // §20: terminate_child removes a temporary child; restart_child and delete_child of
  // a running one answer running.
  const char* api = R"(concord 2;
kind W() { }
kind B() { on go() { OP(s, @w); } }
supervisor s one_for_one intensity 3 { RESTART process w = W(); }
process b = B();
given go() to @b;
)";
  static std::vector<std::string> api_texts;
  api_texts = {api, api, api};
  const char* ops[] = {"terminate_child", "restart_child", "delete_child"};
  const char* restarts[] = {"temporary", "permanent", "permanent"};
  for (size_t i = 0; i < 3; i++) {
    api_texts[i].replace(api_texts[i].find("OP"), 2, ops[i]);
    api_texts[i].replace(api_texts[i].find("RESTART"), 7, restarts[i]);
  }
  out.push_back({"terminate-child-keeps-temporary",
                 api_texts[0].c_str(),
                 {"exit w shutdown", "api terminate_child w ok", "children s"},
                 {"exit w shutdown", "api terminate_child w ok", "children s w"}});
  out.push_back({"restart-child-of-running",
                 api_texts[1].c_str(),
                 {"start w", "api restart_child w running"},
                 {"start w", "start w", "api restart_child w ok"}});
  out.push_back({"delete-child-of-running",
                 api_texts[2].c_str(),
                 {"api delete_child w running", "children s w"},
                 {"api delete_child w ok", "alive w", "children s"}});
  // §6.6, §7.6: a temporary child spawned under a supervisor is not restarted.
  const char* temporary_under = R"(concord 2;
kind W() { on die() { fail BOOM; } }
kind B() { state k: addr = self; on go() { k = spawn W() under s temporary; send die() to k; } }
supervisor s one_for_one intensity 3 { }
process b = B();
given go() to @b;
)";
  out.push_back({"spawn-under-is-permanent",
                 temporary_under,
                 {"start w-1", "exit w-1 BOOM", "children s"},
                 {"start w-1", "exit w-1 BOOM", "decision w-1 restart", "start w-1", "children s w-1"}});
  // §20 [R42]: delete_child of a terminated child removes it: restart_child then finds none.
  const char* delete_stopped = R"(concord 2;
kind W() { }
kind B() { on go() { terminate_child(s, @w); delete_child(s, @w); restart_child(s, @w); } }
supervisor s one_for_one intensity 3 { permanent process w = W(); }
process b = B();
given go() to @b;
)";
  out.push_back({"delete-child-keeps-entry",
                 delete_stopped,
                 {"api delete_child w ok", "api restart_child w not_found", "children s"},
                 {"api delete_child w ok", "api restart_child w ok", "alive w", "children s w"}});
  // §21: all_significant shuts down when no significant child is left; any at the first.
  std::string sig2 = "transient significant process a = W(); transient significant process b = W();";
  static std::vector<std::string> sig_texts;
  sig_texts = {team("one_for_one", 3, sig2, "given quit() to @a;", "all_significant"),
               team("one_for_one", 3, sig2, "given quit() to @a;", "any_significant")};
  out.push_back({"all-significant-as-any",
                 sig_texts[0].c_str(),
                 {"exit a normal", "decision a keep", "alive b"},
                 {"exit a normal", "decision a auto_shutdown", "exit b shutdown"}});
  out.push_back({"any-significant-as-all",
                 sig_texts[1].c_str(),
                 {"exit a normal", "decision a auto_shutdown", "exit b shutdown"},
                 {"exit a normal", "decision a keep", "alive b"}});

  // The alternatives added after the first measurement (issue 39).
  // §5: & | ^ on all 64 bits: 2^32 | 1 keeps its high bit.
  static std::string bit_text;
  bit_text = arith("a | b", "4294967296", "1");
  out.push_back({"bitwise-in-32-bits", bit_text.c_str(), {"alive k x=4294967297"}, {"alive k x=1"}});
  // §6.6: the limit counts live workers: w has stopped, so k-1 fits under P = 2.
  const char* dead_limit = R"(
kind K() { on hi() { } }
kind A() { on go() { spawn K(); } }
kind W() { on bye() { send go() to @a; stop; } }
process w = W();
process a = A();
given bye() to @w;
)";
  Case dl{"limit-counts-dead", dead_limit, {"exit w normal", "start k-1", "alive a"}, {"exit a SYSTEM_LIMIT"}};
  dl.max_processes = 2;
  out.push_back(dl);
  // §6.6: init runs as the new process: what it sends is from w-1.
  const char* init_sends = R"(
kind L() { on hello() { } }
kind W() { init { send hello() to @log; } }
kind B() { on go() { spawn W(); } }
process log = L();
process boss = B();
given go() to @boss;
)";
  out.push_back({"init-sends-as-spawner", init_sends, {"from w-1 to log"}, {"from boss to log"}});
  // §9.1: one_for_all ends b with shutdown, no failure; a's BOOM is one.
  out.push_back({"shutdown-is-failure",
                 team("one_for_all", 3, "permanent process a = W(); permanent process b = W();", "given die() to @a;"),
                 {"exit a BOOM", "exit b shutdown", "failure a BOOM"},
                 {"failure a BOOM", "failure b shutdown"}});
  // §7.4 step 3: sub gives up and exits shutdown, which top (permanent) restarts.
  const char* unreported = R"(
kind W() { on die() { fail BOOM; } }
supervisor top one_for_one intensity 3 {
  permanent supervisor sub one_for_one intensity 0 { permanent process w = W(); }
}
given die() to @w;
)";
  out.push_back({"give-up-unreported",
                 unreported,
                 {"decision w give_up", "exit sub shutdown", "decision sub restart", "alive w"},
                 {"decision w give_up", "exit sub shutdown", "outcome quiescent"}});
  // §16.3: a link signal killed is trappable (only exit(e, kill) is not).
  const char* killed_link = R"(concord 2;
kind A() { on go() { trap_exit(1); link(@v); exit(@v, kill); } on exit(f: addr, r: reason) { } }
kind V() { }
process a = A();
process v = V();
given go() to @a;
)";
  out.push_back({"killed-link-is-kill",
                 killed_link,
                 {"exit v killed", "signal link v>a killed message", "alive a"},
                 {"exit v killed", "signal link v>a killed exit", "exit a killed"}});
  // §16.2: a trapping process that links to no live process gets exit(e, noproc).
  const char* trapping_link = R"(concord 2;
kind A() { on go() { trap_exit(1); link(@nobody-1); } on exit(f: addr, r: reason) { } }
kind Nobody() { }
process a = A();
given go() to @a;
)";
  out.push_back({"link-to-dead-fails",
                 trapping_link,
                 {"signal link nobody-1>a noproc message", "deliver a exit(nobody-1,noproc)", "alive a"},
                 {"exit a NOPROC"}});
  // §16.2: each monitor(e) holds one more monitor; each gives one down.
  const char* two_monitors = R"(concord 2;
kind A() { state downs: int = 0; on go() { monitor(@x); monitor(@x); send die() to @x; } on down(f: addr, r: reason) { downs = downs + 1; } }
kind X() { on die() { fail BOOM; } }
process a = A();
process x = X();
given go() to @a;
)";
  out.push_back(
      {"monitor-twice-once", two_monitors, {"exit x BOOM", "alive a downs=2"}, {"exit x BOOM", "alive a downs=1"}});
  // §16.1: a restarted w does not trap exits: b's link signal OOPS ends it.
  const char* trap_restart = R"(concord 2;
kind W() { init { send go() to @b; } on arm() { trap_exit(1); fail BOOM; } on exit(f: addr, r: reason) { } }
kind B() { state n: int = 0; on go() { n = n + 1; if n == 2 { link(@w); fail OOPS; } } }
process b = B();
supervisor s one_for_one intensity 5 { permanent process w = W(); }
given arm() to @w;
)";
  out.push_back({"restart-keeps-trap",
                 trap_restart,
                 {"exit w BOOM", "exit b OOPS", "signal link b>w OOPS exit", "exit w OOPS"},
                 {"exit w BOOM", "exit b OOPS", "signal link b>w OOPS message", "deliver w exit(b,OOPS)"}});
  // §18.1 [R29/no_reply]: ask() ends without replying; poke()'s reply answers nobody.
  const char* no_reply = R"(concord 2;
kind S() { on ask() { send poke() to self; } on poke() { reply 7; } }
kind C() { state got: int = 0; on go() { got = call ask() to @s; } }
process s = S();
process c = C();
given go() to @c;
)";
  out.push_back(
      {"unanswered-call-stays", no_reply, {"deliver s poke()", "alive c got=0"}, {"resume c 7", "alive c got=7"}});
  // §20 [R48/terminate_child]: terminate_child of a significant child shuts nothing down.
  const char* term_sig = R"(concord 2;
kind W() { }
kind B() { on go() { terminate_child(s, @w); } }
supervisor s one_for_one intensity 3 auto_shutdown any_significant { transient significant process w = W(); permanent process x = W(); }
process b = B();
given go() to @b;
)";
  out.push_back({"terminate-child-is-exit",
                 term_sig,
                 {"exit w shutdown", "api terminate_child w ok", "alive x"},
                 {"exit w shutdown", "decision w auto_shutdown", "exit x shutdown"}});
  // The alternatives added for held-out set 2's rules (issue 39).
  // §8.2: ready counts the receiver of the turn's message, its last one included.
  out.push_back({"ready-counted-after-pop",
                 "kind A() { on hi() { } }\nprocess a = A();\ngiven hi() to @a;\n",
                 {"deliver a hi()", "ready 1"},
                 {"deliver a hi()", "ready 0"}});
  // §6.6: supervisors are not counted: a is the one live worker under P = 2.
  const char* sup_limit = R"(
kind K() { }
kind A() { on go() { spawn K(); } }
supervisor s one_for_one intensity 1 { permanent process a = A(); }
given go() to @a;
)";
  Case sl{"limit-counts-supervisors", sup_limit, {"start k-1", "alive a"}, {"exit a SYSTEM_LIMIT"}};
  sl.max_processes = 2;
  out.push_back(sl);
  // §16.2: trap_exit(0) turns trapping off: b's link signal BOOM ends a.
  const char* trap_zero = R"(concord 2;
kind A() { on go() { trap_exit(1); trap_exit(0); link(@b); send die() to @b; } on exit(f: addr, r: reason) { } }
kind B() { on die() { fail BOOM; } }
process a = A();
process b = B();
given go() to @a;
)";
  out.push_back({"trap-exit-any-int",
                 trap_zero,
                 {"exit b BOOM", "signal link b>a BOOM exit", "exit a BOOM"},
                 {"exit b BOOM", "signal link b>a BOOM message", "deliver a exit(b,BOOM)"}});
  // §16.3 [R19/self_trapping]: exit(self, BOOM) in a trapping worker with no
  // supervisor ends it with BOOM when its handler ends; a's own message is never taken.
  const char* self_exit = R"(concord 2;
kind A() { init { trap_exit(1); } on go() { exit(self, BOOM); } on exit(f: addr, r: reason) { } }
process a = A();
given go() to @a;
)";
  out.push_back({"self-exit-trapped-is-message",
                 self_exit,
                 {"signal exit a>a BOOM exit", "exit a BOOM"},
                 {"signal exit a>a BOOM message", "deliver a exit(a,BOOM)", "alive a"}});
  // §20 [R41]: restart_child of a terminated child is no restart: w's BOOM is the first.
  const char* restart_api = R"(concord 2;
kind W() { on die() { fail BOOM; } }
kind B() { on go() { terminate_child(s, @w); restart_child(s, @w); send die() to @w; } }
supervisor s one_for_one intensity 1 { permanent process w = W(); }
process b = B();
given go() to @b;
)";
  out.push_back({"restart-child-counted",
                 restart_api,
                 {"api restart_child w ok", "exit w BOOM", "decision w restart", "alive w"},
                 {"decision w restart", "api restart_child w ok", "exit w BOOM", "decision w give_up"}});
  return out;
}

class Catalogue : public testing::TestWithParam<Case> {};

TEST_P(Catalogue, TheAlternativeGivesWhatItsRuleSaysAndSpecDoesNot) {
  const Case& c = GetParam();
  std::optional<Alt> a = alternative_named(c.alt);
  ASSERT_TRUE(a) << c.alt;
  Program p = parse_program(c.text);
  check(p);
  RunSettings s;
  s.seed = c.seed;
  s.turns = c.turns;
  s.max_processes = c.max_processes;
  RunResult spec = run(p, s);
  RunResult alt = run(p, s, {}, nullptr, Dialect().with(*a));
  std::vector<std::string> in_spec = lines(ojson::parse(result_line(spec))),
                           in_alt = lines(ojson::parse(result_line(alt)));
  EXPECT_TRUE(in_order(in_spec, c.spec)) << c.alt << ": SPEC should show" << joined(c.spec) << "\n  it shows"
                                         << joined(in_spec);
  EXPECT_TRUE(in_order(in_alt, c.alt_has))
      << c.alt << " should show" << joined(c.alt_has) << "\n  it shows" << joined(in_alt);
  EXPECT_TRUE(!in_order(in_spec, c.alt_has) || !in_order(in_alt, c.spec))
      << c.alt << ": the two lists do not tell the runs apart";
  EXPECT_TRUE(alt.world->taken.test(static_cast<size_t>(*a))) << c.alt << " changed the run but says it did not";
  EXPECT_GT(alt.world->changes, 0);
  EXPECT_TRUE(spec.world->taken.none());
}

INSTANTIATE_TEST_SUITE_P(EveryAlternative, Catalogue, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) {
                           std::string n = i.param.alt;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// Every alternative of scope Everywhere has its case above, and the scheduler's
// (whose draws depend on the seed) theirs below.
TEST(Catalogue, EveryAlternativeIsTested) {
  std::set<std::string> tested;
  for (const Case& c : cases()) tested.insert(c.alt);
  for (const char* d :
       {"ready-descending", "draw-off-by-one", "draw-in-double", "draw-low-32-bits", "draw-state-unmasked"})
    tested.insert(d);
  for (const Alternative& a : alternatives())
    if (a.scope == AltScope::Everywhere) {
      EXPECT_TRUE(tested.count(a.id)) << a.id << " has no test";
    }
}

// §8.2: the ready processes in ascending id order, R[draw mod n]. The draws of a
// seed, computed here by SplitMix64 as §8.3 gives it.
uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

TEST(Catalogue, TheSchedulersAlternativesPickWhatTheirRuleSays) {
  // Five processes, each with one given message: turn 1 picks among 5 (ids 0..4).
  Program p = parse_program(
      "kind K() { on hi() { } }\nprocess a = K();\nprocess b = K();\nprocess c = K();\nprocess d = K();\n"
      "process e = K();\ngiven hi() to @a;\ngiven hi() to @b;\ngiven hi() to @c;\ngiven hi() to @d;\ngiven hi() "
      "to @e;\n");
  check(p);
  const std::vector<std::string> names = {"a", "b", "c", "d", "e"};
  struct Pick {
    const char* alt;
    uint64_t (*index)(uint64_t x);  // of the 5, by ascending id
  };
  const Pick picks[] = {
      {"", [](uint64_t x) { return x % 5; }},
      {"ready-descending", [](uint64_t x) { return 4 - x % 5; }},
      {"draw-off-by-one", [](uint64_t x) { return (x % 5 + 1) % 5; }},
      {"draw-in-double", [](uint64_t x) { return static_cast<uint64_t>(std::fmod(static_cast<double>(x), 5.0)); }},
      {"draw-low-32-bits", [](uint64_t x) { return (x & 0xffffffffu) % 5; }},
  };
  for (const Pick& pick : picks) {
    int differs = 0;
    for (uint64_t seed = 0; seed < 64; seed++) {
      uint64_t state = seed;
      uint64_t x = splitmix(state);
      RunSettings s;
      s.seed = seed;
      s.turns = 1;
      Dialect d;
      if (*pick.alt) d.with(*alternative_named(pick.alt));
      RunResult r = run(p, s, {}, nullptr, d);
      ojson j = ojson::parse(result_line(r));
      std::string first;
      for (const ojson& e : j["journal"])
        if (e["ev"] == "deliver") first = e["to"];
      EXPECT_EQ(first, names[pick.index(x)]) << pick.alt << " seed " << seed;
      if (pick.index(x) != x % 5) {
        differs++;
        EXPECT_TRUE(r.world->taken.any()) << pick.alt << " seed " << seed;
      }
    }
    if (*pick.alt) {
      EXPECT_GT(differs, 0) << pick.alt << " never picks otherwise in 64 seeds";
    }
  }
}

// §8.3: the state is taken modulo 2^64. Unreduced (a bignum language that forgot to
// mask it), the second draw of any seed already differs: seed + 2 gamma > 2^64 for
// most seeds. Five processes each with a message: the second turn picks among the four
// left, by the draw of a state computed here without reduction.
TEST(Catalogue, TheUnmaskedGeneratorDrawsFromAStateBeyond64Bits) {
  Program p = parse_program(
      "kind K() { on hi() { } }\nprocess a = K();\nprocess b = K();\nprocess c = K();\nprocess d = K();\n"
      "process e = K();\ngiven hi() to @a;\ngiven hi() to @b;\ngiven hi() to @c;\ngiven hi() to @d;\ngiven hi() "
      "to @e;\n");
  check(p);
  int differs = 0;
  for (uint64_t seed = 0; seed < 32; seed++) {
    unsigned __int128 state = seed;
    auto draw = [&] {
      state += 0x9E3779B97F4A7C15ull;
      uint64_t z = static_cast<uint64_t>(state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    };
    std::vector<std::string> ready = {"a", "b", "c", "d", "e"}, want;
    for (int turn = 0; turn < 2; turn++) {
      uint64_t x = draw();
      size_t i = x % ready.size();
      want.push_back(ready[i]);
      ready.erase(ready.begin() + static_cast<long>(i));
    }
    RunSettings s;
    s.seed = seed;
    s.turns = 2;
    RunResult r = run(p, s, {}, nullptr, Dialect().with(*alternative_named("draw-state-unmasked")));
    std::vector<std::string> got;
    const ojson alt_j = ojson::parse(result_line(r));  // kept: a range over a temporary's member dangles
    for (const ojson& e : alt_j["journal"])
      if (e["ev"] == "deliver") got.push_back(e["to"]);
    EXPECT_EQ(got, want) << "seed " << seed;
    RunResult spec = run(p, s);
    std::vector<std::string> in_spec;
    const ojson spec_j = ojson::parse(result_line(spec));
    for (const ojson& e : spec_j["journal"])
      if (e["ev"] == "deliver") in_spec.push_back(e["to"]);
    if (in_spec != got) {
      differs++;
      EXPECT_TRUE(r.world->taken.any());
    }
  }
  EXPECT_GT(differs, 0);
}

}  // namespace
