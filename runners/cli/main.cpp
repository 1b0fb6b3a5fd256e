// runners/cli/main.cpp: the `concord` command: its help, the dispatch to one
// function per command (cli.hpp), and the one place where every error is caught
// and mapped to the fixed exit codes of --help.
#include <iostream>
#include <string>

#include "oracle/error.hpp"
#include "oracle/printable.hpp"
#include "oracle/versions.hpp"
#include "runners/cli/cli.hpp"
#include "runners/process/cleanup.hpp"
#include "runners/process/files.hpp"

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
      --dialect ID[,ID]...: the oracle in that dialect, SPEC with those rules
      replaced by the alternatives of `concord dialects`.
  concord dialects [--json]
      The oracle's alternative rules: each replaces one SPEC rule for one
      construct (or every program). A declared deviation names one
      (runners/PROTOCOL.md); a target differs by a known deviation only where the
      oracle in that dialect gives its result (up to the freedom the alternative
      states). A divergence's bucket is the rule of the alternative whose replay
      gives the target's answers on every run (its triage page shows the replay).
  concord conformance [--target NAME|all] [--backend NAME=COMMAND]... [--programs N]
                      [--profile P]... [--seed S] [--runs K] [--corpus DIR]... [--no-corpus]
                      [--out DIR] [--json|--markdown]
      A target's conformance table: per SPEC section and feature (a program
      counts in its version's row and in the row of each feature it uses), the
      programs of the hand corpus (default corpus/hand and corpus/hand_v2) and N
      generated programs per profile (default 20, every profile; program i is
      case i of `concord fuzz --seed S --profile P`, on its K runs, default 8)
      that pass (every run agrees with the oracle, or differs as a declared
      deviation explains), fail (with the bucket of each failure), or are skipped
      (not claimed by the target's declaration). --out DIR: index.html,
      conformance.md, conformance.json, each failing generated program as a case
      (cases/) and each failing case's triage page (triage/). --json, --markdown:
      the table in that form on stdout. Exit 0 when nothing failed, 1 when
      something did, 3 when interrupted, 4 when nothing was judged (every program
      unclaimed).
  concord run FILE --target NAME|all [--backend NAME=COMMAND]... [--backends FILE]
                   [--timeout SECONDS] [run settings as above]
      Run through the backend protocol (runners/PROTOCOL.md). With one target,
      print its answer line. With `all`, run every built-in target (oracle, c,
      erlang, js, elixir) and every declared backend (with a list A,B,...: each named
      one), compare each with the oracle, print the
      first difference of each that disagrees (by value, else byte for byte) and
      which agreed. --backend declares a user backend: COMMAND is split into words
      like a shell would, without a shell. --backends reads declarations from a
      JSON file, each with what the backend claims to implement ("supports":
      versions and features, runners/PROTOCOL.md): a target that does not claim
      the program is not run (with one target: exit 4). --timeout overrides
      every backend's run and request timeouts.
  concord run FILE --mode free [--target NAME|all] [--runs N] [--keep DIR] [run settings]
      Free runs (SPEC §25: no schedule imposed; runners/PROTOCOL.md "Free runs").
      Without --target, the oracle's conducted run written as a trace. With it, N
      free runs (default 1) on each target, each trace checked: the verdicts, the
      first guarantee a trace breaks, and how many distinct traces each target
      gave. --keep writes every trace to DIR (for check-trace).
  concord check-trace PROGRAM TRACE [--all]
      Is each free run's trace in TRACE (one JSON line per run, SPEC §25.6; `-`:
      stdin) admissible for PROGRAM (SPEC §25)? Prints `admissible`, or the first
      guarantee a trace breaks (--all: every one found), in words, with the places
      of the events involved. Exit 1 when one is not admissible, 2 when a trace is
      not well formed (the place named).
  concord backend oracle|c|erlang|js|elixir [--timeout SECONDS] [--threads N]
      Serve the backend protocol on stdin/stdout: `oracle` runs the reference
      interpreter (with --dialect ID[,ID]..., in that dialect: `concord dialects`); `c` emits C, compiles it with $CONCORD_CC (default: tcc when installed,
      else "cc -O1")
      against the runtime ($CONCORD_RT_LIB overrides the library) and runs it;
      `erlang` emits an Erlang module and runs it on a BEAM node kept for the
      backend's lifetime, started with $CONCORD_ERL (default "erl") on the
      runtime in $CONCORD_ERLANG_EBIN (default: the build's); `js` emits
      JavaScript and runs it on a node process kept for the backend's lifetime,
      each program in a fresh vm context, started with $CONCORD_NODE (default
      "node") on the runtime in $CONCORD_JS_RUNTIME (default: the build's);
      `elixir` emits Elixir modules and runs them on a BEAM node with Elixir
      loaded (found from $CONCORD_ELIXIR, default `elixir` on PATH; its runtime in
      $CONCORD_ELIXIR_EBIN). --timeout: per run of the compiled program, the
      module or the script. Free runs (SPEC §25) on `c` link the same C against
      the threaded runtime ($CONCORD_RT_FREE_LIB overrides it) and run on N
      threads (--threads, else $CONCORD_THREADS, else twice the cores).
  concord backend-check NAME [--backend NAME=COMMAND]... [--backends FILE] [--timeout S]
      A protocol self-test of one backend (runners/PROTOCOL.md, "Checking a
      backend"): a program with 4 runs, a line that is not JSON, a program that
      is not one, a run with an unknown setting, a version 2 program with every
      feature (skipped when its declaration does not claim it), a huge program,
      and stdin closed. One line per check: PASS, FAIL or SKIP, what was expected
      and what came back. Exit 0 when none failed, 1 when one did.
  concord corpus [DIR|CASE] [--verbose] [--fail-fast] [--target NAME|all] [--backend NAME=COMMAND]...
      Run every *.case.json under DIR (default: corpus), or one CASE file, compare
      each run with its expected result, print each difference (where it first
      differs in causal order, the journal first; an error answer by its code and
      message) and a summary. Without --target the oracle runs in-process; with
      it, each named target through the protocol. --fail-fast: stop at the first
      failing case (the summary counts the cases not run). A case a target's
      declaration does not claim is skipped there (SKIP, with what it uses;
      counted in the summary); exit 4 when every case was skipped.
  concord corpus [DIR|CASE] --mode free [--runs N] [--verbose] [--target NAME|all]
      Free runs of every case (*.case.json and *.free.json) under DIR: N free runs
      (default: a free case's own count, else 1) on each target, each trace checked
      (SPEC §25); without --target the oracle's conducted runs as traces. Prints
      each case whose trace is not admissible and how many cases gave more than one
      distinct trace. No case answered (every one UNSUPPORTED) is no verdict (exit 3).
  concord corpus merge --into OUT DIR...
      Join corpora (from several machines or shards) into OUT: one case per
      signature, the smaller program kept among the shards'; a signature OUT
      already has keeps its case (a shard's claim is not checked: never a
      replacement); other cases copied when their name is free. Every input is
      checked before anything is written (names, and paths inside OUT and inside
      each shard's folder).
  concord gen --seed S [--profile P] [--runs K] [--json]
      Print the program a campaign generates from program seed S with profile P
      (default, supervision, spawn-heavy, arith, dynamic-supervision, scale, v2,
      links, calls; default: default), in text syntax
      (or JSON), and with --runs the first K run settings it derives from S.
  concord fuzz [--cases N | --time D] [--seed S] [--jobs J] [--seeds-per-program K]
               [--profile P] [--target NAME|all] [--backend NAME=COMMAND]...
               [--corpus DIR] [--no-shrink] [--shrink-time D] [--shard i/N]
               [--case I]... [--report DIR | --no-report] [--quiet] [--fresh-every N]
      A campaign: case i's program is generated from the campaign seed S (random
      and printed when not given) and i, and runs on K seeds (default 8) on the
      oracle and every target (default: every target but elixir, which only
      --target all, --target elixir and the profiles dynamic-supervision, v2,
      links and calls run); J
      workers (default: cores) each own a backend per target; a target is not
      compared on a program its declaration does not claim (counted: not claimed),
      and a campaign none of whose first 64 programs any target claims is bad
      input. A divergence from
      the oracle is rerun (one that does not repeat is reported as flaky); one
      that a target's declared deviations explain (the oracle run in their
      dialect gives the target's result: `concord dialects`) is a known deviation
      (counted, not failing); otherwise, when its signature is new to the corpus DIR
      (default corpus/found), it is shrunk and stored there. D: 90, 90s, 15m,
      8h, 1d; default --time 60s. --shard i/N runs the cases with index mod N = i.
      --case I replays one case (its reproduce line), storing nothing. Every Nth
      case (default 64; 0: never) that agreed or was explained is asked again of a
      fresh backend: an answer that changed is a finding, TARGET:stateful. A progress
      line goes to stderr, the report to stdout and to the folder DIR (default
      campaigns/seed-S[-shard-i-of-N]): summary.json, summary.md, junit.xml (a
      test case per signature) and index.html (charts, a triage page for each
      signature under triage/).
      Ctrl-C stops cleanly and keeps everything found. Exit 1 when something new
      was found (or a replayed case diverges).
  concord fuzz --mode free [--cases N | --time D] [--seed S] [--runs R] [--jobs J]
               [--profile P] [--target NAME] [--corpus DIR] [--no-shrink]
               [--shrink-time D] [--shard i/N] [--case I]... [--report DIR | --no-report]
      A free campaign (SPEC §25): case i's program runs R times (default 8) free on
      the target (default erlang), each trace checked. A program with a trace that
      is not admissible is confirmed on a fresh backend, shrunk, and stored as a
      free case (*.free.json) in DIR (default corpus/free) when its guarantee and
      rule are new there; the report folder (default campaigns/free-seed-S) has
      summary.json, index.html, a triage page per finding and the traces. Prints
      runs, verdicts and distinct traces per target. Exit 1 when something new was
      found, 3 when no target answered a free run.
  concord report merge --into OUT [--corpus MERGED] DIR...
      Join the report folders of one campaign's shards (same seed, profile,
      targets, shard count; each shard once) into OUT: counts added, each
      signature's first case over all shards, coverage merged, triage pages
      copied. --corpus: the corpus merged from the shards' (corpus merge), whose
      files the report then names. Missing shards are listed, not fatal. A shard
      whose figures no campaign reaches, or whose triage pages lie outside its
      folder, is refused (exit 2), nothing written.
  concord shrink CASE [--target NAME|all] [--backend NAME=COMMAND]... [--backends FILE]
                 [--timeout S] [--jobs J] [--time D] [--out FILE]
      Reduce a case file to the smallest program and runs that show the same
      divergence (its recorded signature, or the one it shows now), J workers
      testing candidates (default: cores); last, names become short ones (kinds A,
      B, processes a, b, tags m, n, variables x, y) while the divergence holds.
      Writes the result over CASE, or to FILE. A case found on a user backend
      needs that backend declared (--backend, --backends or concord.json).
  concord triage CASE [--html OUT] [--target NAME|all] [--backend NAME=COMMAND]...
      Run a case on the oracle and every target (default all) and show what
      diverges: the program, each target's verdict, both answers side by side
      around each first difference (the differing field marked >> <<), and a
      command per target that reproduces it. --html: the same as one
      self-contained page, full journals folded, naming no absolute path. Exit 1
      when a target differs; 2 when the case's recorded signature names a target
      that did not run (declare it with --backend): nothing checked it.
  concord triage CASE.free.json [--html OUT] [--target NAME|all]
      A free case: its witness trace checked again (without --target), or fresh free
      runs on each target; the first guarantee broken, with the events involved.
  concord export CASE --as ct|exunit|c|gtest|json [--out DIR]
      Write a case as a test of another framework that runs without concord
      (default DIR: NAME-FORMAT): `ct` a Common Test suite running the program's
      gen_servers and supervisors on OTP, `exunit` the same as an ExUnit test on
      Elixir, `c` a C test of the program built against the c runtime, `gtest` a
      GoogleTest case for any runtime that speaks the backend protocol (command in
      $CONCORD_RUNTIME), `json` NAME.concord.json (program, requests, expected
      results, signature with its "§") with concord_cases.py (TAP; stdlib Python)
      and a pytest test, for the same runtimes. Each asserts every run's result line and names the first
      difference. The folder's README.md says how to run it.
  concord mutants [--time D] [--seed S] [--only NAME]... [--shrink-time D] [--work DIR] [--list]
      For every planted fault (targets/FAULTS.md; not those planted for `concord
      buckets` only, unless --only names them): build the target with it, run a
      campaign against it until the first divergence (at most D, default 60s; a
      free campaign for a fault of a free mode, until the first trace that is not
      admissible), shrink it, and print a table. Exit 1 when a fault was not found.
      It works in --work DIR (kept), else in a folder of its own under $TMPDIR,
      removed when it ends.
  concord buckets [--time D] [--seed S] [--only NAME]... [--set catalogue|held-out|held-out-N|all]
                  [--shrink-time D] [--jobs N] [--work DIR] [--again]
      Measure bucketing by SPEC rule (issues 17, 39): per planted fault (those
      planted for this measurement only too, the held-out set among them; not a
      free mode's; --set: one set), a campaign against it (default 60s, the
      fault's profile): before, the field paths its divergent cases showed; after,
      its buckets, each by the oracle's alternative whose replay gives the target's
      answers (or the fallback analysis), merged by shrunk programs up to renaming;
      the rule each names against the rule the fault breaks (Fault::rule), cases
      filed as known deviations, and per set the signatures per fault and the
      faults whose rule is right. --again: no campaign, the cases stored in --work
      by an earlier run attributed again (none stored: bad input, exit 2).
  concord emit-c FILE
      Print the program as C for the c target's runtime (targets/c/runtime).
  concord emit-erlang FILE [--free]
      Print the program as the Erlang module concord_prog for the erlang target's
      runtime (targets/erlang/README.md); --free: the module of its free runs
      (SPEC §25).
  concord emit-js FILE
      Print the program as the JavaScript the js target's host loads
      (targets/js/README.md).
  concord emit-elixir FILE [--free]
      Print the program as the Elixir modules of the elixir target
      (targets/elixir/README.md); --free: the modules of its free runs
      (SPEC §25).
  concord --help | --version

--target takes one name, names joined by commas (c,erlang), or all.
`concord COMMAND --help` prints the part of this help about COMMAND.

concord.json: without --backends, every command that takes --backend reads the
project file concord.json in the working directory or the nearest folder above
it: the same format as a --backends FILE, declaring your backends once; command
words beginning with ./ or ../ are paths from its folder. A --backend NAME that
it declares too replaces its NAME; --backends FILE replaces the whole file.

exit codes:
  0  ok
  1  results disagree (a corpus case differs from its expected result; a target
     differs from the oracle, or answers an error where the oracle has a result)
  2  bad input: unreadable file, malformed JSON or text, invalid program, bad option
  3  internal error (a bug in concord), a target gave no verdict (TIMEOUT,
     CRASH, MEMORY: a fault of the harness or the machine, not a divergence), or
     a file could not be written (a full disk: the message names the file)
  4  not run: the program (for corpus, every case) uses a version or feature
     that the target's declaration does not claim ("supports": the message
     names what)
)";

// The entries of kHelp's usage for `cmd` ("  concord CMD ..." and the lines
// indented under it), then the paragraphs after the usage; "" when there is none.
std::string command_help(const std::string& cmd) {
  std::string help = kHelp, out;
  size_t usage_end = help.find("\n\n", help.find("usage:"));
  bool in = false;
  for (size_t at = 0; at < usage_end;) {
    size_t eol = help.find('\n', at);
    std::string line = help.substr(at, eol - at);
    at = eol + 1;
    if (line.starts_with("  concord ")) {
      std::string word = line.substr(10, line.find_first_of(" |", 10) - 10);
      in = word == cmd;
    } else if (!line.starts_with("    ")) {
      in = false;
    }
    if (in) out += line + "\n";
  }
  return out.empty() ? "" : "usage:\n" + out + help.substr(usage_end + 1);
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
  for (int i = 2; i < argc; i++)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::string part = command_help(cmd);
      if (part.empty()) throw InputError("", "unknown command '" + cmd + "' (see concord --help)");
      std::cout << part;
      return kOk;
    }
  if (cmd == "--version") {
    std::cout << "concord 0.1 (language versions";
    for (int v = kOldestVersion; v <= kNewestVersion; v++)
      std::cout << (v == kOldestVersion ? " " : v == kNewestVersion ? " and " : ", ") << v;
    std::cout << ")\n";
    return kOk;
  }
  if (cmd == "check") return cmd_check(argc, argv);
  if (cmd == "run") return cmd_run(argc, argv);
  if (cmd == "check-trace") return cmd_check_trace(argc, argv);
  if (cmd == "corpus") return cmd_corpus(argc, argv);
  if (cmd == "backend") return cmd_backend(argc, argv);
  if (cmd == "backend-check") return cmd_backend_check(argc, argv);
  if (cmd == "gen") return cmd_gen(argc, argv);
  if (cmd == "fuzz") return cmd_fuzz(argc, argv);
  if (cmd == "shrink") return cmd_shrink(argc, argv);
  if (cmd == "mutants") return cmd_mutants(argc, argv);
  if (cmd == "triage") return cmd_triage(argc, argv);
  if (cmd == "report") return cmd_report(argc, argv);
  if (cmd == "export") return cmd_export(argc, argv);
  if (cmd == "buckets") return cmd_buckets(argc, argv);
  if (cmd == "dialects") return cmd_dialects(argc, argv);
  if (cmd == "conformance") return cmd_conformance(argc, argv);
  if (cmd == "emit-c") return cmd_emit_c(argc, argv);
  if (cmd == "emit-erlang") return cmd_emit_erlang(argc, argv);
  if (cmd == "emit-js") return cmd_emit_js(argc, argv);
  if (cmd == "emit-elixir") return cmd_emit_elixir(argc, argv);
  throw InputError("", "unknown command '" + cmd + "' (see concord --help)");
}

}  // namespace
}  // namespace concord

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // A signal that ends concord first ends its backends and removes its temporary
  // files; what a killed concord of this host left is removed now.
  concord::cleanup::install_fatal_handlers();
  concord::cleanup::sweep(concord::cleanup::temp_base());
  try {
    return concord::dispatch(argc, argv);
  } catch (const concord::InputError& e) {
    std::cerr << "concord: " << e.what() << "\n";
    return concord::kBadInput;
  } catch (const concord::WriteError& e) {  // a full disk, a folder without permission
    std::cerr << "concord: " << concord::printable(e.what()) << "\n";
    return concord::kInternal;
  } catch (const std::exception& e) {
    std::cerr << "concord: internal error: " << concord::printable(e.what()) << "\n";
    return concord::kInternal;
  }
}
