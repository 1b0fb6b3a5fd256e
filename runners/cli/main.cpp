// runners/cli/main.cpp: the `concord` command: its help, the dispatch to one
// function per command (cli.hpp), and the one place where every error is caught
// and mapped to the fixed exit codes of --help.
#include <iostream>
#include <string>

#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"

namespace concord {
namespace {

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
