// tests/targets/elixir_target_test.cpp: the elixir target beyond the corpus.
// Random valid programs give the oracle's result lines through `concord backend
// elixir`, byte for byte, or differ as one of the target's declared deviations
// explains (targets/elixir/deviations.json; counted per deviation); one program
// per declared deviation still shows it (and only on elixir: the erlang target
// agrees with the oracle on it), the same bytes twice; every deviation names
// checks of the Elixir experiments that exist; a module that does not compile
// costs its request only; and a missing Elixir is a CRASH per run that names what
// is missing, never a skip.
#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <algorithm>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"
#include "targets/elixir/launcher/elixir_launcher.hpp"
#include "targets/targets.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

Backend& backend(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Backend>> all;
  auto& b = all[name];
  if (!b) {
    BackendSpec s;
    s.name = name;
    s.command = {build_paths::concord_binary, "backend", name};
    s.run_timeout = 60;  // the first run includes starting the node and compiling the program
    s.request_timeout = 300;
    b = std::make_unique<Backend>(s);
  }
  return *b;
}

const std::vector<Deviation>& deviations() {
  static const std::vector<Deviation> d = builtin_deviations(*find_target("elixir"));
  return d;
}

std::string oracle_line(const Program& p, const RunSettings& r) { return oracle_answer(p, r).line; }

std::string code_of(const std::string& line) {
  ojson j = ojson::parse(line);
  return j.value("ok", true) ? "" : j.value("code", "?");
}

CommandResult concord_backend_elixir(const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::string& request) {
  return run_command(Command{{build_paths::concord_binary, "backend", "elixir"}, env, "", {}}, request, 120);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

const char* kPing = R"(
kind P(peer: addr) {
    state n: int = 0;
    on ping() { n = n + 1; if (n < 4) { send ping() to peer; } }
}
process a = P(@b);
process b = P(@a);
given ping() to @a;
)";

std::string deviation_dir() { return std::string(build_paths::source_dir) + "/tests/targets/elixir_deviations"; }

}  // namespace

// The number of programs is RC_PARAMS' max_success (tests/CMakeLists.txt sets 100).
// All of them go to one node, so a program that leaves something behind in it
// shows up as a difference in a later one. RapidCheck prints how many runs each
// declared deviation explained.
RC_GTEST_PROP(ElixirTarget, GeneratedProgramsGiveTheOraclesLinesOrADeclaredDeviation, ()) {
  Program p = *gen::any_program();
  check(p);
  std::vector<RunSettings> runs = *rc::gen::container<std::vector<RunSettings>>(3, gen::any_run_settings());
  std::vector<Answer> got = backend("elixir").request(program_to_json(p), runs);
  RC_ASSERT(got.size() == runs.size());
  for (size_t i = 0; i < runs.size(); i++) {
    Answer want = oracle_answer(p, runs[i]);
    if (got[i].line == want.line) continue;
    std::vector<const Deviation*> ex = explaining(deviations(), p, runs[i], got[i]);
    if (!ex.empty()) {
      RC_TAG(deviation_ids(ex));
      continue;
    }
    RC_LOG() << print_program(p) << "\nrun " << i << "\n  oracle: " << want.line << "\n  elixir: " << got[i].line
             << "\n";
    RC_FAIL("elixir differs from the oracle, and no declared deviation explains it");
  }
}

// Each declared deviation has a program under tests/targets/elixir_deviations named
// after it (and each program a deviation): on elixir its first difference from the
// oracle is explained by that deviation, on erlang there is none (OTP does what
// SPEC says), and a second request gives the same bytes.
TEST(ElixirTarget, OneProgramPerDeclaredDeviationShowsIt) {
  ASSERT_FALSE(deviations().empty());
  std::set<std::string> programs;
  for (const auto& e : fs::directory_iterator(deviation_dir()))
    if (e.path().extension() == ".conc") programs.insert(e.path().stem().string());
  for (const Deviation& d : deviations()) {
    SCOPED_TRACE(d.id);
    std::string file = deviation_dir() + "/" + d.id + ".conc";
    ASSERT_TRUE(programs.erase(d.id)) << "no program shows the deviation: write " << file;
    Program p = load_program(file);
    std::vector<RunSettings> runs = {{0, 1000, 10000}};
    Answer want = oracle_answer(p, runs[0]);
    std::vector<Answer> got = backend("elixir").request(program_to_json(p), runs);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_NE(got[0].line, want.line) << "the deviation no longer shows: fixed in Elixir? " << file;
    std::vector<const Deviation*> ex = explaining(deviations(), p, runs[0], got[0]);
    ASSERT_FALSE(ex.empty()) << "elixir differs, but as no declared deviation: " << difference_kind(want, got[0]);
    // The program shows its deviation: its alternative is among those that changed the
    // run. The API's two answer a child that keeps-no-stopped-child has removed
    // already, and differ from it only for a restarting child: in these programs the
    // child is gone, and keeps-no-stopped-child is what explains them.
    bool api = d.dialect == Alt::DynsupApiNotFound || d.dialect == Alt::DynsupRestartChildNotFound;
    Alt shown = api ? Alt::DynsupKeepsNoStoppedChild : d.dialect;
    EXPECT_TRUE(std::any_of(ex.begin(), ex.end(), [&](const Deviation* x) { return x->dialect == shown; }))
        << deviation_ids(ex);
    if (!api) {
      EXPECT_TRUE(
          agrees_up_to_freedom(run_in_dialect(p, runs[0], AltSet().set(static_cast<size_t>(d.dialect))), got[0].json))
          << "the dialect " << alternative(d.dialect).id << " alone does not give elixir's result";
    }
    std::vector<Answer> again = backend("elixir").request(program_to_json(p), runs);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].line, got[0].line) << "a second request answered differently";
    std::vector<Answer> erlang = backend("erlang").request(program_to_json(p), runs);
    ASSERT_EQ(erlang.size(), 1u);
    EXPECT_EQ(erlang[0].line, want.line) << "OTP itself differs here: not a deviation of Elixir's";
  }
  EXPECT_TRUE(programs.empty()) << "a program for a deviation that is not declared: " << *programs.begin();
}

// A declaration's experiment names checks (`E4/give_up_oldest_first`) of the Elixir
// experiments, which ctest runs (elixir_supervision_experiments): each must exist.
TEST(ElixirTarget, EveryDeviationNamesExperimentChecksThatExist) {
  std::string exs = read_file(std::string(build_paths::source_dir) + "/spec/experiments/elixir_supervision.exs");
  for (const Deviation& d : deviations()) {
    EXPECT_NE(d.experiment.find("spec/experiments/elixir_supervision.exs"), std::string::npos) << d.id;
    size_t checks = 0;
    std::istringstream words(d.experiment);
    for (std::string w; words >> w;) {
      while (!w.empty() && (w.back() == ',' || w.back() == ')' || w.back() == ':')) w.pop_back();
      if (w.size() < 4 || w[0] != 'E' || w.find('/') == std::string::npos) continue;
      checks++;
      EXPECT_NE(exs.find("\"" + w + "\""), std::string::npos) << d.id << " names " << w << ", which is no check";
    }
    EXPECT_GE(checks, 1u) << d.id << ": its experiment names no check";
    EXPECT_NE(d.source.find("dynamic_supervisor.ex"), std::string::npos) << d.id;
  }
}

TEST(ElixirTarget, AModuleThatDoesNotCompileIsInternalPerRunAndTheNodeStays) {
  Program p = parse_program(kPing);
  check(p);
  bool broken = true;
  ErlangTargetConfig cfg = elixir_config_from_env(build_paths::erlang_ebin, build_paths::elixir_ebin);
  cfg.emit = [&](const Program& prog) { return emit_elixir(prog) + (broken ? "\ndefmodule do end end\n" : ""); };
  FramedRuntime t(erlang_runtime_config(cfg));
  std::vector<RunSettings> runs = {{0, 100, 10}, {7, 3, 10}};
  auto ask = [&] {
    std::vector<std::string> out;
    std::vector<RunRequest> requests;
    for (const RunSettings& r : runs) requests.push_back(RunRequest{r, ""});
    t.answer(p, requests, [&](const std::string& l) { out.push_back(l.substr(0, l.size() - 1)); });
    return out;
  };
  std::vector<std::string> got = ask();
  ASSERT_EQ(got.size(), runs.size());
  for (const std::string& line : got) {
    EXPECT_EQ(code_of(line), "INTERNAL") << line;
    EXPECT_NE(line.find("elixir: the emitted module does not compile"), std::string::npos) << line;
  }
  pid_t node = t.pid();
  EXPECT_GT(node, 0);
  broken = false;
  got = ask();
  ASSERT_EQ(got.size(), runs.size());
  for (size_t i = 0; i < runs.size(); i++) EXPECT_EQ(got[i], oracle_line(p, runs[i])) << "run " << i;
  EXPECT_EQ(t.pid(), node) << "a program that does not compile is not a fault of the node";
}

// No skip: without Elixir every run is a CRASH whose message names what is missing.
TEST(ElixirTarget, AMissingElixirIsACrashThatSaysWhatIsMissing) {
  Program p = parse_program(kPing);
  check(p);
  std::string request = request_line(program_to_json(p), {{0, 10, 10}, {1, 10, 10}});
  TempDir no_elixir("concord-no-elixir");  // a PATH without elixir (Elixir is looked for before erl starts)
  struct Setup {
    std::vector<std::pair<std::string, std::string>> env;
    std::string named;
  };
  for (const Setup& s :
       {Setup{{{"CONCORD_ELIXIR", "/nonexistent/elixir"}}, "/nonexistent/elixir"},
        Setup{{{"PATH", no_elixir.path()}}, "no `elixir` on PATH"},
        Setup{{{"CONCORD_ELIXIR_EBIN", "/nonexistent/ebin"}}, "no concord_elixir.beam in /nonexistent/ebin"}}) {
    CommandResult r = concord_backend_elixir(s.env, request);
    EXPECT_EQ(r.status.code, 0) << r.err;
    std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 2u) << r.out << r.err;
    for (const std::string& line : lines) {
      EXPECT_EQ(code_of(line), "CRASH") << line;
      EXPECT_NE(line.find("elixir: cannot start the elixir node"), std::string::npos) << line;
      EXPECT_NE(line.find(s.named), std::string::npos) << line;
    }
  }
}
