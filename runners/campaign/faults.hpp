// runners/campaign/faults.hpp: the catalogue of planted faults (targets/FAULTS.md), each a
// compile-time switch in a target's runtime that is off in every normal build, and
// how to build that runtime with one switched on, so that `concord backend
// c|erlang|js|elixir` runs it. A fault's switch is CONCORD_FAULT_<NAME> in the C
// runtime and FAULT_<NAME> in the Erlang, JavaScript and Elixir runtimes, NAME being
// the fault's name in upper case.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace concord {

struct Fault {
  std::string name;          // lower_snake, unique across targets: "mailbox_lifo"
  std::string target;        // "c", "erlang", "js" or "elixir"
  std::string about;         // the bug it plants, one line
  std::string file;          // where its switch is, from the repository's root
  std::string failure;       // "": it gives a wrong result; else the failure or error it causes, as a
                             // divergence's kind names it: "crash:SIGSEGV", "hang", "error/INTERNAL";
                             // a free fault: "race" when its trigger shows it only in some runs (a race
                             // between threads), "" when in every run
  std::string profile = "";  // the generator profile whose programs reach it ("": the default);
                             // "links" or "calls" for a fault in a target's version 2 code (SPEC §14-§24)
  bool measurement = false;  // planted only for `concord buckets` (issue 17: faults the attribution was
                             // not tuned to); `concord mutants` leaves it out unless --only names it
  bool free = false;         // in a target's free mode (SPEC §25): only free runs show it, so a free
                             // campaign looks for it (its trigger program's free runs are not admissible)
  int held_out = 0;          // written for issue 39's measurement, never seen by the attribution: the
                             // held-out set it belongs to (1, 2, 3: targets/FAULTS.md, "Held-out set");
                             // 0: not held out. measurement is set too
  std::string rule = "";     // the SPEC section the bug breaks: "§7.2", "§16.3", "§5" ("": not filled in yet)
};

const std::vector<Fault>& fault_catalogue();  // every planted fault, in a fixed order
const Fault* find_fault(const std::string& name);
std::string fault_macro(const Fault& f);  // CONCORD_FAULT_<NAME> (c) or FAULT_<NAME> (erlang, js, elixir)
// The text that guards the fault's code in its file: `#ifdef CONCORD_FAULT_X` (c),
// `-ifdef('FAULT_X')` (erlang, elixir), `FAULT === 'FAULT_X'` (js, fault.js holding the switch).
std::string fault_guard(const Fault& f);

struct FaultSources {
  std::string c_runtime_dir;       // targets/c/runtime
  std::string erlang_runtime_dir;  // targets/erlang/runtime
  std::string base_cc;             // the compiler command for emitted programs, e.g. "cc -O1"
  std::string js_runtime_dir;      // targets/js/runtime
  std::string elixir_runtime_dir;  // targets/elixir/runtime
};

// Builds the target's runtime with the fault switched on, into work_dir (which must
// exist), and returns the environment overrides that make `concord backend
// c|erlang|js|elixir` use it:
//   c:      CONCORD_RT_LIB=<work_dir>/libconcord_rt.a and
//           CONCORD_CC="<base_cc> -I<c_runtime_dir> -DCONCORD_FAULT_<NAME>" (the header's
//           inline helpers need the define too);
//   c, a free fault: CONCORD_RT_FREE_LIB=<work_dir>/libconcord_rt_free.a (the threaded runtime);
//   erlang: CONCORD_ERLANG_EBIN=<work_dir>/ebin;
//   js:     CONCORD_JS_RUNTIME=<work_dir>/runtime (a copy whose fault.js names the switch);
//   elixir: CONCORD_ERLANG_EBIN and CONCORD_ELIXIR_EBIN=<work_dir>/ebin (the shared BEAM
//           runtime and the elixir one's modules, the switch given to every .erl).
// The C library is built with `cc -std=c11 -O2` and `ar rcs`, the Erlang modules with
// the `erlc` on PATH, the Elixir ones with `elixirc`; the JavaScript runtime is copied. Throws std::runtime_error with
// the compiler's output when a build fails.
std::vector<std::pair<std::string, std::string>> build_fault(const Fault& f, const std::string& work_dir,
                                                             const FaultSources& src);

}  // namespace concord
