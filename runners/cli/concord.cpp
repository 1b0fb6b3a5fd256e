// runners/cli/concord.cpp: the `concord` command. Every error is caught here, in
// one place, and mapped to the fixed exit codes of --help.
#include <algorithm>
#include <memory>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/limits.hpp"
#include "oracle/text.hpp"
#include "runners/backend.hpp"
#include "runners/backends.hpp"
#include "runners/c_backend.hpp"
#include "runners/compare.hpp"
#include "runners/diff.hpp"
#include "runners/erlang_backend.hpp"
#include "runners/load.hpp"
#include "runners/serve.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/erlang/emitter/emit_erlang.hpp"

namespace concord {
namespace {

constexpr int kOk = 0, kDisagree = 1, kBadInput = 2, kInternal = 3;

const char* const kHelp = R"(concord: differential conformance suite for actor runtimes

usage:
  concord check FILE [--json]
      Validate a program (.conc text or JSON) and print it in text syntax
      (or, with --json, in its canonical JSON form).
  concord run FILE [--seed S] [--turns N] [--max-processes N]
      Run a program on the oracle and print the result as one canonical JSON line.
      S: 0..2^64-1, decimal or 0x-hex (default 0); N turns: 0..10^9 (default 1000);
      max processes: 1..10^7 (default 10000). FILE may be a corpus case
      (*.case.json): its program runs, with its first run's settings unless given.
  concord run FILE --target NAME|all [--backend NAME=COMMAND]... [--backends FILE]
                   [--timeout SECONDS] [run settings as above]
      Run through the backend protocol (runners/PROTOCOL.md). With one target,
      print its answer line. With `all`, run every built-in target (oracle, c,
      erlang) and every declared backend, compare each with the oracle, print the
      first difference of each that disagrees (by value, else byte for byte) and
      which agreed. --backend declares a user backend: COMMAND is split into words
      like a shell would, without a shell. --backends reads declarations from a
      JSON file. --timeout overrides every backend's run and request timeouts.
  concord backend oracle|c|erlang [--timeout SECONDS]
      Serve the backend protocol on stdin/stdout: `oracle` runs the reference
      interpreter; `c` emits C, compiles it with $CONCORD_CC (default "cc -O1")
      against the runtime ($CONCORD_RT_LIB overrides the library) and runs it;
      `erlang` emits an Erlang module and runs it on a BEAM node kept for the
      backend's lifetime, started with $CONCORD_ERL (default "erl") on the
      runtime in $CONCORD_ERLANG_EBIN (default: the build's). --timeout: per run
      of the compiled program or the module.
  concord corpus [DIR] [--verbose] [--target NAME|all] [--backend NAME=COMMAND]...
      Run every *.case.json under DIR (default: corpus), compare each run with its
      expected result, print each difference and a summary. Without --target the
      oracle runs in-process; with it, each named target through the protocol.
  concord emit-c FILE
      Print the program as C for the c target's runtime (targets/c/runtime).
  concord emit-erlang FILE
      Print the program as the Erlang module concord_prog for the erlang target's
      runtime (targets/erlang/README.md).
  concord --help | --version

exit codes:
  0  ok
  1  results disagree (a corpus case differs from its expected result; a target
     differs from the oracle, or answers an error where the oracle has a result)
  2  bad input: unreadable file, malformed JSON or text, invalid program, bad option
  3  internal error (a bug in concord), or a target gave no verdict (TIMEOUT,
     CRASH, MEMORY: a fault of the harness or the machine, not a divergence)
)";

struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // --name value
  std::vector<std::string> flags;                             // --name

  bool flag(const std::string& f) const {
    for (const auto& x : flags)
      if (x == f) return true;
    return false;
  }
  const std::string* option(const std::string& o) const {
    for (const auto& x : options)
      if (x.first == o) return &x.second;
    return nullptr;
  }
  std::vector<std::string> all(const std::string& o) const {  // a repeatable option, in order
    std::vector<std::string> v;
    for (const auto& x : options)
      if (x.first == o) v.push_back(x.second);
    return v;
  }
};

Args parse_args(int argc, char** argv, const std::vector<std::string>& with_value,
                const std::vector<std::string>& known_flags) {
  Args a;
  for (int i = 2; i < argc; i++) {
    std::string s = argv[i];
    if (s.rfind("--", 0) != 0) {
      a.positional.push_back(s);
      continue;
    }
    std::string value;
    bool inline_value = false;
    if (auto eq = s.find('='); eq != std::string::npos) {
      value = s.substr(eq + 1);
      s = s.substr(0, eq);
      inline_value = true;
    }
    bool takes = std::find(with_value.begin(), with_value.end(), s) != with_value.end();
    bool is_flag = std::find(known_flags.begin(), known_flags.end(), s) != known_flags.end();
    if (!takes && !is_flag) throw InputError("", "unknown option '" + s + "' (see concord --help)");
    if (is_flag) {
      a.flags.push_back(s);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw InputError("", "option " + s + " needs a value");
      value = argv[++i];
    }
    a.options.emplace_back(s, value);
  }
  return a;
}

uint64_t parse_u64(const std::string& s, const std::string& what) {
  if (s.empty()) throw InputError("", what + " is empty");
  int base = 10;
  size_t start = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    start = 2;
  }
  uint64_t v = 0;
  for (size_t i = start; i < s.size(); i++) {
    int d;
    char c = s[i];
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else throw InputError("", what + " '" + s + "' is not a number");
    if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base))
      throw InputError("", what + " '" + s + "' is out of range");
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

int64_t parse_i64(const std::string& s, const std::string& what) {
  uint64_t v = parse_u64(s, what);
  if (v > static_cast<uint64_t>(INT64_MAX)) throw InputError("", what + " '" + s + "' is out of range");
  return static_cast<int64_t>(v);
}

std::string one_file(const Args& a, const char* cmd) {
  if (a.positional.size() != 1) throw InputError("", std::string("usage: concord ") + cmd + " FILE (see concord --help)");
  return a.positional[0];
}

int cmd_check(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--json"});
  Program p = load_program(one_file(a, "check"));
  if (a.flag("--json")) std::cout << program_to_json(p).dump(2) << "\n";
  else std::cout << print_program(p);
  return kOk;
}

bool is_case_file(const std::string& path) {
  return path.size() > 10 && path.compare(path.size() - 10, 10, ".case.json") == 0;
}

double parse_seconds(const std::string& s, const std::string& what) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || !(v > 0) || v > 1e6) throw InputError("", what + " '" + s + "' is not a number of seconds");
  return v;
}

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-=:,+@", c);
  });
  if (plain) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The backends that --target names (one, or all), with the user backends of
// --backend / --backends and the --timeout override.
struct Targets {
  std::unique_ptr<Registry> reg;
  std::vector<const BackendSpec*> chosen;
  std::string declared;  // the options that declare user backends, for reproduce lines
};

Targets choose_targets(const Args& a, const std::string& target) {
  Targets t{std::make_unique<Registry>(self_exe()), {}, ""};
  for (const std::string& f : a.all("--backends")) {
    t.reg->add_file(f);
    t.declared += " --backends " + shell_quote(f);
  }
  for (const std::string& b : a.all("--backend")) {
    t.reg->add_option(b);
    t.declared += " --backend " + shell_quote(b);
  }
  if (const std::string* s = a.option("--timeout")) {
    t.reg->set_timeout(parse_seconds(*s, "--timeout"));
    t.declared += " --timeout " + shell_quote(*s);
  }
  if (target == "all") {
    for (const BackendSpec& s : t.reg->all()) t.chosen.push_back(&s);
  } else if (const BackendSpec* s = t.reg->find(target)) {
    t.chosen.push_back(s);
  } else {
    std::string known;
    for (const BackendSpec& s : t.reg->all()) known += s.name + ", ";
    throw InputError("", "unknown target '" + target + "' (known: " + known + "all)");
  }
  return t;
}

// `concord run FILE --target ...`: through the protocol, one target or all.
int run_on_targets(const Args& a, const std::string& file, const Program& p, const RunSettings& r) {
  std::string repro = "concord run " + shell_quote(file) + " --seed " + std::to_string(r.seed) + " --turns " +
                      std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes);
  const std::string target = *a.option("--target");
  Targets t = choose_targets(a, target);
  const std::vector<const BackendSpec*>& chosen = t.chosen;
  const std::string& declared = t.declared;
  ojson program = program_to_json(p);
  auto reproduce = [&](const std::string& name) { return "  reproduce: " + repro + " --target " + name + declared + "\n"; };

  if (target != "all") {
    Backend backend(*chosen[0]);
    Answer got = backend.request(program, {r})[0];
    std::cout << got.line << "\n";
    if (got.ok()) return kOk;
    std::cerr << "concord: target " << target << ": " << got.code() << ": " << got.json.value("message", "") << "\n"
              << reproduce(target);
    return is_definite(got.code()) ? kDisagree : kInternal;
  }

  Answer ref;
  ref.line = result_line(run(p, r));
  ref.line.pop_back();
  ref.json = ojson::parse(ref.line);
  std::vector<std::string> agreed, differed, unknown;
  for (const BackendSpec* s : chosen) {
    Backend backend(*s);
    Answer got = backend.request(program, {r})[0];
    std::string label = s->name == "oracle" ? "oracle (protocol)" : s->name;
    Comparison c = compare_answers("oracle", ref, label, got);
    if (c.verdict == Verdict::kAgree) {
      std::cout << "agree   " << s->name << "\n";
      agreed.push_back(s->name);
      continue;
    }
    bool differs = c.verdict == Verdict::kDiffer;
    std::cout << (differs ? "DIFFER  " : "UNKNOWN ") << s->name << "\n" << c.report << reproduce(s->name);
    (differs ? differed : unknown).push_back(s->name);
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none") : out;
  };
  std::cout << "agreed with the oracle: " << list(agreed) << "\n";
  if (!differed.empty()) std::cout << "disagreed: " << list(differed) << "\n";
  if (!unknown.empty()) std::cout << "no verdict: " << list(unknown) << "\n";
  return !differed.empty() ? kDisagree : !unknown.empty() ? kInternal : kOk;
}

int cmd_run(int argc, char** argv) {
  Args a = parse_args(argc, argv,
                      {"--seed", "--turns", "--max-processes", "--target", "--backend", "--backends", "--timeout"}, {});
  std::string file = one_file(a, "run");
  if (!a.option("--target") && (a.option("--backend") || a.option("--backends") || a.option("--timeout")))
    throw InputError("", "--backend, --backends and --timeout need --target (see concord --help)");
  RunSettings r;
  r.turns = kDefaultTurns;
  r.max_processes = kDefaultProcesses;
  Program p;
  if (is_case_file(file)) {  // a corpus case: its program, and its first run's settings by default
    Case c = load_case(file);
    p = std::move(c.program);
    r = c.runs[0].settings;
  } else {
    p = load_program(file);
  }
  if (auto* s = a.option("--seed")) r.seed = parse_u64(*s, "--seed");
  if (auto* s = a.option("--turns")) r.turns = parse_i64(*s, "--turns");
  if (auto* s = a.option("--max-processes")) r.max_processes = parse_i64(*s, "--max-processes");
  check_settings(r);
  if (a.option("--target")) return run_on_targets(a, file, p, r);
  std::cout << result_line(run(p, r));
  return kOk;
}

// `concord backend NAME`: serve the protocol on stdin/stdout until EOF.
int cmd_backend(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--timeout"}, {});
  if (a.positional.size() != 1 ||
      (a.positional[0] != "oracle" && a.positional[0] != "c" && a.positional[0] != "erlang"))
    throw InputError("", "usage: concord backend oracle|c|erlang (see concord --help)");
  if (a.positional[0] == "oracle") {
    serve(std::cin, std::cout, answer_with_oracle);
    return kOk;
  }
  if (a.positional[0] == "erlang") {
    ErlangTargetConfig cfg = erlang_config_from_env(CONCORD_ERLANG_EBIN);
    if (const std::string* t = a.option("--timeout")) cfg.run_timeout = parse_seconds(*t, "--timeout");
    ErlangTarget erlang(cfg);
    serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
      erlang.answer(prog, runs, emit);
    });
    return kOk;
  }
  CTargetConfig cfg;
  cfg.emit = [](const Program& prog) { return emit_c(prog); };
  const char* cc = std::getenv("CONCORD_CC");
  cfg.cc = split_command(cc && *cc ? cc : CONCORD_DEFAULT_CC);
  cfg.rt_include = CONCORD_RT_INCLUDE;
  const char* rt_lib = std::getenv("CONCORD_RT_LIB");  // e.g. the sanitized runtime, for `ctest -L sanitize`
  cfg.rt_lib = rt_lib && *rt_lib ? rt_lib : CONCORD_RT_LIB;
#ifdef CONCORD_RT_SANITIZED
  cfg.address_space_bytes = 0;  // ASan reserves terabytes of address space
#endif
  for (const std::string& w : cfg.cc)
    if (w.rfind("-fsanitize", 0) == 0) cfg.address_space_bytes = 0;  // likewise for a sanitizing $CONCORD_CC
  if (const std::string* t = a.option("--timeout")) cfg.run_timeout = parse_seconds(*t, "--timeout");
  CTarget c(cfg);
  serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
    c.answer(prog, runs, emit);
  });
  return kOk;
}

int cmd_emit_c(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {});
  std::cout << emit_c(load_program(one_file(a, "emit-c")));
  return kOk;
}

int cmd_emit_erlang(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {});
  std::cout << emit_erlang(load_program(one_file(a, "emit-erlang")));
  return kOk;
}

// `concord corpus DIR [--target NAME|all]`: every case's runs against its expected
// result, on the oracle in-process by default, or on backends through the
// protocol (one backend process per target for the whole corpus).
int cmd_corpus(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout"}, {"--verbose"});
  if (a.positional.size() > 1) throw InputError("", "usage: concord corpus [DIR] [--target NAME|all]");
  std::string dir = a.positional.empty() ? "corpus" : a.positional[0];
  std::vector<std::string> files = find_cases(dir);
  if (files.empty()) throw InputError(dir, "no *.case.json files found");
  const std::string* target = a.option("--target");
  Targets t;
  std::vector<std::unique_ptr<Backend>> backends;  // none: the oracle in-process
  if (target) {
    t = choose_targets(a, *target);
    for (const BackendSpec* s : t.chosen) backends.push_back(std::make_unique<Backend>(*s));
  }
  std::string names = target ? "" : "oracle";
  for (const BackendSpec* s : t.chosen) names += (names.empty() ? "" : ", ") + s->name;

  int pass = 0, fail = 0, bad = 0, unknown = 0;
  for (const std::string& f : files) {
    Case c;
    try {
      c = load_case(f);
    } catch (const InputError& e) {
      std::cout << "BAD   " << f << "\n      " << e.what() << "\n";
      bad++;
      continue;
    }
    std::vector<RunSettings> runs;
    for (const CaseRun& cr : c.runs) runs.push_back(cr.settings);
    // Each target's answers: from a backend, or the oracle's own results.
    std::vector<std::pair<std::string, std::vector<ojson>>> answers;
    if (backends.empty()) {
      std::vector<ojson> got;
      for (const RunSettings& r : runs) got.push_back(result_to_json(run(c.program, r)));
      answers.emplace_back("oracle", std::move(got));
    }
    for (auto& b : backends) {
      std::vector<ojson> got;
      for (Answer& ans : b->request(program_to_json(c.program), runs)) got.push_back(std::move(ans.json));
      answers.emplace_back(b->spec().name, std::move(got));
    }
    bool ok = true;
    for (const auto& [name, got] : answers)
      for (size_t i = 0; i < runs.size(); i++) {
        auto d = first_difference(c.runs[i].expect, got[i]);
        if (!d) continue;
        bool indefinite = got[i].value("ok", true) == false && !is_definite(got[i].value("code", ""));
        if (indefinite) unknown++;
        ok = false;
        std::cout << (indefinite ? "NOVERDICT " : "FAIL  ") << c.name << " on " << name << " (run " << i << ")\n      "
                  << describe(*d, "expected", name) << "      reproduce: concord run " << shell_quote(f) << " --seed "
                  << runs[i].seed << " --turns " << runs[i].turns << " --max-processes " << runs[i].max_processes
                  << (target ? " --target " + name + t.declared : std::string()) << "\n";
      }
    if (ok) {
      pass++;
      if (a.flag("--verbose")) std::cout << "ok    " << c.name << "  " << c.about << "\n";
    } else {
      fail++;
    }
  }
  std::cout << "corpus " << dir << ": " << files.size() << " cases on " << names << "\n"
            << pass << " passed, " << fail << " failed" << (bad ? ", " + std::to_string(bad) + " unreadable" : "")
            << "\n";
  if (bad) return kBadInput;
  if (fail > 0 && fail == unknown) return kInternal;
  return fail ? kDisagree : kOk;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kHelp;
    return kBadInput;
  }
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kHelp;
    return kOk;
  }
  if (cmd == "--version") {
    std::cout << "concord 0.1 (language version 1)\n";
    return kOk;
  }
  if (cmd == "check") return cmd_check(argc, argv);
  if (cmd == "run") return cmd_run(argc, argv);
  if (cmd == "corpus") return cmd_corpus(argc, argv);
  if (cmd == "backend") return cmd_backend(argc, argv);
  if (cmd == "emit-c") return cmd_emit_c(argc, argv);
  if (cmd == "emit-erlang") return cmd_emit_erlang(argc, argv);
  throw InputError("", "unknown command '" + cmd + "' (see concord --help)");
}

}  // namespace
}  // namespace concord

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    return concord::dispatch(argc, argv);
  } catch (const concord::InputError& e) {
    std::cerr << "concord: " << e.what() << "\n";
    return concord::kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "concord: internal error: " << e.what() << "\n";
    return concord::kInternal;
  }
}
