// runners/faults.hpp: the catalogue of planted faults (targets/FAULTS.md), each a
// compile-time switch in a target's runtime that is off in every normal build, and
// how to build that runtime with one switched on, so that `concord backend c|erlang`
// runs it. A fault's switch is CONCORD_FAULT_<NAME> in the C runtime and
// FAULT_<NAME> in the Erlang runtime, NAME being the fault's name in upper case.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace concord {

struct Fault {
  std::string name;     // lower_snake, unique across targets: "mailbox_lifo"
  std::string target;   // "c" or "erlang"
  std::string about;    // the bug it plants, one line
  std::string file;     // where its switch is, from the repository's root
  std::string failure;  // "": it gives a wrong result; else the failure or error it causes, as a
                        // divergence's kind names it: "crash:SIGSEGV", "hang", "error/INTERNAL"
};

const std::vector<Fault>& fault_catalogue();  // every planted fault, in a fixed order
const Fault* find_fault(const std::string& name);
std::string fault_macro(const Fault& f);  // CONCORD_FAULT_<NAME> (c) or FAULT_<NAME> (erlang)

struct FaultSources {
  std::string c_runtime_dir;       // targets/c/runtime
  std::string erlang_runtime_dir;  // targets/erlang/runtime
  std::string base_cc;             // the compiler command for emitted programs, e.g. "cc -O1"
};

// Builds the target's runtime with the fault switched on, into work_dir (which must
// exist), and returns the environment overrides that make `concord backend c|erlang`
// use it:
//   c:      CONCORD_RT_LIB=<work_dir>/libconcord_rt.a and
//           CONCORD_CC="<base_cc> -I<c_runtime_dir> -DCONCORD_FAULT_<NAME>" (the header's
//           inline helpers need the define too);
//   erlang: CONCORD_ERLANG_EBIN=<work_dir>/ebin.
// The C library is built with `cc -std=c11 -O2` and `ar rcs`, the Erlang modules with
// the `erlc` on PATH. Throws std::runtime_error with the compiler's output when a
// build fails.
std::vector<std::pair<std::string, std::string>> build_fault(const Fault& f, const std::string& work_dir,
                                                             const FaultSources& src);

}  // namespace concord
