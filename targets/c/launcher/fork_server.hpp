// targets/c/launcher/fork_server.hpp: the c target's fork server. A program compiled by
// libtcc runs in a forked process; forking the launcher itself for every program
// cost more than compiling (its heap, tens of MiB, is copied on write: every page
// the launcher wrote afterwards faulted, with a TLB flush each, and the reaper
// forked the same heap again). So the launcher forks once, while it is small, a
// server that does nothing but fork: per program, a child of the server compiles
// the C text with libtcc and runs it under the program's rlimits, and the server
// relays its output to the launcher.
//
// The server's stdout, line by line: "\x01pid N" (the program's child), then the
// child's output byte for byte (the runtime's result lines: JSON, never a \x01;
// or "\x01cc MESSAGE" when the compile failed, newlines of MESSAGE as \x02), then
// "\x01end exit N" or "\x01end signal N" once the child is reaped; a line cut by the
// child's end is followed by that trailer on the same line. Its stdin, per program:
// "TEXT_BYTES INPUT_BYTES CPU_SECONDS ADDRESS_SPACE_BYTES\n", the C text, the runs.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/backend.hpp"

namespace concord {

struct ForkServerSetup {
  std::string rt_include;                                    // -I for libtcc
  std::vector<std::pair<std::string, std::string>> defines;  // -D for libtcc
};

class ForkServer;

// One program run by the server: its answer lines, its end, its stderr (the
// server's stderr since the program started).
class ForkedProgram : public AnswerSource {
 public:
  Subprocess::Io read_line(std::string& line, Deadline d, size_t max_line) override;
  std::string stderr_text() const override;
  std::optional<ExitStatus> wait_ended(Deadline d) override;
  ExitStatus kill() override;

  // The compiler's messages when libtcc refused the program: set when read_line says
  // kEof instead of the first answer.
  const std::optional<std::string>& compile_error() const { return compile_error_; }
  ~ForkedProgram();  // kill() unless it ended
  // After the answers: waits until `d` for the program to end, then kills it; the
  // server is stopped when it does not answer in time (the next program starts a new one).
  void finish(Deadline d);

 private:
  friend class ForkServer;
  explicit ForkedProgram(ForkServer& s) : server_(s) {}
  bool take_trailer(const std::string& line, size_t at);
  void lose();                    // the server broke the framing or died: stop it, keep its stderr
  bool read_trailer(Deadline d);  // skips lines up to the trailer; false: none by `d`

  ForkServer& server_;
  pid_t pid_ = -1;
  std::optional<std::string> compile_error_;
  std::optional<ExitStatus> status_;  // from the trailer
  bool server_lost_ = false;          // the server died or broke the framing
  std::string lost_stderr_;           // this program's stderr, kept when the server was stopped
  size_t stderr_from_ = 0;            // the length of the server's stderr_text() at the start
};

class ForkServer {
 public:
  explicit ForkServer(ForkServerSetup setup) : setup_(std::move(setup)) {}
  // Sends the program (starting the server if none runs) and reads the child's pid.
  // Throws SubprocessError when the server cannot be started or does not take the
  // program by `d`.
  std::unique_ptr<ForkedProgram> start(const std::string& c_text, const std::string& input, const Limits& limits,
                                       Deadline d);
  void stop();  // kills the server and every program it runs

 private:
  friend class ForkedProgram;
  ForkServerSetup setup_;
  std::unique_ptr<Subprocess> proc_;
};

// The server's loop (the body of its Subprocess); exposed for tests.
int fork_server_main(const ForkServerSetup& setup);

}  // namespace concord
