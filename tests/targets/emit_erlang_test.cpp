// tests/targets/emit_erlang_test.cpp: the Erlang emitter (targets/erlang/emitter).
// Every corpus program's module compiles with erlc; handlers and supervisors are
// printed as the contract of targets/erlang/README.md says (the expected lines are
// derived by hand from its tables); program names reach the module only inside
// binary literals; and concord_ops (the operators) computes SPEC §5 exactly on int64, checked on a
// real node. The tests need erl and erlc: without them they fail, never skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "oracle/arith.hpp"
#include "oracle/check.hpp"
#include "oracle/text.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "tests/oracle/checked_program.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

constexpr int64_t MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t MAX = std::numeric_limits<int64_t>::max();

// Runs erl or erlc to completion in `dir` (where a crash dump would land). A tool
// that cannot start fails the test.
CommandResult run_tool(const std::vector<std::string>& argv, const TempDir& dir) {
  try {
    return run_command(Command{argv, {}, dir.path(), {}}, "", 120);
  } catch (const SubprocessError& e) {
    throw std::runtime_error(argv[0] +
                             " cannot be run (Erlang/OTP is needed; scripts/setup.sh installs it): " + e.what());
  }
}

// Writes `source` as DIR/MODULE.erl and compiles it into DIR; returns erlc's output.
std::string compile(const TempDir& dir, const std::string& module, const std::string& source, const std::string& what) {
  std::string file = dir.path() + "/" + module + ".erl";
  std::ofstream(file) << source;
  CommandResult r = run_tool({"erlc", "-o", dir.path(), file}, dir);
  std::string out = r.out + r.err;
  EXPECT_TRUE(!r.status.signaled && r.status.code == 0) << "erlc on " << what << ": " << r.status.describe() << "\n"
                                                        << out;
  EXPECT_EQ(out.find("rror"), std::string::npos)  // "Error" or "error" anywhere in erlc's report
      << "erlc on " << what << ":\n"
      << out;
  return out;
}

// Evaluates Erlang expressions (separated by commas) on a node that has DIR and, after
// it (-pz: a stand-in in DIR wins), the built runtime (concord_ops, which emitted
// modules import) in its code path and returns what they printed. The node halts
// even when they crash.
std::string eval(const TempDir& dir, const std::string& exprs) {
  CommandResult r = run_tool(
      {"erl", "-noshell", "-pa", dir.path(), "-pz", build_paths::erlang_ebin, "-eval", exprs, "-s", "erlang", "halt"},
      dir);
  EXPECT_FALSE(r.status.signaled || r.timed_out) << r.err;
  return r.out;
}

// The text of a function: from the line that starts with `head` to the first line
// that ends with "." (inclusive).
std::string function_text(const std::string& module, const std::string& head) {
  size_t at = module.find("\n" + head);
  if (at == std::string::npos) return "(no " + head + ")";
  size_t end = module.find(".\n", at + 1);
  return module.substr(at + 1, end + 1 - at);
}

std::vector<std::string> corpus_programs() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(std::string(build_paths::source_dir) + "/corpus/hand"))
    if (e.path().extension() == ".conc") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string lines(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

}  // namespace

TEST(EmitErlang, EveryCorpusProgramCompiles) {
  std::vector<std::string> programs = corpus_programs();
  ASSERT_GE(programs.size(), 30u);
  for (const std::string& f : programs) {
    TempDir dir("concord-emit-erlang");
    compile(dir, "concord_prog", emit_erlang(load_program(f)), f);
    EXPECT_TRUE(fs::exists(dir.path() + "/concord_prog.beam")) << f;
  }
}

TEST(EmitErlang, NeedsACheckedProgram) {
  Program p = parse_program("kind K() { }\n");
  EXPECT_THROW(emit_erlang(p), std::logic_error);
}

// The statement table of the README, by hand: the state tuple is {Self, p, x, peer},
// so x is element 3 and peer element 4; every statement that changes the state
// binds the next S; `if` and `repeat` take theirs before their bodies' ones.
TEST(EmitErlang, HandlersFollowTheStatementTable) {
  std::string m = emit_erlang(checked(R"(
kind K(p: int) {
    state x: int = p;
    state peer: addr = self;
    on go(n: int, dst: addr) {
        x = x + n;
        if x > 10 { send big(x) to dst; } else { x = 0; }
        repeat 2 { x = x * 2; }
        send done() to peer;
    }
    on idle(n: int) { stop; }
    on quit() { peer = spawn K(-9223372036854775808); fail QUIT; }
}
process k = K(1);
)"));
  EXPECT_EQ(function_text(m, "k0_h0("), lines({
                                            "k0_h0(A1, A2, S0) ->",
                                            "    S1 = setelement(3, S0, add(element(3, S0), A1)),",
                                            "    S2 = case gt(element(3, S1), 10) of",
                                            "        0 ->",
                                            "            S3 = setelement(3, S1, 0),",
                                            "            S3;",
                                            "        _ ->",
                                            "            concord_worker:send(A2, <<\"big\">>, [element(3, S1)]),",
                                            "            S1",
                                            "    end,",
                                            "    S4 = rep(2, fun(S5) ->",
                                            "        S6 = setelement(3, S5, mul(element(3, S5), 2)),",
                                            "        S6",
                                            "    end, S2),",
                                            "    concord_worker:send(element(4, S4), <<\"done\">>, []),",
                                            "    S4.",
                                        }));
  // A parameter the body does not read is _A<i>; the value after a throw is dead.
  EXPECT_EQ(function_text(m, "k0_h1("), lines({"k0_h1(_A1, S0) ->", "    throw({concord_exit, normal}),", "    S0."}));
  EXPECT_EQ(
      function_text(m, "k0_h2("),
      lines({
          "k0_h2(S0) ->",
          "    S1 = setelement(4, S0, concord_worker:spawn(?MODULE, 0, [-9223372036854775808], none, permanent)),",
          "    throw({concord_exit, {fail, <<\"QUIT\">>}}),",
          "    S1.",
      }));
  EXPECT_EQ(function_text(m, "new_state("), lines({
                                                "new_state(0, Name, Args) ->",
                                                "    S0 = list_to_tuple([Name | Args]),",
                                                "    list_to_tuple([Name | Args] ++ [element(2, S0), element(1, S0)]);",
                                                "new_state(_, _, _) -> erlang:error(badarg).",
                                            }));
  EXPECT_NE(m.find("\ndispatch(0, <<\"go\">>, [A1, A2], S) when is_integer(A1), is_binary(A2) -> k0_h0(A1, A2, S);\n"
                   "dispatch(0, <<\"idle\">>, [A1], S) when is_integer(A1) -> k0_h1(A1, S);\n"
                   "dispatch(0, <<\"quit\">>, [], S) -> k0_h2(S);\n"
                   "dispatch(_, _, _, _) -> no_handler.\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\nfields(0, S) -> [{<<\"x\">>, element(3, S)}, {<<\"peer\">>, element(4, S)}];\n"),
            std::string::npos);
  EXPECT_NE(m.find("\ninit_body(0, S0) -> S0;\n"), std::string::npos);
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the statement table's program");
}

// Supervisors in index order (depth-first pre-order), their static children in
// declaration order, C passed down; the system's tables.
TEST(EmitErlang, SupervisorsHaveRealChildSpecs) {
  std::string m = emit_erlang(checked(R"(
kind W(n: int, peer: addr) {
    on go() { spawn W(1, @a) under inner temporary; }
}
supervisor top rest_for_one intensity 2 {
    permanent process a = W(-9223372036854775808, @b);
    transient supervisor inner one_for_one intensity 0 {
        temporary process b = W(7, @w-2);
    }
    temporary supervisor empty one_for_all intensity 5 { }
}
process c = W(0, @a);
given go() to @c;
given go(1, @w-3) to @a;
)"));
  const std::string w = "start => {gen_server, start_link, [?MODULE, {worker, ";
  EXPECT_EQ(function_text(m, "init("),
            lines({
                "init({supervisor, C, 0}) ->",
                "    concord_worker:supervisor_started(C, 0),",
                "    Flags = #{strategy => rest_for_one, intensity => 2, period => 1000000000},",
                "    Children = [",
                "        #{id => <<\"a\">>, " + w +
                    "{C, 0, <<\"a\">>, 0, [-9223372036854775808, <<\"b\">>]}}, []]}, restart => permanent, "
                    "shutdown => 5000, type => worker, modules => [?MODULE]},",
                "        #{id => <<\"inner\">>, start => {supervisor, start_link, [?MODULE, {supervisor, C, 1}]}, "
                "restart => transient, shutdown => infinity, type => supervisor, modules => [?MODULE]},",
                "        #{id => <<\"empty\">>, start => {supervisor, start_link, [?MODULE, {supervisor, C, 2}]}, "
                "restart => temporary, shutdown => infinity, type => supervisor, modules => [?MODULE]}",
                "    ],",
                "    {ok, {Flags, Children}};",
                "init({supervisor, C, 1}) ->",
                "    concord_worker:supervisor_started(C, 1),",
                "    Flags = #{strategy => one_for_one, intensity => 0, period => 1000000000},",
                "    Children = [",
                "        #{id => <<\"b\">>, " + w +
                    "{C, 0, <<\"b\">>, 1, [7, <<\"w-2\">>]}}, []]}, restart => temporary, shutdown => 5000, "
                    "type => worker, modules => [?MODULE]}",
                "    ],",
                "    {ok, {Flags, Children}};",
                "init({supervisor, C, 2}) ->",
                "    concord_worker:supervisor_started(C, 2),",
                "    Flags = #{strategy => one_for_all, intensity => 5, period => 1000000000},",
                "    Children = [],",
                "    {ok, {Flags, Children}};",
                "init({worker, Start}) -> concord_worker:init(?MODULE, Start).",
            }));
  EXPECT_EQ(function_text(m, "supervisors("), lines({"supervisors() -> {", "    {<<\"top\">>, none},",
                                                     "    {<<\"inner\">>, 0},", "    {<<\"empty\">>, 0}", "}."}));
  EXPECT_EQ(function_text(m, "roots("),
            lines({"roots() -> [", "    {supervisor, 0},", "    {worker, <<\"c\">>, 0, [0, <<\"a\">>]}", "]."}));
  EXPECT_EQ(function_text(m, "given("), lines({"given() -> [", "    {<<\"c\">>, <<\"go\">>, []},",
                                               "    {<<\"a\">>, <<\"go\">>, [1, <<\"w-3\">>]}", "]."}));
  EXPECT_NE(m.find("    concord_worker:spawn(?MODULE, 0, [1, <<\"a\">>], 1, temporary),\n"), std::string::npos);

  // OTP itself accepts every child spec (with a stand-in for the runtime's hook).
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the supervisors' program");
  compile(dir, "concord_worker",
          "-module(concord_worker).\n-export([supervisor_started/2]).\nsupervisor_started(_, _) -> ok.\n",
          "a stand-in concord_worker");
  EXPECT_EQ(eval(dir,
                 "[begin {ok, {F, Cs}} = concord_prog:init({supervisor, self(), I}), "
                 "io:format(\"~p ~p ~p~n\", [maps:get(strategy, F), length(Cs), supervisor:check_childspecs(Cs)]) "
                 "end || I <- [0, 1, 2]]"),
            "rest_for_one 3 ok\none_for_one 1 ok\none_for_all 0 ok\n");
}

// Names of the maximal length (SPEC §2, 32) appear only as whole binary literals;
// parameters, which live in the state tuple or in A<i>, not at all.
TEST(EmitErlang, NamesAtTheLimitsOnlyInsideBinaries) {
  auto name32 = [](const std::string& prefix, char fill) { return prefix + std::string(32 - prefix.size(), fill); };
  std::string kind = name32("Wicked_Kind_", 'z'), field = name32("evil_field_", 'f'),
              param = name32("evil_param_", 'p'), arg = name32("evil_arg_", 'a'), tag = name32("evil_tag_", 't'),
              code = name32("EVIL_CODE_", 'C'), proc = name32("evil_proc_", 'r'), sup = name32("evil_sup_", 's');
  std::string m = emit_erlang(
      checked("kind " + kind + "(" + param + ": addr) {\n state " + field + ": addr = " + param + ";\n on " + tag +
              "(" + arg + ": int) {\n  send " + tag + "(" + arg + ") to " + field + ";\n  fail " + code +
              ";\n }\n}\nsupervisor " + sup + " one_for_one intensity 1 {\n permanent process " + proc + " = " + kind +
              "(@" + proc + ");\n}\ngiven " + tag + "(-9223372036854775808) to @" + proc + ";\n"));
  for (const std::string& name : {kind, field, tag, code, proc, sup}) {
    size_t at = m.find(name);
    ASSERT_NE(at, std::string::npos) << name;
    for (; at != std::string::npos; at = m.find(name, at + 1)) {
      EXPECT_EQ(m.substr(at - 3, 3), "<<\"") << name << " outside a binary literal";
      EXPECT_EQ(m.substr(at + name.size(), 3), "\">>") << name << " outside a binary literal";
    }
  }
  EXPECT_EQ(m.find(param), std::string::npos);
  EXPECT_EQ(m.find(arg), std::string::npos);
  EXPECT_NE(m.find("<<\"wicked_kind_zzzzzzzzzzzzzzzzzzzz-\">>"), std::string::npos);  // spawn prefix (SPEC §2)
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the program with names at the limits");
}

// Names that are Erlang words or look like the module's own variables are data.
TEST(EmitErlang, ErlangWordsAsNamesAreData) {
  std::string m = emit_erlang(checked(R"(
kind S0(after: int) {
    state receive: int = after;
    on end(fun: addr) { receive = receive + 1; send end(fun) to fun; fail S1; }
}
supervisor case one_for_one intensity 1 { permanent process module = S0(1); }
given end(@module) to @module;
)"));
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the program of Erlang words");
  EXPECT_EQ(eval(dir,
                 "S = concord_prog:init_body(0, concord_prog:new_state(0, <<\"module\">>, [41])), "
                 "io:format(\"~s ~s ~p~n\", [concord_prog:kind_name(0), concord_prog:spawn_prefix(0), "
                 "concord_prog:fields(0, S)])"),
            "S0 s0- [{<<\"receive\">>,41}]\n");
}

// Bytes a checked program cannot hold still only ever reach a binary literal, in
// octal: the names are changed after check(), which only the emitter sees.
TEST(EmitErlang, BinaryLiteralsEscapeEverythingElse) {
  Program p = checked("kind K() {\n state f: int = 0;\n on t() { fail C; }\n}\nprocess k = K();\n");
  const std::string odd = std::string("Q\"\\\n\x01\x7f\xff>>\"", 10);
  p.kinds[0].name = odd;
  p.kinds[0].state[0].name = "\"";
  p.kinds[0].handlers[0].tag = "\\";
  std::string m = emit_erlang(p);
  EXPECT_NE(m.find("kind_name(0) -> <<\"Q\\042\\134\\012\\001\\177\\377>>\\042\">>;"), std::string::npos) << m;
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the program with odd bytes");
  EXPECT_EQ(eval(dir,
                 "io:format(\"~w ~w~n\", [concord_prog:kind_name(0), "
                 "concord_prog:fields(0, concord_prog:new_state(0, <<\"k\">>, []))])"),
            "<<81,34,92,10,1,127,255,62,62,34>> [{<<34>>,0}]\n");
}

// concord_ops (the runtime's operators) against the oracle's arithmetic (oracle/arith.hpp) on every pair of
// edge values, and the values SPEC §5 spells out.
TEST(EmitErlang, PreludeIsExactOnInt64) {
  TempDir dir("concord-emit-erlang");
  ASSERT_TRUE(fs::exists(fs::path(build_paths::erlang_ebin) / "concord_ops.beam")) << "the runtime is not built";

  const std::vector<int64_t> values = {MIN, MIN + 1, -65, -64, -63, -8, -7, -2,      -1, 0,
                                       1,   2,       7,   63,  64,  65, 70, MAX - 1, MAX};
  using Binary = std::function<std::optional<int64_t>(int64_t, int64_t)>;
  auto total = [](int64_t (*f)(int64_t, int64_t)) -> Binary { return [f](int64_t a, int64_t b) { return f(a, b); }; };
  auto partial = [](bool (*f)(int64_t, int64_t, int64_t&)) -> Binary {
    return [f](int64_t a, int64_t b) -> std::optional<int64_t> {
      int64_t out = 0;
      if (!f(a, b, out)) return std::nullopt;
      return out;
    };
  };
  const std::vector<std::pair<std::string, Binary>> binary = {
      {"add", total(arith::add)},
      {"sub", total(arith::sub)},
      {"mul", total(arith::mul)},
      {"dv", partial(arith::div)},
      {"rm", partial(arith::rem)},
      {"shl", total(arith::shl)},
      {"shr", total(arith::shr)},
      {"band_", [](int64_t a, int64_t b) { return a & b; }},
      {"bor_", [](int64_t a, int64_t b) { return a | b; }},
      {"bxor_", [](int64_t a, int64_t b) { return a ^ b; }},
      {"lt", [](int64_t a, int64_t b) { return int64_t{a < b}; }},
      {"le", [](int64_t a, int64_t b) { return int64_t{a <= b}; }},
      {"gt", [](int64_t a, int64_t b) { return int64_t{a > b}; }},
      {"ge", [](int64_t a, int64_t b) { return int64_t{a >= b}; }},
      {"eq", [](int64_t a, int64_t b) { return int64_t{a == b}; }},
      {"ne", [](int64_t a, int64_t b) { return int64_t{a != b}; }},
  };
  const std::vector<std::pair<std::string, int64_t (*)(int64_t)>> unary = {
      {"neg", arith::neg},
      {"not_", [](int64_t a) { return int64_t{a == 0}; }},
      {"bnot_", [](int64_t a) { return ~a; }},
  };

  std::string vs, fs_binary, fs_unary;
  for (int64_t v : values) vs += (vs.empty() ? "" : ", ") + std::to_string(v);
  for (const auto& [name, f] : binary) fs_binary += (fs_binary.empty() ? "" : ", ") + name;
  for (const auto& [name, f] : unary) fs_unary += (fs_unary.empty() ? "" : ", ") + name;
  std::string got =
      eval(dir, "Vs = [" + vs +
                    "], "
                    "[io:format(\"~p~n\", [try concord_ops:F(A, B) catch throw:{concord_exit, "
                    "{fail, <<\"DIV_ZERO\">>}} -> div_zero end]) || F <- [" +
                    fs_binary + "], A <- Vs, B <- Vs], [io:format(\"~p~n\", [concord_ops:F(A)]) || F <- [" + fs_unary +
                    "], A <- Vs]");

  std::vector<std::string> want, what;
  for (const auto& [name, f] : binary)
    for (int64_t a : values)
      for (int64_t b : values) {
        std::optional<int64_t> r = f(a, b);
        want.push_back(r ? std::to_string(*r) : "div_zero");
        what.push_back(name + "(" + std::to_string(a) + ", " + std::to_string(b) + ")");
      }
  for (const auto& [name, f] : unary)
    for (int64_t a : values) {
      want.push_back(std::to_string(f(a)));
      what.push_back(name + "(" + std::to_string(a) + ")");
    }
  std::istringstream in(got);
  std::string line;
  size_t i = 0, wrong = 0;
  for (; std::getline(in, line) && i < want.size(); i++)
    if (line != want[i] && ++wrong <= 10) ADD_FAILURE() << what[i] << " = " << line << ", expected " << want[i];
  EXPECT_EQ(i, want.size()) << "the node printed fewer results than asked:\n" << got;
  EXPECT_EQ(wrong, 0u);

  // SPEC §5's own examples, and rep/3.
  const std::vector<std::pair<std::string, std::string>> spec = {
      {"mul(9223372036854775807, 2)", "-2"},
      {"dv(-9223372036854775808, -1)", "-9223372036854775808"},
      {"rm(-9223372036854775808, -1)", "0"},
      {"rm(-7, 2)", "-1"},
      {"dv(-7, 2)", "-3"},
      {"shl(1, -1)", "-9223372036854775808"},
      {"shl(1, 64)", "1"},
      {"shr(-8, 1)", "-4"},
      {"neg(-9223372036854775808)", "-9223372036854775808"},
      {"add(9223372036854775807, 1)", "-9223372036854775808"},
      {"sub(-9223372036854775808, 1)", "9223372036854775807"},
      {"eq(<<\"a\">>, <<\"a\">>)", "1"},
      {"ne(<<\"a\">>, <<\"b\">>)", "1"},
      {"catch dv(1, 0)", "{concord_exit,{fail,<<\"DIV_ZERO\">>}}"},
      {"catch rm(1, 0)", "{concord_exit,{fail,<<\"DIV_ZERO\">>}}"},
      {"rep(3, fun(S) -> S * 2 end, 1)", "8"},
      {"rep(0, fun(S) -> S * 2 end, 1)", "1"},
  };
  std::string exprs, expected;
  for (const auto& [e, v] : spec) {
    bool caught = e.rfind("catch ", 0) == 0;
    std::string call = (caught ? "catch " : "") + std::string("concord_ops:") + e.substr(caught ? 6 : 0);
    exprs += (exprs.empty() ? "" : ", ") + std::string("io:format(\"~p~n\", [(") + call + ")])";
    expected += v + "\n";
  }
  EXPECT_EQ(eval(dir, exprs), expected);
}

// A module's own expressions on the edges of §5, run through dispatch/4 and read
// back with fields/2 on a real node (no runtime needed: nothing is sent).
TEST(EmitErlang, EdgeExpressionsInAModule) {
  std::string m = emit_erlang(checked(R"(
kind Edge() {
    state a: int = 0; state b: int = 0; state c: int = 0; state d: int = 0;
    state e: int = 0; state f: int = 0; state g: int = 0; state h: int = 0;
    state i: int = 0; state j: int = 0; state k: int = 0; state l: int = 0;
    state m: int = 0; state n: int = 0; state o: int = 0; state p: int = -9223372036854775808;
    on go() {
        a = 9223372036854775807 * 2;
        b = -9223372036854775808 / -1;
        c = -9223372036854775808 % -1;
        d = -7 % 2;
        e = 1 << -1;
        f = 1 << 64;
        g = -8 >> 1;
        h = -(-9223372036854775808);
        i = 9223372036854775807 + 1;
        j = -9223372036854775808 - 1;
        k = -7 / 2;
        l = ~p;
        m = !0 + !7;
        n = (self == @edge) + (self != @edge) * 10 + (3 <= 3) * 100;
        o = -1 >> 70;
        if 6 & 3 ^ 1 | 8 == 11 { p = 6 & 3 ^ 1 | 8; } else { p = 0; }  # ((6&3)^1)|(8==11) = 3: p = 11
        repeat 3 { p = p * 2; }
    }
    on zero(x: int) { a = 1 % x; }
}
process edge = Edge();
)"));
  TempDir dir("concord-emit-erlang");
  compile(dir, "concord_prog", m, "the program of edge expressions");
  std::string got =
      eval(dir,
           "S0 = concord_prog:init_body(0, concord_prog:new_state(0, <<\"edge\">>, [])), "
           "S1 = concord_prog:dispatch(0, <<\"go\">>, [], S0), "
           "[io:format(\"~s=~b~n\", [N, V]) || {N, V} <- concord_prog:fields(0, S1)], "
           "io:format(\"~p~n\", [(catch concord_prog:dispatch(0, <<\"zero\">>, [0], S0))]), "
           "io:format(\"~p ~p ~p~n\", [concord_prog:dispatch(0, <<\"zero\">>, [<<\"x\">>], S0), "
           "concord_prog:dispatch(0, <<\"zero\">>, [], S0), concord_prog:dispatch(0, <<\"nope\">>, [], S0)])");
  const std::string min = std::to_string(MIN), max = std::to_string(MAX);
  EXPECT_EQ(got, lines({"a=-2", "b=" + min, "c=0", "d=-1", "e=" + min, "f=1", "g=-4", "h=" + min, "i=" + min,
                        "j=" + max, "k=-3", "l=" + max, "m=1", "n=101", "o=-1", "p=88",
                        "{concord_exit,{fail,<<\"DIV_ZERO\">>}}", "no_handler no_handler no_handler"}));
}
