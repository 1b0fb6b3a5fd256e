// runners/cli/concord.cpp: the `concord` command. Every error is caught here, in
// one place, and mapped to the fixed exit codes of --help.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <sstream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/limits.hpp"
#include "oracle/text.hpp"
#include "runners/diff.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "runners/load.hpp"

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
  concord corpus [DIR] [--verbose]
      Run every *.case.json under DIR (default: corpus) on the oracle, compare each
      run with its expected result, print one line per case and a summary.
  concord emit-c FILE
      Print the program as C for the c target's runtime (targets/c/runtime).
  concord --help | --version

exit codes:
  0  ok
  1  results disagree (a corpus case differs from its expected result)
  2  bad input: unreadable file, malformed JSON or text, invalid program, bad option
  3  internal error (a bug in concord)
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

int cmd_run(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--seed", "--turns", "--max-processes", "--target"}, {});
  std::string file = one_file(a, "run");
  if (const std::string* t = a.option("--target"); t && *t != "oracle")
    throw InputError("", "unknown target '" + *t + "' (this build has: oracle)");
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
  std::cout << result_line(run(p, r));
  return kOk;
}

int cmd_emit_c(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {});
  std::cout << emit_c(load_program(one_file(a, "emit-c")));
  return kOk;
}

int cmd_corpus(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--verbose"});
  if (a.positional.size() > 1) throw InputError("", "usage: concord corpus [DIR]");
  std::string dir = a.positional.empty() ? "corpus" : a.positional[0];
  std::vector<std::string> files = find_cases(dir);
  if (files.empty()) throw InputError(dir, "no *.case.json files found");
  int pass = 0, fail = 0, bad = 0;
  for (const std::string& f : files) {
    Case c;
    try {
      c = load_case(f);
    } catch (const InputError& e) {
      std::cout << "BAD   " << f << "\n      " << e.what() << "\n";
      bad++;
      continue;
    }
    bool ok = true;
    for (size_t i = 0; i < c.runs.size(); i++) {
      const CaseRun& cr = c.runs[i];
      ojson got = result_to_json(run(c.program, cr.settings));
      if (auto d = first_difference(cr.expect, got)) {
        ok = false;
        std::cout << "FAIL  " << c.name << " (run " << i << ")\n      "
                  << describe(*d, "expected", "oracle") << "      reproduce: concord run " << f << " --seed "
                  << cr.settings.seed << " --turns " << cr.settings.turns << " --max-processes "
                  << cr.settings.max_processes << "\n";
      }
    }
    if (ok) {
      pass++;
      if (a.flag("--verbose")) std::cout << "ok    " << c.name << "  " << c.about << "\n";
    } else {
      fail++;
    }
  }
  std::cout << "corpus " << dir << ": " << files.size() << " cases on target oracle\n"
            << pass << " passed, " << fail << " failed" << (bad ? ", " + std::to_string(bad) + " unreadable" : "")
            << "\n";
  if (bad) return kBadInput;
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
  if (cmd == "emit-c") return cmd_emit_c(argc, argv);
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
