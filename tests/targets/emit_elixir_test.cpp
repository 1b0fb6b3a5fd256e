// tests/targets/emit_elixir_test.cpp: the Elixir emitter (targets/elixir/emitter).
// Every corpus program's modules compile under Elixir 1.14 without a warning;
// handlers and supervisors are printed as targets/elixir/README.md's mapping table
// says (the expected lines derived by hand from it); Elixir itself accepts every
// child spec and supervisor flag; program names reach the source only inside
// escaped string literals; and Concord.Ops computes SPEC §5 exactly on int64,
// checked on a real node. The tests need `elixir`: without it they fail, never skip.
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
#include "oracle/error.hpp"
#include "oracle/text.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"
#include "tests/oracle/checked_program.hpp"
#include "tests/targets/v2_programs.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

constexpr int64_t MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t MAX = std::numeric_limits<int64_t>::max();

struct Ran {
  std::string out, err;
};

// Runs `script` (Elixir) with `elixir`, the shared runtime and the elixir runtime
// on its code path, in `dir`; the script must end normally. Returns what it printed.
Ran run_elixir(const TempDir& dir, const std::string& script) {
  std::string file = dir.path() + "/t.exs";
  std::ofstream(file) << script;
  CommandResult r;
  try {
    r = run_command(
        Command{{"elixir", "-pa", build_paths::erlang_ebin, "-pa", build_paths::elixir_ebin, file}, {}, dir.path(), {}},
        "", 300);
  } catch (const SubprocessError& e) {
    throw std::runtime_error(std::string("elixir cannot be run (Elixir 1.14 is needed: the Debian package elixir, "
                                         "which scripts/setup.sh installs): ") +
                             e.what());
  }
  EXPECT_TRUE(!r.status.signaled && r.status.code == 0 && !r.timed_out) << "elixir: " << r.status.describe() << "\n"
                                                                        << r.out << r.err;
  return Ran{r.out, r.err};
}

// Writes each source to DIR/pN.ex and returns an Elixir expression that compiles
// them one after the other in memory (as the node does) and purges their modules.
std::string compile_each(const TempDir& dir, const std::vector<std::string>& sources) {
  std::string files;
  for (size_t i = 0; i < sources.size(); i++) {
    std::string f = dir.path() + "/p" + std::to_string(i) + ".ex";
    std::ofstream(f) << sources[i];
    files += (files.empty() ? "" : ", ") + std::string("\"") + f + "\"";
  }
  return "for f <- [" + files +
         "] do\n"
         "  mods = Code.compile_string(File.read!(f), f)\n"
         "  for {m, _} <- mods, do: (:code.purge(m); :code.delete(m))\n"
         "end\n";
}

// The text of a definition: from the line that starts with `head` (after the
// indentation) to the first line at the same indentation or less, which is
// included when it closes the definition (end, }, ], )); the one line when the
// definition is a one-liner. Lines keep their indentation.
std::string definition(const std::string& source, const std::string& head) {
  std::istringstream in(source);
  std::vector<std::string> ls;
  for (std::string l; std::getline(in, l);) ls.push_back(l);
  for (size_t i = 0; i < ls.size(); i++) {
    size_t indent = ls[i].find_first_not_of(' ');
    if (indent == std::string::npos || ls[i].compare(indent, head.size(), head) != 0) continue;
    std::string out = ls[i] + "\n";
    for (size_t j = i + 1; j < ls.size(); j++) {
      size_t ind = ls[j].find_first_not_of(' ');
      if (ind != std::string::npos && ind <= indent) {
        bool closes = ls[j].compare(ind, 3, "end") == 0 || std::string("}])").find(ls[j][ind]) != std::string::npos;
        if (closes && ind == indent) out += ls[j] + "\n";
        break;
      }
      out += ls[j] + "\n";
    }
    return out;
  }
  return "(no " + head + ")";
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

// What a function throws (ExUnit's catch_throw/1, without ExUnit).
const char* const kThrown = "thrown = fn f -> try do f.() catch :throw, t -> t end end\n";

// A stand-in conductor for a supervisor's init/1: it acknowledges every sync.
const char* const kFakeConductor =
    "c = spawn(fn -> loop = fn loop -> receive do {:sync, pid, ref, _} -> send(pid, {ref, :ok}); loop.(loop) end "
    "end; loop.(loop) end)\n";

}  // namespace

TEST(EmitElixir, EveryCorpusProgramCompilesWithoutAWarning) {
  std::vector<std::string> programs = corpus_programs();
  ASSERT_GE(programs.size(), 30u);
  std::vector<std::string> sources;
  for (const std::string& f : programs) sources.push_back(emit_elixir(load_program(f)));
  TempDir dir("concord-emit-elixir");
  Ran r = run_elixir(dir, compile_each(dir, sources) + "IO.puts(\"compiled\")\n");
  EXPECT_EQ(r.out, "compiled\n");
  EXPECT_EQ(r.err, "") << "the compiler warned";
}

// Every version 2 program of the oracle's tests that the target emits (all but
// those with a DynamicSupervisor) compiles without a warning too.
TEST(EmitElixir, EveryVersion2ProgramOfTheOracleTestsCompilesWithoutAWarning) {
  std::vector<std::string> sources;
  for (const char* file : {"links_test.cpp", "calls_test.cpp", "starts_test.cpp"})
    for (const std::string& text : version_2_programs(file)) {
      try {
        Program p = parse_program(text);
        check(p);
        sources.push_back(emit_elixir(p));
      } catch (const InputError&) {   // a reader or check test's invalid program
      } catch (const Unsupported&) {  // a DynamicSupervisor
      }
    }
  ASSERT_GE(sources.size(), 64u);
  TempDir dir("concord-emit-elixir-v2");
  Ran r = run_elixir(dir, compile_each(dir, sources) + "IO.puts(\"compiled\")\n");
  EXPECT_EQ(r.out, "compiled\n");
  EXPECT_EQ(r.err, "") << "the compiler warned";
}

TEST(EmitElixir, NeedsACheckedProgram) {
  Program p = parse_program("kind K() { }\n");
  EXPECT_THROW(emit_elixir(p), std::logic_error);
}

// The mapping table, by hand: the state tuple is {self, p, x, peer}, so x is
// elem 2 and peer elem 3; every statement that changes the state rebinds s; if and
// repeat end each branch with the state it made.
TEST(EmitElixir, HandlersFollowTheMappingTable) {
  std::string m = emit_elixir(checked(R"(
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
  EXPECT_EQ(definition(m, "defp h0("), lines({
                                           "  defp h0(a1, a2, s) do",
                                           "    s = put_elem(s, 2, add(elem(s, 2), a1))",
                                           "    s = if gt(elem(s, 2), 10) != 0 do",
                                           "      :concord_worker.send(a2, \"big\", [elem(s, 2)])",
                                           "      s",
                                           "    else",
                                           "      s = put_elem(s, 2, 0)",
                                           "      s",
                                           "    end",
                                           "    s = rep(2, s, fn s ->",
                                           "      s = put_elem(s, 2, mul(elem(s, 2), 2))",
                                           "      s",
                                           "    end)",
                                           "    :concord_worker.send(elem(s, 3), \"done\", [])",
                                           "    s",
                                           "  end",
                                       }));
  // An unread parameter is _a<i>; the state after a throw is dead but keeps the shape.
  EXPECT_EQ(definition(m, "defp h1("),
            lines({"  defp h1(_a1, s) do", "    throw({:concord_exit, :normal})", "    s", "  end"}));
  EXPECT_EQ(definition(m, "defp h2("),
            lines({
                "  defp h2(s) do",
                "    s = put_elem(s, 3, :concord_worker.spawn(Concord.Prog, 0, [-9223372036854775808], :none, "
                ":permanent))",
                "    throw({:concord_exit, {:fail, \"QUIT\"}})",
                "    s",
                "  end",
            }));
  EXPECT_EQ(definition(m, "def new_state("), lines({
                                                 "  def new_state(0, name, args) do",
                                                 "    s = List.to_tuple([name | args])",
                                                 "    List.to_tuple([name | args] ++ [elem(s, 1), elem(s, 0)])",
                                                 "  end",
                                             }));
  EXPECT_NE(m.find("\n  def dispatch(0, \"go\", [a1, a2], s) when is_integer(a1) and is_binary(a2), do: h0(a1, a2, "
                   "s)\n  def dispatch(0, \"idle\", [a1], s) when is_integer(a1), do: h1(a1, s)\n"
                   "  def dispatch(0, \"quit\", [], s), do: h2(s)\n"
                   "  def dispatch(_k, _tag, _args, _s), do: :no_handler\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\n  def fields(s), do: [{\"x\", elem(s, 2)}, {\"peer\", elem(s, 3)}]\n"), std::string::npos);
  EXPECT_NE(m.find("\n  def init_body(0, s), do: s\n"), std::string::npos);
  EXPECT_NE(m.find("\ndefmodule Concord.Prog.K0 do\n  @moduledoc false\n  @compile [:no_ssa_opt, :no_bool_opt, "
                   ":no_share_opt, :no_recv_opt, :no_bsm_opt, :no_copt]\n  use GenServer\n  import Concord.Ops, "
                   "warn: false\n"),
            std::string::npos)
      << m;
  TempDir dir("concord-emit-elixir");
  Ran r = run_elixir(dir, compile_each(dir, {m}));
  EXPECT_EQ(r.err, "");
}

// Supervisors in index order (depth-first pre-order): a Supervisor with real child
// specs, or a DynamicSupervisor for a childless one_for_one; c passed down the tree.
TEST(EmitElixir, SupervisorsAreElixirSupervisorsWithRealChildSpecs) {
  std::string m = emit_elixir(checked(R"(
kind W(n: int, peer: addr) {
    on go() { spawn W(1, @a) under inner temporary; spawn W(2, @a) under pool transient; }
}
supervisor top rest_for_one intensity 2 {
    permanent process a = W(-9223372036854775808, @b);
    transient supervisor inner one_for_one intensity 0 {
        temporary process b = W(7, @w-2);
    }
    temporary supervisor empty one_for_all intensity 5 { }
    permanent supervisor pool one_for_one intensity 4 { }
}
process c = W(0, @a);
given go() to @c;
given go(1, @w-3) to @a;
)"));
  EXPECT_EQ(definition(m, "def init(c) do"),  // the first: top's
            lines({
                "  def init(c) do",
                "    :concord_worker.supervisor_started(c, 0)",
                "    children = [",
                "      Supervisor.child_spec({Concord.Prog.K0, {c, 0, \"a\", 0, [-9223372036854775808, \"b\"]}}, id: "
                "\"a\", restart: :permanent),",
                "      Supervisor.child_spec({Concord.Prog.S1, c}, id: \"inner\", restart: :transient),",
                "      Supervisor.child_spec({Concord.Prog.S2, c}, id: \"empty\", restart: :temporary),",
                "      Supervisor.child_spec({Concord.Prog.S3, c}, id: \"pool\", restart: :permanent)",
                "    ]",
                "    Supervisor.init(children, strategy: :rest_for_one, max_restarts: 2, max_seconds: 1_000_000_000)",
                "  end",
            }));
  EXPECT_NE(
      m.find("defmodule Concord.Prog.S2 do\n  @moduledoc false\n  @compile [:no_ssa_opt, :no_bool_opt, "
             ":no_share_opt, :no_recv_opt, :no_bsm_opt, :no_copt]\n  use Supervisor\n\n"
             "  def start_link(c), do: Supervisor.start_link(__MODULE__, c)\n\n  @impl true\n"
             "  def init(c) do\n    :concord_worker.supervisor_started(c, 2)\n    children = []\n"
             "    Supervisor.init(children, strategy: :one_for_all, max_restarts: 5, max_seconds: 1_000_000_000)\n"
             "  end\nend\n"),
      std::string::npos)
      << m;
  EXPECT_NE(m.find("defmodule Concord.Prog.S3 do\n  @moduledoc false\n  @compile [:no_ssa_opt, :no_bool_opt, "
                   ":no_share_opt, :no_recv_opt, :no_bsm_opt, :no_copt]\n  use DynamicSupervisor\n\n"
                   "  def start_link(c), do: DynamicSupervisor.start_link(__MODULE__, c)\n\n  @impl true\n"
                   "  def init(c) do\n    :concord_worker.supervisor_started(c, 3)\n"
                   "    DynamicSupervisor.init(strategy: :one_for_one, max_restarts: 4, max_seconds: 1_000_000_000)\n"
                   "  end\nend\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("  def start_child(2, sup, start, restart),\n    do: Supervisor.start_child(sup, worker_spec(start, "
                   "restart))\n  def start_child(3, sup, start, restart),\n    do: DynamicSupervisor.start_child(sup, "
                   "worker_spec(start, restart))\n"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("  def children(3, which_children),\n    do: {:pids, Enum.map(which_children, fn {:undefined, pid, "
                   "_, _} -> pid end)}\n"),
            std::string::npos)
      << m;
  EXPECT_EQ(definition(m, "def supervisors"),
            lines({"  def supervisors, do: {", "    {\"top\", :none},", "    {\"inner\", 0},", "    {\"empty\", 0},",
                   "    {\"pool\", 0}", "  }"}));
  EXPECT_EQ(definition(m, "def roots"),
            lines({"  def roots, do: [", "    {:supervisor, 0},", "    {:worker, \"c\", 0, [0, \"a\"]}", "  ]"}));
  EXPECT_EQ(definition(m, "def given"),
            lines({"  def given, do: [", "    {\"c\", \"go\", []},", "    {\"a\", \"go\", [1, \"w-3\"]}", "  ]"}));
  EXPECT_NE(m.find("    :concord_worker.spawn(Concord.Prog, 0, [1, \"a\"], 1, :temporary)\n"), std::string::npos);

  // Elixir and OTP accept every flag and child spec; a worker spec (of a spawn) too.
  TempDir dir("concord-emit-elixir");
  std::ofstream(dir.path() + "/prog.ex") << m;
  Ran r = run_elixir(
      dir, std::string("Code.compile_file(\"") + dir.path() + "/prog.ex\")\n" + kFakeConductor +
               "for i <- [0, 1, 2] do\n"
               "  {:ok, {flags, children}} = apply(Module.concat(Concord.Prog, \"S#{i}\"), :init, [c])\n"
               "  IO.puts(\"#{flags.strategy} #{flags.intensity} #{flags.period} #{length(children)} "
               "#{inspect(:supervisor.check_childspecs(children))}\")\n"
               "end\n"
               "{:ok, flags} = Concord.Prog.S3.init(c)\n"
               "IO.puts(\"#{flags.strategy} #{flags.intensity} #{flags.period} #{inspect(flags.max_children)}\")\n"
               "spec = Concord.Prog.worker_spec({:c, 0, \"w-1\", 3, [1, \"a\"]}, :transient)\n"
               "IO.puts(inspect(:supervisor.check_childspecs([spec])) <> \" \" <> inspect(spec))\n");
  EXPECT_EQ(r.out, lines({"rest_for_one 2 1000000000 4 :ok", "one_for_one 0 1000000000 1 :ok",
                          "one_for_all 5 1000000000 0 :ok", "one_for_one 4 1000000000 :infinity",
                          ":ok %{id: \"w-1\", restart: :transient, start: {Concord.Prog.K0, :start_link, [{:c, 0, "
                          "\"w-1\", 3, [1, \"a\"]}]}}"}));
  EXPECT_EQ(r.err, "");
}

TEST(EmitElixir, AChildlessOneForOneIsADynamicSupervisorAndNothingElseIs) {
  auto sup = [](Strategy s, bool child) {
    SupervisorDecl d;
    d.strategy = s;
    if (child) d.children.push_back(Child{Restart::Permanent, ProcessDecl{}});
    return d;
  };
  EXPECT_TRUE(is_dynamic_supervisor(sup(Strategy::OneForOne, false)));
  EXPECT_FALSE(is_dynamic_supervisor(sup(Strategy::OneForOne, true)));
  EXPECT_FALSE(is_dynamic_supervisor(sup(Strategy::OneForAll, false)));
  EXPECT_FALSE(is_dynamic_supervisor(sup(Strategy::RestForOne, false)));
}

// Names of the maximal length (SPEC §2, 32) appear only as whole string literals;
// parameters, which live in the state tuple or in a<i>, not at all.
TEST(EmitElixir, NamesAtTheLimitsOnlyInsideStrings) {
  auto name32 = [](const std::string& prefix, char fill) { return prefix + std::string(32 - prefix.size(), fill); };
  std::string kind = name32("Wicked_Kind_", 'z'), field = name32("evil_field_", 'f'),
              param = name32("evil_param_", 'p'), arg = name32("evil_arg_", 'a'), tag = name32("evil_tag_", 't'),
              code = name32("EVIL_CODE_", 'C'), proc = name32("evil_proc_", 'r'), sup = name32("evil_sup_", 's');
  std::string m = emit_elixir(
      checked("kind " + kind + "(" + param + ": addr) {\n state " + field + ": addr = " + param + ";\n on " + tag +
              "(" + arg + ": int) {\n  send " + tag + "(" + arg + ") to " + field + ";\n  fail " + code +
              ";\n }\n}\nsupervisor " + sup + " one_for_one intensity 1 {\n permanent process " + proc + " = " + kind +
              "(@" + proc + ");\n}\ngiven " + tag + "(-9223372036854775808) to @" + proc + ";\n"));
  for (const std::string& name : {kind, field, tag, code, proc, sup}) {
    size_t at = m.find(name);
    ASSERT_NE(at, std::string::npos) << name;
    for (; at != std::string::npos; at = m.find(name, at + 1)) {
      EXPECT_EQ(m.substr(at - 1, 1), "\"") << name << " outside a string literal";
      EXPECT_EQ(m.substr(at + name.size(), 1), "\"") << name << " outside a string literal";
    }
  }
  EXPECT_EQ(m.find(param), std::string::npos);
  EXPECT_EQ(m.find(arg), std::string::npos);
  EXPECT_NE(m.find("\"wicked_kind_zzzzzzzzzzzzzzzzzzzz-\""), std::string::npos);  // spawn prefix (SPEC §2)
  TempDir dir("concord-emit-elixir");
  EXPECT_EQ(run_elixir(dir, compile_each(dir, {m})).err, "");
}

// Names that are Elixir words, or the emitted code's own variables and functions,
// are data.
TEST(EmitElixir, ElixirWordsAsNamesAreData) {
  std::string m = emit_elixir(checked(R"(
kind GenServer(end: int, s: addr) {
    state do: int = end;
    state fn: addr = s;
    on nil(when: addr, a1: int) { do = do + a1; send nil(when, a1) to fn; fail S; }
    on def() { stop; }
}
kind Kernel() { on elem() { } }
supervisor true one_for_one intensity 1 { permanent process false = GenServer(1, @module); }
process module = Kernel();
given nil(@module, 41) to @false;
)"));
  TempDir dir("concord-emit-elixir");
  std::ofstream(dir.path() + "/prog.ex") << m;
  Ran r = run_elixir(dir, kThrown + ("Code.compile_file(\"" + dir.path() + "/prog.ex\")\n") +
                              "k = Concord.Prog.kind(0)\n"
                              "s = k.init_body(0, k.new_state(0, \"false\", [41, \"module\"]))\n"
                              "IO.puts(\"#{Concord.Prog.kind_name(0)} #{Concord.Prog.spawn_prefix(1)} "
                              "#{inspect(Concord.Prog.fields(0, s))} #{inspect(Concord.Prog.supervisors())}\")\n"
                              "IO.puts(inspect(thrown.(fn -> k.dispatch(0, \"def\", [], s) end)))\n");
  EXPECT_EQ(r.out, lines({"GenServer kernel- [{\"do\", 41}, {\"fn\", \"module\"}] {{\"true\", :none}}",
                          "{:concord_exit, :normal}"}));
  EXPECT_EQ(r.err, "");
}

// Bytes a checked program cannot hold still only ever reach a string literal, as
// \xHH: the names are changed after check(), which only the emitter sees; "#{" cannot
// interpolate.
TEST(EmitElixir, StringLiteralsEscapeEverythingElse) {
  EXPECT_EQ(elixir_string("a#{b}\"\\\n\x01\x7f\xff"), "\"a\\x23{b}\\x22\\x5C\\x0A\\x01\\x7F\\xFF\"");
  Program p = checked("kind K() {\n state f: int = 0;\n on t() { fail C; }\n}\nprocess k = K();\n");
  p.kinds[0].name = std::string("Q#{System.halt(3)}\"\\\n\x01\xff", 23);
  p.kinds[0].state[0].name = "\"";
  p.kinds[0].handlers[0].tag = "#{";
  std::string m = emit_elixir(p);
  EXPECT_NE(m.find("def kind_name(0), do: \"Q\\x23{System.halt(3)}\\x22\\x5C\\x0A\\x01\\xFF\""), std::string::npos)
      << m;
  TempDir dir("concord-emit-elixir");
  std::ofstream(dir.path() + "/prog.ex") << m;
  Ran r = run_elixir(dir, kThrown + ("Code.compile_file(\"" + dir.path() + "/prog.ex\")\n") +
                              "IO.puts(inspect(:binary.bin_to_list(Concord.Prog.kind_name(0))))\n"
                              "IO.puts(inspect(Concord.Prog.fields(0, Concord.Prog.K0.new_state(0, \"k\", []))))\n"
                              "IO.puts(inspect(thrown.(fn -> Concord.Prog.K0.dispatch(0, \"\\#{\", [], {}) end)))\n");
  EXPECT_EQ(r.out, lines({"[81, 35, 123, 83, 121, 115, 116, 101, 109, 46, 104, 97, 108, 116, 40, 51, 41, 125, 34, 92, "
                          "10, 1, 255]",
                          "[{\"\\\"\", 0}]", "{:concord_exit, {:fail, \"C\"}}"}));
}

// Concord.Ops against the oracle's arithmetic (oracle/arith.hpp) on every pair of
// edge values, and the values SPEC §5 spells out.
TEST(EmitElixir, OpsAreExactOnInt64) {
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
  for (const auto& [name, f] : binary) fs_binary += (fs_binary.empty() ? "" : ", ") + (":" + name);
  for (const auto& [name, f] : unary) fs_unary += (fs_unary.empty() ? "" : ", ") + (":" + name);
  TempDir dir("concord-emit-elixir");
  std::string got = run_elixir(dir, "vs = [" + vs + "]\nfor f <- [" + fs_binary +
                                        "], a <- vs, b <- vs do\n"
                                        "  IO.puts(try do apply(Concord.Ops, f, [a, b]) catch "
                                        ":throw, {:concord_exit, {:fail, \"DIV_ZERO\"}} -> \"div_zero\" end)\n"
                                        "end\n"
                                        "for f <- [" +
                                        fs_unary + "], a <- vs, do: IO.puts(apply(Concord.Ops, f, [a]))\n")
                        .out;
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
  std::string spec =
      run_elixir(dir, std::string(kThrown) +
                          "import Concord.Ops\n"
                          "IO.puts(Enum.join([mul(9223372036854775807, 2), dv(-9223372036854775808, -1), "
                          "rm(-9223372036854775808, -1), rm(-7, 2), dv(-7, 2), shl(1, -1), shl(1, 64), "
                          "shr(-8, 1), neg(-9223372036854775808), add(9223372036854775807, 1), "
                          "sub(-9223372036854775808, 1), eq(\"a\", \"a\"), ne(\"a\", \"b\"), eq(1, \"a\"), "
                          "rep(3, 1, fn s -> s * 2 end), rep(0, 1, fn s -> s * 2 end)], \" \"))\n"
                          "IO.puts(inspect(thrown.(fn -> dv(1, 0) end)) <> \" \" <> "
                          "inspect(thrown.(fn -> rm(1, 0) end)))\n")
          .out;
  EXPECT_EQ(spec,
            "-2 -9223372036854775808 0 -1 -3 -9223372036854775808 1 -4 -9223372036854775808 "
            "-9223372036854775808 9223372036854775807 1 1 0 8 1\n"
            "{:concord_exit, {:fail, \"DIV_ZERO\"}} {:concord_exit, {:fail, \"DIV_ZERO\"}}\n");
}
