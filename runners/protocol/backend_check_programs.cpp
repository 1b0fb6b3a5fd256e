// runners/protocol/backend_check_programs.cpp: the programs of `concord backend-check`,
// written in the text syntax (SPEC §12, §23.1) and checked as every program concord
// sends is.
#include "backend_check_programs.hpp"

#include <string>

#include "oracle/check.hpp"
#include "oracle/text.hpp"

namespace concord::check_programs {
namespace {

Program checked(int version, const std::string& text) {
  Program p = parse_program((version == 2 ? "concord 2;\n" : "") + text);
  check(p);
  return p;
}

}  // namespace

Program workers(int version) {
  return checked(version, R"(
kind Counter(limit: int) {
    state n: int = 0;
    on tick(from: addr) {
        n = n + 1;
        if n < limit { send tick(self) to from; } else { stop; }
    }
    on boom() { repeat 2 { n = n * 3 - 1; } fail BOOM; }
}
kind Maker() {
    state last: addr = @a;
    on make() { last = spawn Counter(2); send tick(self) to last; }
    on tick(from: addr) { send boom() to from; }
}
process a = Counter(3);
process b = Counter(5);
process m = Maker();
given tick(@b) to @a;
given tick(@a) to @b;
given make() to @m;
given make() to @m;
given nothing() to @a;
)");
}

Program trivial(int version) { return checked(version, "kind K() {}\nprocess a = K();\n"); }

Program every_feature() {
  return checked(2, R"(
kind Server() { on ask(x: int) { reply x + 1; } }
kind Quitter() { on quit() { stop; } }
kind Ignored() { init { ignore; } }
kind Other() { on hi() {} }
kind Worker(trap: int) {
    state got: int = 0;
    state w: addr = @srv;
    init { trap_exit(trap); }
    on go() {
        link(@other);
        monitor(@srv);
        got = call ask(41) to @srv;
        w = spawn Quitter() under sup temporary;
        got = restart_child(sup, @i);
        exit(@other, BYE);
        unlink(@other);
        demonitor(@srv);
        send quit() to @q;
    }
    on exit(from: addr, why: reason) { got = got + 1; }
    on down(who: addr, why: reason) { got = got + 2; }
}
supervisor sup one_for_one intensity 3 auto_shutdown any_significant {
    permanent process srv = Server();
    transient process i = Ignored();
    transient significant process q = Quitter();
}
process wk = Worker(1);
process other = Other();
given go() to @wk;
)");
}

Program huge(int version, int processes, int given) {
  std::string text = "kind P() {\n    state n: int = 0;\n    on hi(x: int) { n = n + x; }\n}\n";
  for (int i = 0; i < processes; i++) text += "process p" + std::to_string(i) + " = P();\n";
  for (int i = 0; i < given; i++)
    text += "given hi(" + std::to_string(i) + ") to @p" + std::to_string(i % processes) + ";\n";
  return checked(version, text);
}

ojson not_a_program(int version) {
  ojson p;
  p["concord"] = version;
  p["kinds"] = ojson::parse(R"([{"name":"K","params":[],"state":[],"init":[]}])");
  p["system"] = ojson::parse(R"([{"process":{"name":"a","kind":"K","args":[]}}])");
  p["given"] = ojson::array();
  return p;
}

}  // namespace concord::check_programs
