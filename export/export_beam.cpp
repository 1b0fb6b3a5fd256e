// export/export_beam.cpp: a case as a Common Test suite (ct) and as an ExUnit test
// (exunit). Both ship what runs the program on a plain BEAM: the emitted program
// (the erlang target's module of gen_servers and OTP supervisors, or the elixir
// target's GenServer and Supervisor modules), the runtime shared by the BEAM targets
// (the conductor, which grants the turns in the seeded order of SPEC §8 and keeps
// the journal) and concord_expect (loading from source, one run, the comparison).
#include <set>

#include "export/export.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"
#include "targets/elixir/launcher/elixir_launcher.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"

namespace concord {
namespace {

// The shared BEAM runtime without concord_node (the node's stdin loop, which a
// test does not use), under `into`.
std::vector<ExportedFile> beam_runtime(const std::string& into) {
  std::vector<ExportedFile> files;
  for (ExportedFile& f : runtime_sources(erlang_runtime_dir(), {".erl", ".hrl"}, into))
    if (f.path != into + "/concord_node.erl") files.push_back(std::move(f));
  files.push_back({into + "/concord_expect.erl", support_expect_erl()});
  return files;
}

std::string run_label(const CaseRun& r) {
  return "seed " + std::to_string(r.settings.seed) + ", " + std::to_string(r.settings.turns) + " turns, " +
         std::to_string(r.settings.max_processes) + " processes";
}

std::string run_args(const CaseRun& r) {
  return std::to_string(r.settings.seed) + ", " + std::to_string(r.settings.turns) + ", " +
         std::to_string(r.settings.max_processes);
}

std::string readme(const Case& c, const std::string& what, const std::string& run, const std::string& needs) {
  return "# " + comment_text(c.name) + ": " + what + "\n\n" + comment_lines(c.about, "", 80) + "\n" +
         comment_lines("Written by `concord export` from the concord corpus case `" + comment_text(c.name) +
                           "`; it runs without concord (" + needs + "). Run it here:",
                       "", 80) +
         "\n    " + run + "\n";
}

}  // namespace

Exported export_ct(const Case& c) {
  // The module's name is its file's: made of the name's letters, digits and
  // underscores (a case name may hold '.' and '-'), and quoted where it is an atom.
  std::string suite = "concord_" + snake_words(c.name) + "_SUITE";
  std::string data = suite + "_data";
  std::vector<std::string> tests;
  std::string bodies;
  std::set<std::string> seen;
  for (size_t i = 0; i < c.runs.size(); i++) {
    std::string t = "run_" + std::to_string(i + 1) + "_seed_" + std::to_string(c.runs[i].settings.seed);
    tests.push_back(t);
    bodies += "\n%% Run " + std::to_string(i + 1) + ": " + run_label(c.runs[i]) + ".\n" + t +
              "(_Config) ->\n    check(" + run_args(c.runs[i]) + ",\n          " +
              erlang_binary(c.runs[i].expect.dump()) + ").\n";
  }
  std::string list, exports;
  for (const std::string& t : tests) {
    list += (list.empty() ? "" : ", ") + t;
    exports += (exports.empty() ? "" : ", ") + t + "/1";
  }
  std::string run = "ct_run -suite " + suite + " -logdir logs   # (mkdir logs first)";
  std::string s = "%% " + suite + ": the concord corpus case " + comment_text(c.name) + " as a Common Test suite.\n" +
                  comment_lines(c.about, "%% ") +
                  "%%\n"
                  "%% Written by `concord export --as ct`; runs without concord. The program is\n"
                  "%% " +
                  data +
                  "/concord_prog.erl (its workers are gen_servers, its supervisors\n"
                  "%% OTP supervisors), run on real OTP by the runtime beside it: the conductor grants\n"
                  "%% the turns in the seeded order of the concord spec (SPEC 8) and keeps the journal.\n"
                  "%% Each test case is one run of the case and asserts its whole result line (journal,\n"
                  "%% failures, decisions, processes, alive, supervisors); a difference is named by its\n"
                  "%% first field.\n"
                  "%%\n"
                  "%% Run: " +
                  comment_text(run) +
                  "\n"
                  "-module(" +
                  erlang_atom(suite) +
                  ").\n"
                  "-export([all/0, init_per_suite/1, end_per_suite/1]).\n"
                  "-export([" +
                  exports +
                  "]).\n\n"
                  "all() -> [" +
                  list +
                  "].\n\n"
                  "%% Compiles and loads the runtime and the program from the data folder, in memory.\n"
                  "init_per_suite(Config) ->\n"
                  "    Dir = proplists:get_value(data_dir, Config),\n"
                  "    Expect = filename:join(Dir, \"concord_expect.erl\"),\n"
                  "    {ok, concord_expect, Beam} = compile:file(Expect, [binary, report]),\n"
                  "    code:purge(concord_expect),\n"
                  "    {module, concord_expect} = code:load_binary(concord_expect, Expect, Beam),\n"
                  "    ok = concord_expect:load_erlang(Dir),\n"
                  "    Config.\n\n"
                  "end_per_suite(_Config) -> ok.\n" +
                  bodies +
                  "\ncheck(Seed, Turns, Max, Expected) ->\n"
                  "    case concord_expect:check(concord_otp, concord_prog, Seed, Turns, Max, Expected) of\n"
                  "        ok -> ok;\n"
                  "        {differ, Text} -> ct:fail(\"~s\", [Text])\n"
                  "    end.\n";
  Exported e;
  e.run = run;
  e.files.push_back({suite + ".erl", s});
  e.files.push_back({data + "/concord_prog.erl", emit_erlang(c.program)});
  for (ExportedFile& f : beam_runtime(data)) e.files.push_back(std::move(f));
  e.files.push_back({"README.md", readme(c, "a Common Test suite", run, "Erlang/OTP with common_test")});
  return e;
}

Exported export_exunit(const Case& c) {
  std::string file = c.name + "_test.exs";
  std::string data = c.name + "_test_data";
  std::string module = "Case" + camel_words(c.name);  // an alias: letters and digits only
  std::string tests;
  for (size_t i = 0; i < c.runs.size(); i++)
    tests += "\n  test \"run " + std::to_string(i + 1) + ": " + run_label(c.runs[i]) + "\" do\n    check(" +
             run_args(c.runs[i]) + ",\n      " + elixir_string(c.runs[i].expect.dump()) + ")\n  end\n";
  std::string run = "elixir " + file;
  std::string s = "# " + comment_text(file) + ": the concord corpus case " + comment_text(c.name) +
                  " as an ExUnit test.\n" + comment_lines(c.about, "# ") +
                  "#\n"
                  "# Written by `concord export --as exunit`; runs without concord. The program is\n"
                  "# " +
                  comment_text(data) +
                  "/concord_prog.ex (a GenServer module per kind, a Supervisor or\n"
                  "# DynamicSupervisor module per supervisor), run on real Elixir by the runtime beside\n"
                  "# it: the conductor grants the turns in the seeded order of the concord spec (SPEC 8)\n"
                  "# and keeps the journal. Each test is one run of the case and asserts its whole result\n"
                  "# line (journal, failures, decisions, processes, alive, supervisors); a difference is\n"
                  "# named by its first field.\n"
                  "#\n"
                  "# Run: " +
                  comment_text(run) +
                  "\n"
                  "ExUnit.start()\n\n"
                  "defmodule Concord.Export." +
                  module +
                  "Test do\n"
                  "  use ExUnit.Case\n\n"
                  "  @data Path.join(__DIR__, " +
                  elixir_string(data) +
                  ")\n\n"
                  "  # Compiles and loads the runtime and the program from the data folder, in memory.\n"
                  "  setup_all do\n"
                  "    expect = Path.join(@data, \"concord_expect.erl\") |> String.to_charlist()\n"
                  "    {:ok, mod, beam} = :compile.file(expect, [:binary, :report])\n"
                  "    :code.purge(mod)\n"
                  "    {:module, ^mod} = :code.load_binary(mod, expect, beam)\n"
                  "    :ok = :concord_expect.load_erlang(String.to_charlist(@data))\n"
                  "    Code.compile_file(Path.join(@data, \"concord_ops.ex\"))\n"
                  "    Code.compile_file(Path.join(@data, \"concord_prog.ex\"))\n"
                  "    :ok\n"
                  "  end\n\n"
                  "  defp check(seed, turns, max, expected) do\n"
                  "    case :concord_expect.check(:concord_elixir, Concord.Prog, seed, turns, max, expected) do\n"
                  "      :ok -> :ok\n"
                  "      {:differ, text} -> flunk(text)\n"
                  "    end\n"
                  "  end\n" +
                  tests + "end\n";
  Exported e;
  e.run = run;
  e.files.push_back({file, s});
  e.files.push_back({data + "/concord_prog.ex", emit_elixir(c.program)});
  for (ExportedFile& f : beam_runtime(data)) e.files.push_back(std::move(f));
  for (ExportedFile& f : runtime_sources(elixir_runtime_dir(), {".erl", ".ex"}, data)) e.files.push_back(std::move(f));
  e.files.push_back({"README.md", readme(c, "an ExUnit test", run, "Elixir and Erlang/OTP")});
  return e;
}

}  // namespace concord
