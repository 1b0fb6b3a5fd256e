// targets/c/launcher/tcc_memory.hpp: an emitted program compiled by libtcc into the
// launcher's own memory, linked against the copy of the runtime that concord carries
// (concord_rt_embedded, targets/c/CMakeLists.txt), in a child of the fork server
// (fork_server.hpp): no compiler process, no linker, no binary on disk (a program
// costs about a third of `tcc prog.c libconcord_rt.a`). The fork keeps what a separate
// binary gave: a crash, a hang or a memory blow-up of the program ends only the child.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace concord {

// Built with libtcc, and tcc's own headers (stddef.h) found where the build saw them.
bool tcc_memory_available();

class TccProgram {
 public:
  // Compiles and relocates `c_text` with -I rt_include and -D for each {name, value};
  // nullptr with the compiler's messages in `error` when it fails.
  static std::unique_ptr<TccProgram> compile(const std::string& c_text, const std::string& rt_include,
                                             const std::vector<std::pair<std::string, std::string>>& defines,
                                             std::string& error);
  ~TccProgram();
  TccProgram(const TccProgram&) = delete;
  TccProgram& operator=(const TccProgram&) = delete;

  // In the forked child only: the runtime's main() on this program (run settings on
  // stdin, result lines on stdout). Returns its exit code.
  int run_main() const;

 private:
  TccProgram() = default;
  void* state_ = nullptr;          // the TCCState holding the relocated code
  const void* program_ = nullptr;  // its cr_the_program
};

}  // namespace concord
