// runners/cli/cmd_check.cpp: `concord check`, `emit-c`, `emit-erlang`, `emit-js` and
// `emit-elixir`: a program read, checked and printed (as text, JSON, C, an Erlang
// module, JavaScript or Elixir modules).
#include <iostream>

#include "oracle/text.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/load.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "targets/js/emitter/emit_js.hpp"

namespace concord {

int cmd_check(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--json"});
  std::string file = one_file(a, "check");
  Program p = is_case_file(file) ? load_case(file).program : load_program(file);  // a case: its program
  if (a.flag("--json"))
    std::cout << program_to_json(p).dump(2) << "\n";
  else
    std::cout << print_program(p);
  return kOk;
}

int cmd_emit_c(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {});
  std::cout << emit_c(load_program(one_file(a, "emit-c")));
  return kOk;
}

// --free: the module of the erlang target's free runs (SPEC §25).
int cmd_emit_erlang(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--free"});
  Program p = load_program(one_file(a, "emit-erlang"));
  std::cout << (a.flag("--free") ? emit_erlang_free(p) : emit_erlang(p));
  return kOk;
}

int cmd_emit_js(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {});
  std::cout << emit_js(load_program(one_file(a, "emit-js")));
  return kOk;
}

// --free: the modules of the elixir target's free runs (SPEC §25).
int cmd_emit_elixir(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--free"});
  Program p = load_program(one_file(a, "emit-elixir"));
  std::cout << (a.flag("--free") ? emit_elixir_free(p) : emit_elixir(p));
  return kOk;
}

}  // namespace concord
