// tests/targets/unsupported_test.cpp: every target that does not implement
// version 2 yet (SPEC §14-§23; the c target does: tests/targets/c_v2_test.cpp)
// refuses a version 2 program with Unsupported
// (targets/common/unsupported.hpp), which its launcher answers as UNSUPPORTED
// (SPEC §10), while the same program marked version 1 (where it is one) still
// emits; and the shared walker's version 2 hooks refuse by default, so a target
// that stops refusing whole programs refuses each construct it has not written.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "oracle/check.hpp"
#include "oracle/text.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/common/walker.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "tests/oracle/checked_program.hpp"

namespace concord {
namespace {

struct Target {
  const char* name;
  std::function<std::string(const Program&)> emit;
};

const std::vector<Target>& targets() {
  // Every built-in target implements version 2 now (c_v2_test, erlang_v2_test,
  // js_v2_test, elixir_v2_test; ElixirEmitsAllOfVersion2). A target added later
  // that does not yet goes here; refuse_version_2 is what it calls.
  static const std::vector<Target> v{{"newtarget", [](const Program& p) {
                                        refuse_version_2(p, "newtarget");
                                        return std::string("v1");
                                      }}};
  return v;
}

const char* kPlain = "kind W() { on go() { stop; } }\nprocess w = W();\ngiven go() to @w;\n";

TEST(Unsupported, EveryTargetRefusesAVersion2ProgramAndEmitsVersion1) {
  Program v1 = checked(kPlain);
  Program v2 = checked(std::string("concord 2;\n") + kPlain);  // nothing of version 2 but the mark
  for (const Target& t : targets()) {
    SCOPED_TRACE(t.name);
    EXPECT_FALSE(t.emit(v1).empty());
    try {
      t.emit(v2);
      ADD_FAILURE() << "no Unsupported for a version 2 program";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find(t.name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("version 2"), std::string::npos) << e.what();
    }
  }
}

// An emitter that writes version 1 only, as each target's does today.
class V1Only : public Walker {
 public:
  std::string out;

 protected:
  void on_assign(const Stmt& s) override { out += expr(s.exprs[0]) + "=;"; }
  void on_if(const Stmt& s) override { body(s.body), body(s.orelse); }
  void on_repeat(const Stmt& s) override { body(s.body); }
  void on_send(const Stmt&) override { out += "send;"; }
  void on_spawn(const Stmt&) override { out += "spawn;"; }
  void on_stop(const Stmt&) override { out += "stop;"; }
  void on_fail(const Stmt&) override { out += "fail;"; }
  std::string on_int(const Expr&) override { return "i"; }
  std::string on_addr(const Expr&) override { return "a"; }
  std::string on_self(const Expr&) override { return "s"; }
  std::string on_var(const Expr&) override { return "v"; }
  std::string on_unary(const Expr&, const std::string& a) override { return a; }
  std::string on_binary(const Expr&, const std::string& l, const std::string&) override { return l; }
};

TEST(Unsupported, TheWalkersVersion2HooksRefuseByDefault) {
  Program p = checked(R"(concord 2;
kind W() {
    state r: reason = normal;
    init { trap_exit(1); }
    on a() { link(self); }
    on b() { unlink(self); }
    on c() { monitor(self); }
    on d() { demonitor(self); }
    on e() { exit(self, BOOM); }
    on f() { r = call a() to self; }
    on g() { reply 1; }
    on h() { terminate_child(s, @w); }
    on i() { r = killed; }
    on j() { send a() to self; }
}
kind I() { init { ignore; } }
supervisor s one_for_one intensity 1 { permanent process w = W(); }
)");
  const Kind& w = p.kinds[0];
  for (const Handler& h : w.handlers) {
    V1Only v;
    if (h.tag == "j") {
      EXPECT_NO_THROW(v.body(h.body));
      EXPECT_EQ(v.out, "send;");
      continue;
    }
    EXPECT_THROW(v.body(h.body), Unsupported) << "handler " << h.tag;
  }
  V1Only v;
  EXPECT_THROW(v.body(w.init), Unsupported) << "trap_exit";
  EXPECT_THROW(v.body(p.kinds[1].init), Unsupported) << "ignore";
}

// The erlang target implements version 2: it emits every construct (SPEC §14-§23).
TEST(Unsupported, ErlangEmitsEveryVersion2Construct) {
  EXPECT_FALSE(emit_erlang(checked(std::string("concord 2;\n") + kPlain)).empty());
  EXPECT_FALSE(emit_erlang(checked(R"(concord 2;
kind W() { state r: reason = BOOM; on go(x: reason) { if (x == r) { stop shutdown; } stop x; } }
kind I() { init { ignore; } }
kind F() { init { fail BAD; } }
supervisor s one_for_one intensity 1 auto_shutdown any_significant {
    transient significant process w = W();
    permanent process i = I();
}
process f = F();
)"))
                   .empty());
  for (const char* stmt : {"terminate_child(s, @w);", "r = restart_child(s, @w);", "delete_child(s, @w);"}) {
    std::string src = std::string("concord 2;\nkind W() { state r: int = 0; on a() { ") + stmt +
                      " } }\nsupervisor s one_for_one intensity 1 { permanent process w = W(); }\n";
    EXPECT_FALSE(emit_erlang(checked(src)).empty()) << stmt;
  }
  EXPECT_FALSE(
      emit_erlang(checked("concord 2;\nkind W() { init { trap_exit(1); link(@v); monitor(@v); } "
                          "on a() { exit(@v, kill); unlink(@v); demonitor(@v); call a() to @v; reply 1; } }\n"
                          "process w = W();\nsupervisor s one_for_one intensity 1 { permanent process v = W(); }\n"))
          .empty());
}

// The elixir target implements all of version 2: it refuses no version 2 program,
// and a DynamicSupervisor (a childless one_for_one supervisor without
// auto_shutdown) gets the conductor's hook over Elixir's own state; with
// auto_shutdown it is a Supervisor, DynamicSupervisor having none
// (spec/experiments/elixir_supervision.exs, E6).
TEST(Unsupported, ElixirEmitsAllOfVersion2) {
  EXPECT_FALSE(emit_elixir(checked(std::string("concord 2;\n") + kPlain)).empty());
  EXPECT_FALSE(
      emit_elixir(checked("concord 2;\nkind W() { state r: int = 0; init { trap_exit(1); link(@v); monitor(@v); } "
                          "on a() { exit(@v, kill); unlink(@v); demonitor(@v); call a() to @v; reply 1; "
                          "r = restart_child(s, @v); } }\nkind I() { init { ignore; } }\n"
                          "process w = W();\nsupervisor s one_for_all intensity 1 auto_shutdown any_significant {\n"
                          "  transient significant process v = W();\n  permanent process i = I();\n}\n"))
          .empty());
  std::string dynamic =
      emit_elixir(checked("concord 2;\nkind W() { state r: int = 0; on a() { spawn W() under d temporary; "
                          "r = restart_child(d, self); } }\n"
                          "supervisor d one_for_one intensity 1 { }\nprocess w = W();\n"));
  EXPECT_NE(dynamic.find("use DynamicSupervisor"), std::string::npos) << dynamic;
  EXPECT_NE(dynamic.find("DynamicSupervisor.start_link(__MODULE__, c, debug: [install: hook])"), std::string::npos)
      << dynamic;
  EXPECT_NE(dynamic.find("&:concord_dynsup.hook/3"), std::string::npos) << dynamic;
  EXPECT_NE(dynamic.find(":concord_worker.api(:restart_child, 0, elem(s, 0), &Concord.Prog.S0.restart_child/2)"),
            std::string::npos)
      << dynamic;
  std::string shutting = emit_elixir(
      checked("concord 2;\nkind W() { on a() { spawn W() under d transient significant; } }\n"
              "supervisor d one_for_one intensity 1 auto_shutdown any_significant { }\nprocess w = W();\n"));
  EXPECT_EQ(shutting.find("DynamicSupervisor"), std::string::npos) << shutting;
  EXPECT_NE(shutting.find("auto_shutdown: :any_significant"), std::string::npos) << shutting;
  // Version 1 keeps its DynamicSupervisor, without the hook.
  std::string v1 =
      emit_elixir(checked("kind W() { on a() { spawn W() under d temporary; } }\n"
                          "supervisor d one_for_one intensity 1 { }\nprocess w = W();\n"));
  EXPECT_NE(v1.find("use DynamicSupervisor"), std::string::npos);
  EXPECT_EQ(v1.find("concord_dynsup"), std::string::npos);
}

}  // namespace
}  // namespace concord
