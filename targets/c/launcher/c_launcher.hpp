// targets/c/launcher/c_launcher.hpp: the `c` target behind the protocol (`concord backend c`):
// emit C for the program, compile it against the runtime: in memory with libtcc, in a
// child of the fork server (fork_server.hpp), or a compiler process linking
// libconcord_rt.a (cached by the C text for the backend's lifetime); run it under
// rlimits with the runs on its stdin ("SEED TURNS MAX_PROCESSES" lines) and relay
// its lines unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/serve.hpp"
#include "targets/c/launcher/fork_server.hpp"
#include "targets/c/launcher/tcc_memory.hpp"
#include "targets/launch.hpp"

namespace concord {

struct CTargetConfig {
  std::function<std::string(const Program&)> emit;  // concord::emit_c
  std::vector<std::string> cc;                      // the compiler and its flags, e.g. {"cc", "-O1"}
  std::string rt_include, rt_lib;                   // -I dir of concord_rt.h; libconcord_rt.a
  double compile_timeout = 120;
  double run_timeout = 30;                         // per run of the compiled program
  double request_timeout = 240;                    // all runs of one request
  int64_t address_space_bytes = int64_t{4} << 30;  // RLIMIT_AS of the program; 0: none (sanitizers)
  size_t cache_size = 8;                           // compiled binaries kept (compiler processes)
  // Compile with libtcc in memory and run, both in a child of the fork server
  // (fork_server.hpp, tcc_memory.hpp), instead of `cc` and `rt_lib`; `defines` are
  // its -D flags.
  bool in_memory = false;
  std::vector<std::pair<std::string, std::string>> defines;
  // Free runs (SPEC §25): the program is linked against the threaded runtime
  // (runtime/free/free.h, libconcord_rt_free.a, with link_flags) and answers traces.
  RunMode mode = RunMode::Conducted;
  std::vector<std::string> link_flags;
  std::vector<std::pair<std::string, std::string>> env;  // the compiled program's, e.g. CONCORD_THREADS
};

// The compiler when $CONCORD_CC is unset: tcc when it is installed (it compiles a
// program about 6 times faster than cc -O1 and bench/fuzz_bench.sh checks the
// results are identical), else cc -O1; sanitized builds always use cc.
std::string default_c_compiler();

// How `concord backend c` compiles: libtcc in memory when it is built in and neither
// $CONCORD_CC nor $CONCORD_RT_LIB is set (a user's compiler, flags or runtime get
// the compiler process they name), else default_c_compiler() as a process.
CTargetConfig c_config_from_env();
// The same for free runs: always a compiler process (libtcc runs no threads in the
// fork server), against libconcord_rt_free.a ($CONCORD_RT_FREE_LIB: another build
// of it, e.g. the ThreadSanitizer one, named libconcord_rt_free_tsan*.a), on `threads` threads (0: $CONCORD_THREADS,
// else twice the cores online, runtime/free/free_main.c says why).
CTargetConfig c_free_config_from_env(int threads);

// The runtime's sources and concord_rt.h: targets/c/runtime of the source tree, or
// of share/concord when installed (targets/common/install_paths.hpp).
std::string c_runtime_dir();

// `concord backend c`: serves the protocol on stdin/stdout until EOF.
int serve_c(const LaunchOptions& o);

class CTarget {
 public:
  explicit CTarget(CTargetConfig cfg);
  // An Answerer (serve.hpp). A failed compile answers INTERNAL "cc failed: ..." per run.
  void answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit);

 private:
  struct Build {
    std::string c_text;
    size_t hash;
    std::unique_ptr<TempDir> dir;  // holds prog.c and prog; removed on eviction and at exit
    std::string binary;
  };
  bool compile_process(const std::string& c_text, Build& b, std::string& error);
  const Build* build(std::string c_text, std::string& error);
  // Runs the good runs (the compiled binary, or the C text through the fork server),
  // relaying their answers and BAD_REQUEST for the others, in order.
  void run(const Program& p, const Build* b, const std::string& c_text, const std::vector<RunRequest>& runs,
           const Emit& emit);

  CTargetConfig cfg_;
  std::list<Build> cache_;             // most recently used first (compiler processes only)
  std::unique_ptr<ForkServer> forks_;  // in memory: compiles and runs every program
};

}  // namespace concord
