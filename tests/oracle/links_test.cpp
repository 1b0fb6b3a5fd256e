// tests/oracle/links_test.cpp: version 2's reasons, links, monitors and exit
// signals (SPEC §15, §16, §17), one small program per rule. Every expected journal
// is derived by hand from the SPEC text, step by step in the comments, and matches
// what the OTP experiment named in brackets shows (spec/experiments/README.md).
// At most one process is ready at each turn unless a comment says otherwise.
#include <gtest/gtest.h>

#include "tests/oracle/journal_lines.hpp"

using namespace concord;
using namespace concord::testing;

// §15: reasons compare, are stored, sent and printed as strings.
TEST(Reasons, CompareStoreAndSend) {
  ojson r = run_text(R"(concord 2;
kind R() {
    state last: reason = normal;
    state same: int = 0;
    on take(r: reason) { same = r == last; last = r; }
}
process r = R();
given take(BOOM) to @r;
given take(BOOM) to @r;
given take(noproc) to @r;
)");
  // take(BOOM): BOOM == normal is 0; take(BOOM): 1; take(noproc): 0.
  EXPECT_EQ(lines(r), (Lines{"0 start r R", "1 deliver(1) r<-- take(BOOM)", "2 deliver(1) r<-- take(BOOM)",
                             "3 deliver(1) r<-- take(noproc)"}));
  EXPECT_EQ(state_of(r, "r"), ojson::parse(R"({"last":"noproc","same":0})"));
}

// §15, §22: failures list every abnormal reason (killed, noproc, codes), never
// normal or shutdown; `stop e` exits with e (§16.2).
TEST(Reasons, FailuresAreTheAbnormalExits) {
  ojson r = run_text(R"(concord 2;
kind Q() { on quit(r: reason) { stop r; } }
process a = Q();
process b = Q();
process c = Q();
given quit(noproc) to @a;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start a Q", "0 start b Q", "0 start c Q", "1 deliver(1) a<-- quit(noproc)", "1 exit a noproc"}));
  EXPECT_EQ(r["failures"], ojson::parse(R"([{"process":"a","code":"noproc","turn":1}])"));
  r = run_text(
      "concord 2;\nkind Q() { on quit(r: reason) { stop r; } }\nprocess a = Q();\n"
      "given quit(shutdown) to @a;\n");
  EXPECT_EQ(r["failures"], ojson::array());
}

// §16.3 link, not trapping: an abnormal exit spreads along a chain of links, each
// process exiting with the same reason [R16].
TEST(Links, AbnormalExitSpreadsAlongAChain) {
  ojson r = run_text(R"(concord 2;
kind A() { on go() { link(@b); send go() to @b; } }
kind B() { on go() { link(@c); send go() to @c; } }
kind C() { on go() { fail BOOM; } }
process a = A();
process b = B();
process c = C();
given go() to @a;
)");
  // Turn 3: c's exit queues a link signal to b (its only link: a-b and b-c); b
  // exits BOOM and queues one to a; a exits BOOM.
  EXPECT_EQ(lines(r),
            (Lines{"0 start a A", "0 start b B", "0 start c C", "1 deliver(1) a<-- go()", "2 deliver(1) b<-a go()",
                   "3 deliver(1) c<-b go()", "3 exit c BOOM", "3 signal link c->b BOOM exit", "3 exit b BOOM",
                   "3 signal link b->a BOOM exit", "3 exit a BOOM"}));
  EXPECT_EQ(r["failures"].size(), 3u);
}

// §16.3 link: normal is ignored by a process that does not trap, and is a message
// to one that does [R16, R17]; link signals go by ascending id (§17.1 step 3).
TEST(Links, NormalIsIgnoredUnlessTrapped) {
  ojson r = run_text(R"(concord 2;
kind T() {
    state why: reason = killed;
    state who: addr = @t;
    init { trap_exit(1); }
    on exit(from: addr, r: reason) { why = r; who = from; }
}
kind N() { state n: int = 0; }
kind S() { on go() { link(@t); link(@n); stop; } }
process t = T();
process n = N();
process s = S();
given go() to @s;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start n N", "0 start s S", "1 deliver(1) s<-- go()", "1 exit s normal",
                             "1 signal link s->t normal message", "1 signal link s->n normal ignore",
                             "2 deliver(1) t<-s exit(s,normal)"}));
  EXPECT_EQ(state_of(r, "t"), ojson::parse(R"({"why":"normal","who":"s"})"));
  EXPECT_TRUE(alive(r, "n"));
}

// §16.3 link: shutdown is not normal, so it spreads too; it is not a failure [R16].
TEST(Links, ShutdownSpreads) {
  ojson r = run_text(R"(concord 2;
kind W() { on quit() { stop shutdown; } }
kind L() { on go() { link(@w); send quit() to @w; } }
process w = W();
process l = L();
given go() to @l;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start w W", "0 start l L", "1 deliver(1) l<-- go()", "2 deliver(1) w<-l quit()",
                             "2 exit w shutdown", "2 signal link w->l shutdown exit", "2 exit l shutdown"}));
  EXPECT_EQ(r["failures"], ojson::array());
}

// §16.2 stop e: a transient child that stops with shutdown is kept, a permanent
// one is restarted (§7.2) [R12].
TEST(Links, StopShutdownUnderASupervisor) {
  ojson r = run_text(R"(concord 2;
kind W() {
    on quit() { stop shutdown; }
    on go() { send quit() to @p; stop shutdown; }
}
supervisor sup one_for_one intensity 5 {
    transient process t = W();
    permanent process p = W();
}
given go() to @t;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start sup supervisor", "0 start t W", "0 start p W", "1 deliver(1) t<-- go()",
                             "1 exit t shutdown", "1 decision sup t keep", "2 deliver(1) p<-t quit()",
                             "2 exit p shutdown", "2 decision sup p restart", "2 start p W"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"t:stopped", "p:running"}));
}

// §16.3 exit(e, kill): the receiver exits killed even though it traps; its links
// see killed [R18].
TEST(ExitSignals, KillIsUntrappable) {
  ojson r = run_text(R"(concord 2;
kind V() {
    state why: reason = normal;
    init { trap_exit(1); }
    on exit(f: addr, r: reason) { why = r; }
}
kind T() {
    init { trap_exit(1); link(@v); }
    on exit(f: addr, r: reason) {}
}
kind K() { on go() { exit(@t, kill); } }
process v = V();
process t = T();
process k = K();
given go() to @k;
)");
  // The exit signal is queued and takes effect when k's handler has ended (§16.2).
  EXPECT_EQ(lines(r), (Lines{"0 start v V", "0 start t T", "0 start k K", "1 deliver(1) k<-- go()",
                             "1 signal exit k->t kill exit", "1 exit t killed", "1 signal link t->v killed message",
                             "2 deliver(1) v<-t exit(t,killed)"}));
  EXPECT_EQ(r["failures"], ojson::parse(R"([{"process":"t","code":"killed","turn":1}])"));
  EXPECT_EQ(state_of(r, "v")["why"], "killed");
}

// §16.3 exit(e, r): a trapping receiver gets exit(sender, r), killed included
// [R18/killed_is_trappable]; a non-trapping one ignores normal and exits with
// anything else [R19]. Signals apply in the order sent (§17.2).
TEST(ExitSignals, TrappedIgnoredOrFatal) {
  ojson r = run_text(R"(concord 2;
kind T() {
    state got: reason = normal;
    state who: addr = @t;
    init { trap_exit(1); }
    on exit(f: addr, r: reason) { got = r; who = f; }
}
kind N() { on ping() {} }
kind P() { on go() { exit(@t, killed); exit(@n, normal); exit(@m, BOOM); exit(@m, OTHER); } }
process t = T();
process n = N();
process m = N();
process p = P();
given go() to @p;
)");
  // The second signal to m finds it exited: discarded without an event (§16.3).
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start n N", "0 start m N", "0 start p P", "1 deliver(1) p<-- go()",
                             "1 signal exit p->t killed message", "1 signal exit p->n normal ignore",
                             "1 signal exit p->m BOOM exit", "1 exit m BOOM", "2 deliver(1) t<-p exit(p,killed)"}));
  EXPECT_EQ(state_of(r, "t"), ojson::parse(R"({"got":"killed","who":"p"})"));
}

// §16.2, §16.3 exit(self, normal) in a process that does not trap: it exits at
// once, before its next statement [R19/self_non_trapping_normal].
TEST(ExitSignals, SelfNormalNotTrapping) {
  ojson r = run_text(R"(concord 2;
kind S() { state n: int = 0; on go() { exit(self, normal); send hi() to self; } }
process s = S();
given go() to @s;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start s S", "1 deliver(1) s<-- go()", "1 signal exit s->s normal exit", "1 exit s normal"}));
}

// §16.3 exit(self, R) in a trapping unsupervised worker: no message; it exits with
// R when its handler ends, the signal event just before the exit event
// [R19/self_trapping_*].
TEST(ExitSignals, SelfTrappingUnsupervisedExitsAtTheEnd) {
  ojson r = run_text(R"(concord 2;
kind S() { init { trap_exit(1); } on go() { exit(self, BOOM); send hi() to @e; } }
kind E() { on hi() {} }
process s = S();
process e = E();
given go() to @s;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start s S", "0 start e E", "1 deliver(1) s<-- go()", "1 signal exit s->s BOOM exit",
                             "1 exit s BOOM", "2 deliver(1) e<-s hi()"}));
}

// §16.3: a supervised trapping worker gets exit(self, R) as a message
// [R19/self_supervised_trapping_*].
TEST(ExitSignals, SelfTrappingSupervisedGetsTheMessage) {
  ojson r = run_text(R"(concord 2;
kind S() {
    state got: reason = normal;
    init { trap_exit(1); }
    on go() { exit(self, BOOM); }
    on exit(f: addr, r: reason) { got = r; }
}
supervisor sup one_for_one intensity 1 { permanent process s = S(); }
given go() to @s;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start sup supervisor", "0 start s S", "1 deliver(1) s<-- go()",
                             "1 signal exit s->s BOOM message", "2 deliver(1) s<-s exit(s,BOOM)"}));
  EXPECT_EQ(state_of(r, "s")["got"], "BOOM");
}

// §16.2 link to a name with no live process: NOPROC without trapping; with it, the
// message exit(e, noproc); linking to itself does nothing [R20].
TEST(Links, LinkToTheDead) {
  ojson r = run_text(R"(concord 2;
kind A() { on go() { link(@b-1); } }
kind B() {}
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start a A", "1 deliver(1) a<-- go()", "1 exit a NOPROC"}));
  r = run_text(R"(concord 2;
kind A() {
    state r: reason = normal;
    state who: addr = @a;
    init { trap_exit(1); }
    on go() { link(@b-1); link(self); }
    on exit(f: addr, w: reason) { r = w; who = f; }
}
kind B() {}
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start a A", "1 deliver(1) a<-- go()", "1 signal link b-1->a noproc message",
                             "2 deliver(1) a<-b-1 exit(b-1,noproc)"}));
  EXPECT_EQ(state_of(r, "a"), ojson::parse(R"({"r":"noproc","who":"b-1"})"));
}

// §16.1: at most one link per pair: linking twice gives one signal [R20/once].
TEST(Links, LinkingTwiceIsOneLink) {
  ojson r = run_text(R"(concord 2;
kind T() { state n: int = 0; init { trap_exit(1); } on exit(f: addr, r: reason) { n = n + 1; } }
kind D() { on go() { link(@t); link(@t); stop; } }
process t = T();
process d = D();
given go() to @d;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start d D", "1 deliver(1) d<-- go()", "1 exit d normal",
                             "1 signal link d->t normal message", "2 deliver(1) t<-d exit(d,normal)"}));
  EXPECT_EQ(state_of(r, "t")["n"], 1);
}

// §16.2 unlink, from the other side: no signal afterwards [R21/other_side].
TEST(Links, UnlinkFromTheOtherSide) {
  ojson r = run_text(R"(concord 2;
kind T() { state n: int = 0; init { trap_exit(1); } on exit(f: addr, r: reason) { n = n + 1; } on cut() { unlink(@d); send die() to @d; } }
kind D() { on go() { link(@t); send cut() to @t; } on die() { fail BOOM; } }
process t = T();
process d = D();
given go() to @d;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start d D", "1 deliver(1) d<-- go()", "2 deliver(1) t<-d cut()",
                             "3 deliver(1) d<-t die()", "3 exit d BOOM"}));
  EXPECT_EQ(state_of(r, "t")["n"], 0);
}

// §16.2 unlink after the link's message was queued: the message stays [R21/after_queued].
TEST(Links, UnlinkLeavesAQueuedMessage) {
  ojson r = run_text(R"(concord 2;
kind T() { state n: int = 0; init { trap_exit(1); } on exit(f: addr, r: reason) { n = n + 1; } on cut() { unlink(@d); } }
kind D() { on go() { link(@t); send cut() to @t; fail BOOM; } }
process t = T();
process d = D();
given go() to @d;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start t T", "0 start d D", "1 deliver(1) d<-- go()", "1 exit d BOOM",
                   "1 signal link d->t BOOM message", "2 deliver(1) t<-d cut()", "3 deliver(1) t<-d exit(d,BOOM)"}));
  EXPECT_EQ(state_of(r, "t")["n"], 1);
}

// §16.2 trap_exit: the flag that counts is the one when the signal arrives [R17/flag_at_arrival].
TEST(Links, TrapFlagCountsAtArrival) {
  ojson r = run_text(R"(concord 2;
kind T() {
    state got: reason = normal;
    on go() { link(@x); send die() to @x; trap_exit(1); }
    on exit(f: addr, r: reason) { got = r; }
}
kind X() { on die() { fail BOOM; } }
process t = T();
process x = X();
given go() to @t;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start x X", "1 deliver(1) t<-- go()", "2 deliver(1) x<-t die()",
                             "2 exit x BOOM", "2 signal link x->t BOOM message", "3 deliver(1) t<-x exit(x,BOOM)"}));
  EXPECT_EQ(state_of(r, "t")["got"], "BOOM");
}

// §16.4: an exit message is a message like any other: without a handler of tag
// exit, the receiver fails with NO_HANDLER at delivery.
TEST(Links, ExitMessageWithoutHandler) {
  ojson r = run_text(R"(concord 2;
kind T() { init { trap_exit(1); } on go() { link(@x); send die() to @x; } }
kind X() { on die() { stop; } }
process t = T();
process x = X();
given go() to @t;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start t T", "0 start x X", "1 deliver(1) t<-- go()", "2 deliver(1) x<-t die()", "2 exit x normal",
                   "2 signal link x->t normal message", "3 deliver(1) t<-x exit(x,normal)", "3 exit t NO_HANDLER"}));
}

// §16.3 down: one message per monitor, for a watcher that does not trap; a
// monitor never makes its holder exit; monitoring itself does nothing [R24, R25].
TEST(Monitors, OneDownPerMonitor) {
  ojson r = run_text(R"(concord 2;
kind W() {
    state n: int = 0;
    state why: reason = normal;
    on watch() { monitor(@x); monitor(@x); monitor(self); send die() to @x; }
    on down(who: addr, r: reason) { n = n + 1; why = r; }
}
kind X() { on die() { fail BOOM; } }
process w = W();
process x = X();
given watch() to @w;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start w W", "0 start x X", "1 deliver(1) w<-- watch()", "2 deliver(1) x<-w die()",
                             "2 exit x BOOM", "2 signal down x->w BOOM message", "2 signal down x->w BOOM message",
                             "3 deliver(1) w<-x down(x,BOOM)", "4 deliver(1) w<-x down(x,BOOM)"}));
  EXPECT_EQ(state_of(r, "w"), ojson::parse(R"({"n":2,"why":"BOOM"})"));
}

// §16.2 monitor of a name with no live process: down(e, noproc) [R25/unknown].
TEST(Monitors, MonitorTheDead) {
  ojson r = run_text(R"(concord 2;
kind W() {
    state why: reason = normal;
    state who: addr = @w;
    on go() { monitor(@x-1); }
    on down(d: addr, r: reason) { why = r; who = d; }
}
kind X() {}
process w = W();
given go() to @w;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start w W", "1 deliver(1) w<-- go()", "1 signal down x-1->w noproc message",
                             "2 deliver(1) w<-x-1 down(x-1,noproc)"}));
  EXPECT_EQ(state_of(r, "w"), ojson::parse(R"({"why":"noproc","who":"x-1"})"));
}

// §16.2 demonitor removes one of two monitors [R26].
TEST(Monitors, DemonitorRemovesOne) {
  ojson r = run_text(R"(concord 2;
kind W() {
    state n: int = 0;
    on go() { monitor(@y); monitor(@y); demonitor(@y); send die() to @y; }
    on down(d: addr, r: reason) { n = n + 1; }
}
kind Y() { on die() { stop; } }
process w = W();
process y = Y();
given go() to @w;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start w W", "0 start y Y", "1 deliver(1) w<-- go()", "2 deliver(1) y<-w die()", "2 exit y normal",
                   "2 signal down y->w normal message", "3 deliver(1) w<-y down(y,normal)"}));
  EXPECT_EQ(state_of(r, "w")["n"], 1);
}

// §16.2 demonitor after the down was queued: the down stays [R26/after_queued].
TEST(Monitors, DemonitorLeavesAQueuedDown) {
  ojson r = run_text(R"(concord 2;
kind W() {
    state n: int = 0;
    on go() { monitor(@y); send die() to @y; }
    on later() { demonitor(@y); }
    on down(d: addr, r: reason) { n = n + 1; }
}
kind Y() { on die() { send later() to @w; stop; } }
process w = W();
process y = Y();
given go() to @w;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start w W", "0 start y Y", "1 deliver(1) w<-- go()", "2 deliver(1) y<-w die()",
                             "2 exit y normal", "2 signal down y->w normal message", "3 deliver(1) w<-y later()",
                             "4 deliver(1) w<-y down(y,normal)"}));
  EXPECT_EQ(state_of(r, "w")["n"], 1);
}

// §17.1 step 3 / §17.4: one exit, one receiver linked and monitoring: the exit
// message first, then the down, whatever the order they were made in [R27].
TEST(Order, ExitMessageBeforeDownInOneMailbox) {
  const char* src = R"(concord 2;
kind W() {
    state log: int = 0;
    init { trap_exit(TRAP); }
    on go() { monitor(@x); link(@x); send die() to @x; }
    on down(d: addr, r: reason) { log = log * 10 + 2; }
    on exit(f: addr, r: reason) { log = log * 10 + 1; }
}
kind X() { on die() { fail BOOM; } }
process w = W();
process x = X();
given go() to @w;
)";
  std::string trapping = src, not_trapping = src;
  trapping.replace(trapping.find("TRAP"), 4, "1");
  not_trapping.replace(not_trapping.find("TRAP"), 4, "0");
  ojson r = run_text(trapping);
  EXPECT_EQ(lines_from(r, 2), (Lines{"2 deliver(1) x<-w die()", "2 exit x BOOM", "2 signal link x->w BOOM message",
                                     "2 signal down x->w BOOM message", "3 deliver(1) w<-x exit(x,BOOM)",
                                     "4 deliver(1) w<-x down(x,BOOM)"}));
  EXPECT_EQ(state_of(r, "w")["log"], 12);
  // Not trapping: the link kills w first; the down then finds it exited (no event).
  r = run_text(not_trapping);
  EXPECT_EQ(lines_from(r, 2),
            (Lines{"2 deliver(1) x<-w die()", "2 exit x BOOM", "2 signal link x->w BOOM exit", "2 exit w BOOM"}));
}

// §17.1 step 3: link signals by ascending id (not in link order), then downs in
// the order the monitors were made (not by id) [R22: OTP's order is its own; concord fixes this one].
TEST(Order, LinksByIdThenMonitorsByCreation) {
  ojson r = run_text(R"(concord 2;
kind T(next: addr) {
    init { trap_exit(1); }
    on m() { monitor(@x); send m() to next; }
    on exit(f: addr, r: reason) {}
    on down(d: addr, r: reason) {}
}
kind X() { on m() { link(@c); link(@a); stop; } }
process x = X();
process a = T(@x);
process b = T(@x);
process c = T(@b);
given m() to @c;
)",
                     0, 3);
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) c<-- m()", "2 deliver(1) b<-c m()", "3 deliver(1) x<-b m()", "3 exit x normal",
                   "3 signal link x->a normal message", "3 signal link x->c normal message",
                   "3 signal down x->c normal message", "3 signal down x->b normal message"}));
  EXPECT_EQ(r["outcome"], "turn_limit");
}

// §17.2: the signals a handler sends take effect after it; the message sent after
// the signal was still sent, and goes with its receiver (no drop event).
TEST(Order, SignalsTakeEffectAfterTheHandler) {
  ojson r = run_text(R"(concord 2;
kind K() { state n: int = 0; on go() { exit(@v, BOOM); send ping() to @v; n = 1; } }
kind V() { on ping() {} }
process k = K();
process v = V();
given go() to @k;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start k K", "0 start v V", "1 deliver(1) k<-- go()", "1 signal exit k->v BOOM exit",
                             "1 exit v BOOM"}));
  EXPECT_EQ(r["outcome"], "quiescent");
  EXPECT_EQ(state_of(r, "k")["n"], 1);
}

// §16.5, §17.3: a worker linked to a sibling, one_for_one: both exits reach the
// supervisor, in order; MaxR 1: a restart, then giving up [R23/sibling_one_for_one].
TEST(Supervision, LinkedSiblingsOneForOne) {
  ojson r = run_text(R"(concord 2;
kind W() { on go() { link(@b); fail BOOM; } }
supervisor sup one_for_one intensity 1 {
    permanent process a = W();
    permanent process b = W();
}
given go() to @a;
)");
  // Signals first (b dies by the link), then the supervisor handles a's exit
  // (restart, count 1), then b's (count 2 > 1: give up, terminating a again).
  EXPECT_EQ(lines(r),
            (Lines{"0 start sup supervisor", "0 start a W", "0 start b W", "1 deliver(1) a<-- go()", "1 exit a BOOM",
                   "1 signal link a->b BOOM exit", "1 exit b BOOM", "1 decision sup a restart", "1 start a W",
                   "1 decision sup b give_up", "1 exit a shutdown", "1 exit sup shutdown"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"dead"}));
}

// §17.3: under one_for_all the restart for a terminates b, whose exit is still
// pending: it is consumed, without a second exit event or a decision [R23/sibling_one_for_all].
TEST(Supervision, LinkedSiblingsOneForAll) {
  ojson r = run_text(R"(concord 2;
kind W() { on go() { link(@b); fail BOOM; } }
supervisor sup one_for_all intensity 1 {
    permanent process a = W();
    permanent process b = W();
}
given go() to @a;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start sup supervisor", "0 start a W", "0 start b W", "1 deliver(1) a<-- go()",
                             "1 exit a BOOM", "1 signal link a->b BOOM exit", "1 exit b BOOM",
                             "1 decision sup a restart", "1 start a W", "1 start b W"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"a:running", "b:running"}));
}

// §16.5: a child its supervisor terminates exits shutdown, which its links get; a
// trapping child is terminated all the same, with no message [R23/trapping_child];
// a restarted process has no links [R23/restarted_has_no_links].
TEST(Supervision, TerminatedChildsLinksAndTheRestartedProcess) {
  ojson r = run_text(R"(concord 2;
kind O() {
    state got: reason = normal;
    init { trap_exit(1); }
    on go() { link(@t); send die() to @d; }
    on exit(f: addr, r: reason) { got = r; send die() to @t; }
}
kind C() { init { trap_exit(1); } on die() { fail BOOM; } on exit(f: addr, r: reason) {} }
supervisor sup one_for_all intensity 1 {
    permanent process d = C();
    permanent process t = C();
}
process o = O();
given go() to @o;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) o<-- go()", "2 deliver(1) d<-o die()", "2 exit d BOOM", "2 decision sup d restart",
                   "2 exit t shutdown", "2 start d C", "2 start t C", "2 signal link t->o shutdown message",
                   "3 deliver(1) o<-t exit(t,shutdown)", "4 deliver(1) t<-o die()", "4 exit t BOOM",
                   "4 decision sup t give_up", "4 exit d shutdown", "4 exit sup shutdown"}));
  EXPECT_EQ(state_of(r, "o")["got"], "shutdown");  // the restarted t's exit did not reach o
}

// §17.2 step 2: of two supervisors with pending exits, the one last in pre-order
// (the descendant) reacts first [R49: OTP may do either; concord picks this one].
TEST(Supervision, TheDescendantReactsFirst) {
  ojson r = run_text(R"(concord 2;
kind W() { on go() { link(@w2); fail BOOM; } }
supervisor outer one_for_all intensity 5 {
    permanent supervisor inner one_for_one intensity 5 { permanent process w1 = W(); }
    permanent process w2 = W();
}
given go() to @w1;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) w1<-- go()", "1 exit w1 BOOM", "1 signal link w1->w2 BOOM exit", "1 exit w2 BOOM",
                   "1 decision inner w1 restart", "1 start w1 W", "1 decision outer w2 restart", "1 exit w1 shutdown",
                   "1 exit inner shutdown", "1 start inner supervisor", "1 start w1 W", "1 start w2 W"}));
}

// §16.2 exit(e, r) to a name with no live process does nothing; the sender goes
// on [R19/dead_target].
TEST(ExitSignals, ToTheDeadDoesNothing) {
  ojson r = run_text(R"(concord 2;
kind Z() { on quit() { send go() to @a; stop; } }
kind A() { state n: int = 0; on go() { exit(@z, BOOM); n = 1; } }
process z = Z();
process a = A();
given quit() to @z;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start z Z", "0 start a A", "1 deliver(1) z<-- quit()", "1 exit z normal",
                             "2 deliver(1) a<-z go()"}));
  EXPECT_EQ(state_of(r, "a")["n"], 1);
}

// §16.2 monitor(self): allowed, never fires [R25/self]; monitoring twice holds two
// monitors: two downs in creation order, whether the holder traps or not
// [R25/twice, R25/trapping].
TEST(Monitors, SelfAndTwice) {
  ojson r = run_text(R"(concord 2;
kind X() { on go() { monitor(self); } on bye() { fail BOOM; } }
process x = X();
given go() to @x;
given bye() to @x;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start x X", "1 deliver(1) x<-- go()", "2 deliver(1) x<-- bye()", "2 exit x BOOM"}));
  const char* twice = R"(concord 2;
kind X(t: int) {
    state n: int = 0;
    init { trap_exit(t); }
    on go() { monitor(@a); monitor(@a); send die() to @a; }
    on down(w: addr, r: reason) { n = n + 1; }
}
kind A() { on die() { fail BOOM; } }
process a = A();
process x = X(TRAP);
given go() to @x;
)";
  for (const char* trap : {"0", "1"}) {
    std::string src = twice;
    src.replace(src.find("TRAP"), 4, trap);
    r = run_text(src);
    EXPECT_EQ(lines_from(r, 2), (Lines{"2 deliver(1) a<-x die()", "2 exit a BOOM", "2 signal down a->x BOOM message",
                                       "2 signal down a->x BOOM message", "3 deliver(1) x<-a down(a,BOOM)",
                                       "4 deliver(1) x<-a down(a,BOOM)"}))
        << "trap " << trap;
    EXPECT_EQ(state_of(r, "x")["n"], 2);
  }
}

// §16.5: a supervisor that gives up terminates its children; their links get
// shutdown, after the supervisor's reaction (§17.2) [R23/give_up].
TEST(Supervision, GivingUpTerminatesLinkedChildren) {
  ojson r = run_text(R"(concord 2;
kind W() { on die() { fail BOOM; } }
kind X() { state why: reason = normal; init { trap_exit(1); link(@w1); } on exit(f: addr, r: reason) { why = r; } }
supervisor s one_for_one intensity 0 {
    permanent process w1 = W();
    permanent process w2 = W();
}
process x = X();
given die() to @w2;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start s supervisor", "0 start w1 W", "0 start w2 W", "0 start x X", "1 deliver(1) w2<-- die()",
                   "1 exit w2 BOOM", "1 decision s w2 give_up", "1 exit w1 shutdown", "1 exit s shutdown",
                   "1 signal link w1->x shutdown message", "2 deliver(1) x<-w1 exit(w1,shutdown)"}));
  EXPECT_EQ(state_of(r, "x")["why"], "shutdown");
}

// §16.1, §16.5: the restarted process has neither the links nor the monitors of
// the one before: when it fails, x hears nothing [R23/restarted_not_watched].
TEST(Supervision, TheRestartedProcessIsNotWatched) {
  ojson r = run_text(R"(concord 2;
kind W() { on die() { fail BOOM; } }
kind X() {
    state n: int = 0;
    init { trap_exit(1); link(@w); monitor(@w); }
    on exit(f: addr, r: reason) { n = n + 1; }
    on down(f: addr, r: reason) { n = n + 10; send die() to @w; }
}
supervisor s one_for_one intensity 5 { permanent process w = W(); }
process x = X();
given die() to @w;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start s supervisor", "0 start w W", "0 start x X", "1 deliver(1) w<-- die()", "1 exit w BOOM",
                   "1 signal link w->x BOOM message", "1 signal down w->x BOOM message", "1 decision s w restart",
                   "1 start w W", "2 deliver(1) x<-w exit(w,BOOM)", "3 deliver(1) x<-w down(w,BOOM)",
                   "4 deliver(1) w<-x die()", "4 exit w BOOM", "4 decision s w restart", "4 start w W"}));
  EXPECT_EQ(state_of(r, "x")["n"], 11);
}
