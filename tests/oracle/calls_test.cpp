// tests/oracle/calls_test.cpp: version 2's calls with replies (SPEC §18) and blocked
// workers (§16.6), one small program per rule. Every expected journal is derived
// by hand from the SPEC text and matches what the OTP experiment named in brackets
// shows (spec/experiments/calls.erl).
#include <gtest/gtest.h>

#include "tests/oracle/journal_lines.hpp"

using namespace concord;
using namespace concord::testing;

// §18.1: the caller waits; the callee's handler is reached by a `call` event; the
// first reply makes the caller ready; it resumes with the value and goes on after
// the call statement [R28].
TEST(Calls, ReplyAndResume) {
  ojson r = run_text(R"(concord 2;
kind S() { on ask(x: int) { reply x * 2; reply 0; } }
kind C() { state got: int = 0; on go() { got = call ask(21) to @s; got = got + 1; } }
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start s S", "0 start c C", "1 deliver(1) c<-- go()", "2 call(1) s<-c ask(21)",
                             "3 resume(1) c<-s 42"}));
  EXPECT_EQ(state_of(r, "c")["got"], 43);  // the second reply did nothing [R29/reply_twice]
  EXPECT_EQ(r["outcome"], "quiescent");
}

// §18.1: a reply of another type than the bound field fails the caller with
// BAD_REPLY when it resumes.
TEST(Calls, BadReply) {
  ojson r = run_text(R"(concord 2;
kind S() { on ask() { reply self; } }
kind C() { state got: int = 0; on go() { got = call ask() to @s; } }
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c ask()", "3 resume(1) c<-s s", "3 exit c BAD_REPLY"}));
}

// §18.2: a callee that exits before replying, even with normal, fails its caller
// with code(R) = NORMAL, abnormal: a transient caller is restarted [R30].
TEST(Calls, CalleeStopsBeforeReplying) {
  ojson r = run_text(R"(concord 2;
kind S() { on ask() { stop; } }
kind C() { on go() { call ask() to @s; } }
supervisor sup one_for_one intensity 1 { transient process c = C(); }
process s = S();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c ask()", "2 exit s normal",
                   "2 signal call s->c normal exit", "2 exit c NORMAL", "2 decision sup c restart", "2 start c C"}));
  EXPECT_EQ(r["failures"], ojson::parse(R"([{"process":"c","code":"NORMAL","turn":2}])"));
}

// §18.2: the call message still in the callee's mailbox when it fails: the caller
// fails with the callee's code [R30/unhandled].
TEST(Calls, CalleeFailsWithTheCallQueued) {
  ojson r = run_text(R"(concord 2;
kind S() { on first() { fail BOOM; } on ask() { reply 1; } }
kind C() { on go() { send first() to @s; call ask() to @s; } }
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) c<-- go()", "2 deliver(1) s<-c first()", "2 exit s BOOM",
                                     "2 signal call s->c BOOM exit", "2 exit c BOOM"}));
}

// §18.1: no matching handler fails the callee with NO_HANDLER, which fails the caller.
TEST(Calls, CalleeWithoutHandler) {
  ojson r = run_text(R"(concord 2;
kind S() {}
kind C() { on go() { call nope() to @s; } }
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c nope()", "2 exit s NO_HANDLER",
                                     "2 signal call s->c NO_HANDLER exit", "2 exit c NO_HANDLER"}));
}

// §18.1: a call to a name with no live process fails with NOPROC (a call signal
// from that name first, §22); a call to itself with CALLING_SELF [R31].
TEST(Calls, DeadUnknownAndSelf) {
  ojson r = run_text(R"(concord 2;
kind C() { on go() { call ask() to @x-1; } on me() { call ask() to self; } }
kind X() {}
process c = C();
process d = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) c<-- go()", "1 signal call x-1->c noproc exit", "1 exit c NOPROC"}));
  r = run_text(R"(concord 2;
kind C() { on me() { call ask() to self; } }
process d = C();
given me() to @d;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) d<-- me()", "1 exit d CALLING_SELF"}));
}

// §18.3: a call cycle waits for ever: nothing is ready and a caller waits:
// outcome deadlock [R32].
TEST(Calls, CycleIsADeadlock) {
  ojson r = run_text(R"(concord 2;
kind P(peer: addr) { on go() { call ping() to peer; } on ping() { call ping() to peer; } }
process a = P(@b);
process b = P(@a);
given go() to @a;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start a P", "0 start b P", "1 deliver(1) a<-- go()", "2 call(1) b<-a ping()"}));
  EXPECT_EQ(r["outcome"], "deadlock");
  EXPECT_EQ(r["turns"], 2);
}

// §18.1: a reply in a handler reached by send does nothing; a handler reached by a
// call that does not reply leaves its caller waiting for ever [R29/no_reply].
// Turn 1 has two ready processes, s (id 0) and c (id 1): seed 0's first draw
// 0xe220a8397b1dcdaf is odd, so index 1, c.
TEST(Calls, NoReplyAndReplyToASend) {
  ojson r = run_text(R"(concord 2;
kind S() { on ask() {} on poke() { reply 5; } }
kind C() { state got: int = 0; on go() { got = call ask() to @s; } }
process s = S();
process c = C();
given go() to @c;
given poke() to @s;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(2) c<-- go()", "2 deliver(1) s<-- poke()", "3 call(1) s<-c ask()"}));
  EXPECT_EQ(r["outcome"], "deadlock");
  EXPECT_EQ(state_of(r, "c")["got"], 0);
}

// §18.3: messages that arrive while the caller waits stay in its mailbox until it
// has resumed and finished its handler [R28/blocked].
TEST(Calls, MessagesWaitForTheCaller) {
  ojson r = run_text(R"(concord 2;
kind S() { on ask() { send hi() to @c; reply 7; } }
kind C() {
    state got: int = 0;
    state n: int = 0;
    on go() { got = call ask() to @s; n = 1; }
    on hi() { n = n + 10; }
}
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c ask()", "3 resume(1) c<-s 7", "4 deliver(1) c<-s hi()"}));
  EXPECT_EQ(state_of(r, "c"), ojson::parse(R"({"got":7,"n":11})"));
}

// §18.2: a caller linked to its callee dies by the link signal, which comes first,
// with the callee's reason when it is not normal; with normal the link is ignored
// and the call signal fails it with NORMAL [R33].
TEST(Calls, LinkedCaller) {
  const char* src = R"(concord 2;
kind S() { on ask() { END; } }
kind C() { on go() { link(@s); call ask() to @s; } }
process s = S();
process c = C();
given go() to @c;
)";
  std::string abnormal = src, normal = src;
  abnormal.replace(abnormal.find("END;"), 4, "fail BOOM;");
  normal.replace(normal.find("END;"), 4, "stop;");
  EXPECT_EQ(lines_from(run_text(abnormal), 2),
            (Lines{"2 call(1) s<-c ask()", "2 exit s BOOM", "2 signal link s->c BOOM exit", "2 exit c BOOM"}));
  EXPECT_EQ(lines_from(run_text(normal), 2),
            (Lines{"2 call(1) s<-c ask()", "2 exit s normal", "2 signal link s->c normal ignore",
                   "2 signal call s->c normal exit", "2 exit c NORMAL"}));
}

// §18.2: a waiting caller ended by a signal no longer waits; the reply then does
// nothing [R29/caller_gone]. The callee's spawn settles the run (§17.2) before
// the reply, so its exit signal reaches the caller first.
TEST(Calls, ReplyToACallerThatHasGone) {
  ojson r = run_text(R"(concord 2;
kind S() { state n: int = 0; on ask() { exit(@c, BOOM); spawn X(); reply 1; n = 1; } }
kind C() { on go() { call ask() to @s; } }
kind X() {}
process s = S();
process c = C();
given go() to @c;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c ask()", "2 start x-1 X",
                                     "2 signal exit s->c BOOM exit", "2 exit c BOOM"}));
  EXPECT_EQ(state_of(r, "s")["n"], 1);
  EXPECT_EQ(r["outcome"], "quiescent");
}

// §16.6: a worker waiting in a call is blocked: when its supervisor terminates it,
// it exits killed if it traps exits, shutdown otherwise [R50].
TEST(Calls, BlockedCallerTerminatedBySupervisor) {
  const char* src = R"(concord 2;
kind S() { on ask() { send die() to @d; } }
kind C(trap: int) { init { trap_exit(trap); } on go() { call ask() to @s; } }
kind D() { on die() { fail BOOM; } }
supervisor sup one_for_all intensity 1 {
    permanent process d = D();
    permanent process c = C(TRAP);
}
process s = S();
given go() to @c;
)";
  std::string trapping = src, not_trapping = src;
  trapping.replace(trapping.find("TRAP"), 4, "1");
  not_trapping.replace(not_trapping.find("TRAP"), 4, "0");
  EXPECT_EQ(lines_from(run_text(trapping), 1),
            (Lines{"1 deliver(1) c<-- go()", "2 call(1) s<-c ask()", "3 deliver(1) d<-s die()", "3 exit d BOOM",
                   "3 decision sup d restart", "3 exit c killed", "3 start d D", "3 start c C"}));
  EXPECT_EQ(lines_from(run_text(not_trapping), 3),
            (Lines{"3 deliver(1) d<-s die()", "3 exit d BOOM", "3 decision sup d restart", "3 exit c shutdown",
                   "3 start d D", "3 start c C"}));
}

// §18.1: only the first reply of a handler answers; the second does nothing
// [R29/reply_twice].
TEST(Calls, OnlyTheFirstReplyCounts) {
  ojson r = run_text(R"(concord 2;
kind B() { on req() { reply 1; reply 2; } }
kind A() { state v: int = 0; on go() { v = call req() to @b; } }
process b = B();
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start b B", "0 start a A", "1 deliver(1) a<-- go()", "2 call(1) b<-a req()",
                             "3 resume(1) a<-b 1"}));
  EXPECT_EQ(state_of(r, "a")["v"], 1);
  EXPECT_EQ(r["outcome"], "quiescent");
}
