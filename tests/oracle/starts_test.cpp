// tests/oracle/starts_test.cpp: version 2's starts that fail (SPEC §19), the
// supervisor API (§20) and significant children (§21), one small program per
// rule. Every expected journal is derived by hand from the SPEC text and matches
// what the OTP experiment named in brackets shows (spec/experiments/starts.erl,
// supervisor_api.erl, significant.erl).
#include <gtest/gtest.h>

#include "tests/oracle/journal_lines.hpp"

using namespace concord;
using namespace concord::testing;

// §19.1, §19.2: a root whose init fails is simply not alive; what its init sent
// stays sent; the next roots start.
TEST(Starts, RootInitFails) {
  ojson r = run_text(R"(concord 2;
kind F() { init { send hi() to @e; fail BAD; } }
kind E() { on hi() {} }
process e = E();
process f = F();
)");
  EXPECT_EQ(lines(r), (Lines{"0 start e E", "0 start f F", "0 exit f BAD", "1 deliver(1) e<-f hi()"}));
  EXPECT_EQ(r["failures"], ojson::parse(R"([{"process":"f","code":"BAD","turn":0}])"));
}

// §19.1: a state initialiser may fail (DIV_ZERO); `stop` in init fails the start
// with normal; `ignore` ignores it: each exits at once, after its start event.
TEST(Starts, InitialiserStopAndIgnore) {
  ojson r = run_text(R"(concord 2;
kind D() { state x: int = 1 / 0; }
kind S() { init { stop; } }
kind I() { init { ignore; } }
process d = D();
process s = S();
process i = I();
)");
  EXPECT_EQ(lines(r), (Lines{"0 start d D", "0 exit d DIV_ZERO", "0 start s S", "0 exit s normal", "0 start i I",
                             "0 exit i normal"}));
}

// §19.1: a failed start's exit reaches the links its init made [R34/crash].
TEST(Starts, FailedStartSignalsItsLinks) {
  ojson r = run_text(R"(concord 2;
kind T() { state got: reason = normal; init { trap_exit(1); } on exit(f: addr, r: reason) { got = r; } }
kind F() { init { link(@t); fail BAD; } }
process t = T();
process f = F();
)");
  EXPECT_EQ(lines(r), (Lines{"0 start t T", "0 start f F", "0 exit f BAD", "0 signal link f->t BAD message",
                             "1 deliver(1) t<-f exit(f,BAD)"}));
}

// §19.2: a child's start fails: the later children are not started, those started
// are terminated in reverse order, the supervisor exits shutdown; the next root
// starts [R34/stop].
TEST(Starts, SupervisorStartFails) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind F() { init { fail BAD; } }
supervisor sup one_for_one intensity 1 {
    permanent process a = W();
    permanent process b = W();
    permanent process f = F();
    permanent process c = W();
}
process z = W();
)");
  EXPECT_EQ(lines(r), (Lines{"0 start sup supervisor", "0 start a W", "0 start b W", "0 start f F", "0 exit f BAD",
                             "0 exit b shutdown", "0 exit a shutdown", "0 exit sup shutdown", "0 start z W"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"dead"}));
  EXPECT_EQ(r["processes"].size(), 4u);  // c never came to life: a, b, f, z
}

// §19.2: a nested supervisor whose start fails fails its parent [R34/nested].
TEST(Starts, NestedSupervisorStartFails) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind F() { init { fail BAD; } }
supervisor outer one_for_one intensity 1 {
    permanent process a = W();
    permanent supervisor inner one_for_one intensity 1 { permanent process f = F(); }
    permanent process c = W();
}
)");
  EXPECT_EQ(lines(r), (Lines{"0 start outer supervisor", "0 start a W", "0 start inner supervisor", "0 start f F",
                             "0 exit f BAD", "0 exit inner shutdown", "0 exit a shutdown", "0 exit outer shutdown"}));
}

// §19.2: an ignored child stays in the list, not running; a temporary one is not
// kept [R34/ignore].
TEST(Starts, IgnoredChildren) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind I() { init { ignore; } }
supervisor sup one_for_one intensity 1 {
    transient process i = I();
    temporary process j = I();
    permanent process a = W();
}
)");
  EXPECT_EQ(lines(r), (Lines{"0 start sup supervisor", "0 start i I", "0 exit i normal", "0 start j I",
                             "0 exit j normal", "0 start a W"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"i:stopped", "a:running"}));
}

// §19.3: a restart whose start fails counts and is retried, each try a restart
// decision, MaxR tries in all, then the supervisor gives up [R35/always_fails].
// w's init links to x; once x is dead, that link fails with NOPROC.
TEST(Starts, FailedRestartIsRetriedUntilGivingUp) {
  ojson r = run_text(R"(concord 2;
kind X() {}
kind W() { init { link(@x); } on go() { fail BOOM; } }
process x = X();
supervisor sup one_for_one intensity 3 { permanent process w = W(); }
given go() to @w;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) w<-- go()", "1 exit w BOOM", "1 signal link w->x BOOM exit", "1 exit x BOOM",
                   "1 decision sup w restart", "1 start w W", "1 exit w NOPROC", "1 decision sup w restart",
                   "1 start w W", "1 exit w NOPROC", "1 decision sup w restart", "1 start w W", "1 exit w NOPROC",
                   "1 decision sup w give_up", "1 exit sup shutdown"}));
}

// §19.3 one_for_all: a start that fails mid-pass leaves the later entries
// unstarted; the retry restarts everything again from the failed child's restart
// [R36]. l dies by its link to x first; its pending exit is consumed (§17.3).
TEST(Starts, FailedRestartOneForAll) {
  ojson r = run_text(R"(concord 2;
kind X() {}
kind L() { init { link(@x); } }
kind W() { on go() { exit(@x, kill); fail BOOM; } }
process x = X();
supervisor sup one_for_all intensity 2 {
    permanent process w = W();
    permanent process l = L();
    permanent process z = X();
}
given go() to @w;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) w<-- go()", "1 exit w BOOM", "1 signal exit w->x kill exit", "1 exit x killed",
                   "1 signal link x->l killed exit", "1 exit l killed", "1 decision sup w restart", "1 exit z shutdown",
                   "1 start w W", "1 start l L", "1 exit l NOPROC", "1 decision sup l restart", "1 exit w shutdown",
                   "1 start w W", "1 start l L", "1 exit l NOPROC", "1 decision sup l give_up", "1 exit w shutdown",
                   "1 exit sup shutdown"}));
}

// §19.3: a restart whose start is ignored leaves the child not running, not
// retried; one_for_all starts a sibling that was not running too [R37, R5].
TEST(Starts, IgnoredOnRestart) {
  ojson r = run_text(R"(concord 2;
kind I() { init { ignore; } }
kind W() { on go() { fail BOOM; } }
supervisor sup one_for_all intensity 2 {
    permanent process i = I();
    permanent process w = W();
}
given go() to @w;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) w<-- go()", "1 exit w BOOM", "1 decision sup w restart",
                                     "1 start i I", "1 exit i normal", "1 start w W"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"i:stopped", "w:running"}));
}

// §19.4: a spawn whose start fails or is ignored does not fail the spawner; the
// name is consumed and bound; under s a failed child is not added, an ignored one
// is added not running unless temporary [R38].
TEST(Starts, SpawnThatFailsOrIsIgnored) {
  ojson r = run_text(R"(concord 2;
kind F() { init { fail BAD; } }
kind I() { init { ignore; } }
kind P() {
    state a: addr = self;
    state b: addr = self;
    state c: addr = self;
    on go() { a = spawn F() under sup transient; b = spawn I() under sup transient; c = spawn I() under sup temporary; spawn F(); }
}
supervisor sup one_for_one intensity 1 {}
process p = P();
given go() to @p;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) p<-- go()", "1 start f-1 F", "1 exit f-1 BAD", "1 start i-1 I", "1 exit i-1 normal",
                   "1 start i-2 I", "1 exit i-2 normal", "1 start f-2 F", "1 exit f-2 BAD"}));
  EXPECT_EQ(state_of(r, "p"), ojson::parse(R"({"a":"f-1","b":"i-1","c":"i-2"})"));
  EXPECT_EQ(children(r, "sup"), (Lines{"i-1:stopped"}));
}

// §20: terminate_child, restart_child and delete_child and their results, bound
// as numbers; nothing is counted or decided [R40, R41, R42].
TEST(Api, TerminateRestartDelete) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind A() {
    state r1: int = -1;
    state r2: int = -1;
    state r3: int = -1;
    state r4: int = -1;
    state r5: int = -1;
    state r6: int = -1;
    state r7: int = -1;
    on go() {
        r1 = terminate_child(sup, @w);
        r2 = restart_child(sup, @w);
        r3 = restart_child(sup, @w);
        r4 = delete_child(sup, @w);
        r5 = terminate_child(sup, @w);
        r6 = delete_child(sup, @w);
        r7 = restart_child(sup, @w);
    }
}
supervisor sup one_for_one intensity 0 { transient process w = W(); }
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) a<-- go()", "1 exit w shutdown", "1 api a sup terminate_child w ok", "1 start w W",
                   "1 api a sup restart_child w ok", "1 api a sup restart_child w running",
                   "1 api a sup delete_child w running", "1 exit w shutdown", "1 api a sup terminate_child w ok",
                   "1 api a sup delete_child w ok", "1 api a sup restart_child w not_found"}));
  EXPECT_EQ(state_of(r, "a"), ojson::parse(R"({"r1":0,"r2":0,"r3":2,"r4":2,"r5":0,"r6":0,"r7":1})"));
  EXPECT_EQ(children(r, "sup"), Lines{});
  EXPECT_EQ(r["decisions"], ojson::array());
}

// §20: terminate_child removes a temporary child; a name not in the list is
// not_found [R40, R41].
TEST(Api, TemporaryAndUnknownChildren) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind A() { on go() { terminate_child(sup, @t); restart_child(sup, @t); terminate_child(sup, @a); } }
supervisor sup one_for_one intensity 1 { temporary process t = W(); }
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) a<-- go()", "1 exit t shutdown", "1 api a sup terminate_child t ok",
                   "1 api a sup restart_child t not_found", "1 api a sup terminate_child a not_found"}));
}

// §20: restart_child answers failed or ignored when the start does; the child stays
// not running; nothing is counted (intensity 0 would give up) [R39]. The API
// statement settles before it completes: l's termination kills x by their link.
TEST(Api, RestartChildThatFailsOrIsIgnored) {
  ojson r = run_text(R"(concord 2;
kind X() {}
kind L() { init { link(@x); } }
kind I() { init { ignore; } }
kind A() { state r1: int = -1; state r2: int = -1; on go() { terminate_child(sup, @l); r1 = restart_child(sup, @l); r2 = restart_child(sup, @i); } }
process x = X();
supervisor sup one_for_one intensity 0 { transient process l = L(); transient process i = I(); }
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) a<-- go()", "1 exit l shutdown", "1 api a sup terminate_child l ok",
                                     "1 signal link l->x shutdown exit", "1 exit x shutdown", "1 start l L",
                                     "1 exit l NOPROC", "1 api a sup restart_child l failed", "1 start i I",
                                     "1 exit i normal", "1 api a sup restart_child i ignored"}));
  EXPECT_EQ(state_of(r, "a"), ojson::parse(R"({"r1":5,"r2":4})"));
  EXPECT_EQ(children(r, "sup"), (Lines{"l:stopped", "i:stopped"}));
}

// §20: a child supervisor named with `supervisor t`, terminated with its subtree;
// a request to a supervisor that is not alive fails the caller with NOPROC [R44].
TEST(Api, ChildSupervisorAndDeadSupervisor) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind A() { state r: int = -1; on go() { r = terminate_child(top, supervisor sub); restart_child(sub, @w); } }
supervisor top one_for_one intensity 1 {
    permanent supervisor sub one_for_one intensity 1 { permanent process w = W(); }
}
process a = A();
given go() to @a;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) a<-- go()", "1 exit w shutdown", "1 exit sub shutdown",
                                     "1 api a top terminate_child sub ok", "1 exit a NOPROC"}));
  EXPECT_EQ(children(r, "top"), (Lines{"sub:stopped"}));
}

// §20, §16.6: a worker that terminates itself is blocked waiting for the answer: it
// exits killed if it traps exits, shutdown otherwise; the api event comes after,
// and its handler ends there [R50/self_*].
TEST(Api, TerminateItself) {
  const char* src = R"(concord 2;
kind S(trap: int) { init { trap_exit(trap); } on go() { terminate_child(sup, self); send hi() to @e; } }
kind E() { on hi() {} }
supervisor sup one_for_one intensity 1 { permanent process s = S(TRAP); }
process e = E();
given go() to @s;
)";
  std::string trapping = src, not_trapping = src;
  trapping.replace(trapping.find("TRAP"), 4, "1");
  not_trapping.replace(not_trapping.find("TRAP"), 4, "0");
  ojson r = run_text(trapping);
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) s<-- go()", "1 exit s killed", "1 api s sup terminate_child s ok"}));
  EXPECT_EQ(children(r, "sup"), (Lines{"s:stopped"}));
  EXPECT_EQ(lines_from(run_text(not_trapping), 1),
            (Lines{"1 deliver(1) s<-- go()", "1 exit s shutdown", "1 api s sup terminate_child s ok"}));
}

// §21 any_significant: a significant transient child that exits normal shuts its
// supervisor down (decision auto_shutdown, the others terminated in reverse order);
// to its parent that is an exit with shutdown: a permanent one is restarted [R46, R48/parent_*].
TEST(Significant, AnySignificantShutsDown) {
  ojson r = run_text(R"(concord 2;
kind W() { on quit() { stop; } }
supervisor top one_for_one intensity 1 {
    permanent supervisor s one_for_one intensity 1 auto_shutdown any_significant {
        permanent process a = W();
        transient significant process t = W();
        permanent process b = W();
    }
}
given quit() to @t;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) t<-- quit()", "1 exit t normal", "1 decision s t auto_shutdown", "1 exit b shutdown",
                   "1 exit a shutdown", "1 exit s shutdown", "1 decision top s restart", "1 start s supervisor",
                   "1 start a W", "1 start t W", "1 start b W"}));
}

// §21: a significant transient child that fails is restarted as usual; a
// significant temporary one shuts the supervisor down whatever its reason
// [R46/transient_abnormal, R46].
TEST(Significant, AbnormalExits) {
  ojson r = run_text(R"(concord 2;
kind W() { on boom() { send boom() to @u; fail BOOM; } }
supervisor s one_for_one intensity 5 auto_shutdown any_significant {
    transient significant process t = W();
    temporary significant process u = W();
    permanent process a = W();
}
given boom() to @t;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) t<-- boom()", "1 exit t BOOM", "1 decision s t restart", "1 start t W",
                   "2 deliver(1) u<-t boom()", "2 exit u BOOM", "2 decision s u auto_shutdown", "2 exit a shutdown",
                   "2 exit t shutdown", "2 exit s shutdown"}));
}

// §21 all_significant: only the last running significant child shuts the
// supervisor down; one that never started (ignored) does not count [R47, R47/never_started].
TEST(Significant, AllSignificant) {
  ojson r = run_text(R"(concord 2;
kind W() { on quit() { send quit() to @b; stop; } }
kind I() { init { ignore; } }
supervisor s one_for_one intensity 1 auto_shutdown all_significant {
    transient significant process i = I();
    transient significant process a = W();
    transient significant process b = W();
    permanent process c = W();
}
given quit() to @a;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) a<-- quit()", "1 exit a normal", "1 decision s a keep", "2 deliver(1) b<-a quit()",
                   "2 exit b normal", "2 decision s b auto_shutdown", "2 exit c shutdown", "2 exit s shutdown"}));
}

// §21: terminate_child of a significant child never shuts the supervisor down
// [R48/terminate_child].
TEST(Significant, TerminateChildDoesNotShutDown) {
  ojson r = run_text(R"(concord 2;
kind W() {}
kind A() { on go() { terminate_child(s, @t); } }
supervisor s one_for_one intensity 1 auto_shutdown any_significant {
    transient significant process t = W();
    permanent process w = W();
}
process x = A();
given go() to @x;
)");
  EXPECT_EQ(lines_from(r, 1), (Lines{"1 deliver(1) x<-- go()", "1 exit t shutdown", "1 api x s terminate_child t ok"}));
  EXPECT_EQ(children(r, "s"), (Lines{"t:stopped", "w:running"}));
}

// §21: a significant child supervisor that shuts down shuts down its
// any_significant parent in turn [R48/cascade].
TEST(Significant, Cascade) {
  ojson r = run_text(R"(concord 2;
kind W() { on quit() { stop; } }
supervisor top one_for_one intensity 1 auto_shutdown any_significant {
    transient significant supervisor s one_for_one intensity 1 auto_shutdown any_significant {
        transient significant process t = W();
    }
    permanent process a = W();
}
given quit() to @t;
)");
  EXPECT_EQ(lines_from(r, 1),
            (Lines{"1 deliver(1) t<-- quit()", "1 exit t normal", "1 decision s t auto_shutdown", "1 exit s shutdown",
                   "1 decision top s auto_shutdown", "1 exit a shutdown", "1 exit top shutdown"}));
}

// §21: a significant child that the supervisor terminates for a restart has not
// exited by itself: no auto_shutdown, both start again [R48/terminated_by_strategy].
TEST(Significant, TerminatedByTheStrategy) {
  ojson r = run_text(R"(concord 2;
kind W() { on die() { fail BOOM; } }
supervisor s one_for_all intensity 5 auto_shutdown any_significant {
    permanent process a = W();
    transient significant process t = W();
}
given die() to @a;
)");
  EXPECT_EQ(lines(r),
            (Lines{"0 start s supervisor", "0 start a W", "0 start t W", "1 deliver(1) a<-- die()", "1 exit a BOOM",
                   "1 decision s a restart", "1 exit t shutdown", "1 start a W", "1 start t W"}));
  EXPECT_EQ(children(r, "s"), (Lines{"a:running", "t:running"}));
}

// §21 all_significant: a significant child whose start was ignored is not running
// and does not count: when the only running one ends, the supervisor shuts down
// [R47/never_started].
TEST(Significant, AnIgnoredChildDoesNotCount) {
  ojson r = run_text(R"(concord 2;
kind I() { init { ignore; } }
kind W() { on quit() { stop; } }
supervisor s one_for_one intensity 5 auto_shutdown all_significant {
    permanent process a = W();
    transient significant process t1 = I();
    transient significant process t2 = W();
}
given quit() to @t2;
)");
  EXPECT_EQ(lines(r), (Lines{"0 start s supervisor", "0 start a W", "0 start t1 I", "0 exit t1 normal", "0 start t2 W",
                             "1 deliver(1) t2<-- quit()", "1 exit t2 normal", "1 decision s t2 auto_shutdown",
                             "1 exit a shutdown", "1 exit s shutdown"}));
  EXPECT_EQ(children(r, "s"), (Lines{"dead"}));
}
