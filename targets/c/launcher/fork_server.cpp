// targets/c/launcher/fork_server.cpp: the fork server's loop and the launcher's side of it
// (targets/c/launcher/fork_server.hpp).
#include "fork_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "oracle/printable.hpp"
#include "runners/process/rlimits.hpp"
#include "targets/c/launcher/tcc_memory.hpp"

namespace concord {
namespace {

constexpr char kMark = '\x01';                 // the server's own lines start with it (fork_server.hpp)
constexpr char kCompileError[] = "\001cc ";    // then the compiler's messages
constexpr char kTrailer[] = "\001%7s %7s %d";  // "\x01end exit N", "\x01end signal N"
constexpr size_t kHeaderMax = 200;

bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool write_all(int fd, const std::string& s) { return write_all(fd, s.data(), s.size()); }

// Buffered reads of the server's stdin.
struct Input {
  std::string buf;
  size_t pos = 0;
  bool fill() {
    if (pos == buf.size()) {
      buf.clear();
      pos = 0;
    }
    char chunk[65536];
    for (;;) {
      ssize_t r = ::read(0, chunk, sizeof chunk);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      buf.append(chunk, static_cast<size_t>(r));
      return true;
    }
  }
  bool line(std::string& out) {
    for (;;) {
      size_t nl = buf.find('\n', pos);
      if (nl != std::string::npos) {
        out.assign(buf, pos, nl - pos);
        pos = nl + 1;
        return true;
      }
      if (buf.size() - pos > kHeaderMax || !fill()) return false;
    }
  }
  bool exact(size_t n, std::string& out) {
    out.clear();
    while (out.size() < n) {
      if (pos == buf.size() && !fill()) return false;
      size_t take = std::min(n - out.size(), buf.size() - pos);
      out.append(buf, pos, take);
      pos += take;
    }
    return true;
  }
};

// The child: compile, run, _exit. Its stdin and stdout are the pipes of `in` and `out`.
[[noreturn]] void run_child(const ForkServerSetup& setup, pid_t server, const std::string& text, int in, int out,
                            long long cpu, long long as) {
  ::dup2(in, 0);
  ::dup2(out, 1);
  ::syscall(SYS_close_range, 3u, ~0u, 0u);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != server) ::_exit(127);
  ::signal(SIGPIPE, SIG_DFL);
  if (cpu > 0) set_soft_limit(RLIMIT_CPU, cpu);
  if (as > 0) set_soft_limit(RLIMIT_AS, as);
  std::string messages;
  std::unique_ptr<TccProgram> p = TccProgram::compile(text, setup.rt_include, setup.defines, messages);
  if (!p) {
    for (char& c : messages)
      if (c == '\n')
        c = '\x02';
      else if (c == kMark)
        c = ' ';
    std::string line = kCompileError + (messages.empty() ? "libtcc: compile failed" : messages) + "\n";
    ::_exit(write_all(1, line) ? 0 : 1);
  }
  for (FILE* f : {stdin, stdout, stderr}) {
    ::__fpurge(f);
    ::clearerr(f);
  }
  int code = p->run_main();
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(code);
}

// Writes `input` to the child's stdin and copies its stdout to ours until it closes.
// False: our stdout is gone (the launcher ended).
bool relay(int to_child, std::string_view input, int from_child) {
  bool ok = true;
  if (input.empty()) {
    ::close(to_child);
    to_child = -1;
  }
  char buf[65536];
  for (;;) {
    struct pollfd fds[2] = {{from_child, POLLIN, 0}, {to_child, POLLOUT, 0}};
    if (::poll(fds, to_child >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (to_child >= 0 && fds[1].revents) {
      ssize_t w =
          (fds[1].revents & POLLOUT) ? ::write(to_child, input.data(), std::min<size_t>(input.size(), 65536)) : -1;
      if (w > 0) input.remove_prefix(static_cast<size_t>(w));
      if (input.empty() || (w < 0 && errno != EINTR && errno != EAGAIN)) {
        ::close(to_child);  // all written, or the child stopped reading
        to_child = -1;
      }
    }
    if (fds[0].revents) {
      ssize_t r = ::read(from_child, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      if (ok && !write_all(1, buf, static_cast<size_t>(r))) ok = false;  // keep draining: the child must not block
    }
  }
  if (to_child >= 0) ::close(to_child);
  ::close(from_child);
  return ok;
}

}  // namespace

int fork_server_main(const ForkServerSetup& setup) {
  ::signal(SIGPIPE, SIG_IGN);  // a child that stops reading its stdin is an EPIPE
  pid_t me = ::getpid();
  Input in;
  std::string header, text, input;
  for (;;) {
    if (!in.line(header)) return 0;  // end of input: the launcher is done
    unsigned long long text_n = 0, input_n = 0;
    long long cpu = 0, as = 0;
    if (std::sscanf(header.c_str(), "%llu %llu %lld %lld", &text_n, &input_n, &cpu, &as) != 4) return 2;
    if (!in.exact(text_n, text) || !in.exact(input_n, input)) return 2;
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0) return 3;
    if (::pipe2(from_child, O_CLOEXEC) != 0) return 3;
    pid_t pid = ::fork();
    if (pid == 0) run_child(setup, me, text, to_child[0], from_child[1], cpu, as);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (pid < 0) {
      write_all(1, std::string(1, kMark) + "fail fork: " + std::strerror(errno) + "\n");
      ::close(to_child[1]);
      ::close(from_child[0]);
      continue;
    }
    ::fcntl(to_child[1], F_SETFL, O_NONBLOCK);
    bool ok = write_all(1, std::string(1, kMark) + "pid " + std::to_string(pid) + "\n");
    ok = relay(to_child[1], input, from_child[0]) && ok;
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    std::string end = WIFSIGNALED(st) ? "signal " + std::to_string(WTERMSIG(st))
                                      : "exit " + std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    if (!ok || !write_all(1, std::string(1, kMark) + "end " + end + "\n")) return 0;
  }
}

// --- the launcher's side ------------------------------------------------------------

std::unique_ptr<ForkedProgram> ForkServer::start(const std::string& c_text, const std::string& input,
                                                 const Limits& limits, Deadline d) {
  std::string request = std::to_string(c_text.size()) + " " + std::to_string(input.size()) + " " +
                        std::to_string(limits.cpu_seconds) + " " + std::to_string(limits.address_space_bytes) + "\n" +
                        c_text + input;
  for (;;) {
    bool fresh = !proc_;
    if (fresh) {
      ForkServerSetup setup = setup_;
      proc_ = std::make_unique<Subprocess>(Command{{"/proc/self/exe"}, {}, "", {}},
                                           [setup] { return fork_server_main(setup); });
    }
    size_t stderr_from = proc_->stderr_text().size();
    std::string line;
    Subprocess::Io w = proc_->write(request, d);
    Subprocess::Io r = w == Subprocess::Io::kOk ? proc_->read_line(line, d, 4096) : w;
    const std::string pid_mark = std::string(1, kMark) + "pid ";
    if (r == Subprocess::Io::kOk && line.rfind(pid_mark, 0) == 0) {
      std::unique_ptr<ForkedProgram> p(new ForkedProgram(*this));
      p->stderr_from_ = stderr_from;
      p->pid_ = static_cast<pid_t>(std::strtol(line.c_str() + pid_mark.size(), nullptr, 10));
      return p;
    }
    std::string why = r == Subprocess::Io::kTimeout ? "no answer in time"
                      : line.empty()                ? "it ended (" + proc_->kill().describe() + ")"
                                                    : printable(line.substr(1));
    stop();
    // A server that served earlier programs and is gone now (killed by someone): once
    // more with a new one.
    if (fresh || r == Subprocess::Io::kTimeout)
      throw SubprocessError("the fork server did not start the program: " + why);
  }
}

void ForkServer::stop() {
  if (proc_) proc_->kill();
  proc_.reset();
}

ForkedProgram::~ForkedProgram() {
  if (!status_ && !server_lost_) kill();
}

void ForkedProgram::lose() {
  lost_stderr_ = stderr_text();
  server_lost_ = true;
  server_.stop();
}

bool ForkedProgram::take_trailer(const std::string& line, size_t at) {
  char end[8] = "", how[8] = "";
  int n = 0;
  if (std::sscanf(line.c_str() + at, kTrailer, end, how, &n) != 3 || std::strcmp(end, "end") != 0) return false;
  if (std::strcmp(how, "exit") != 0 && std::strcmp(how, "signal") != 0) return false;
  status_ = ExitStatus{how[0] == 's', n};
  return true;
}

Subprocess::Io ForkedProgram::read_line(std::string& line, Deadline d, size_t max_line) {
  line.clear();
  if (status_ || server_lost_ || compile_error_) return Subprocess::Io::kEof;
  Subprocess::Io r = server_.proc_->read_line(line, d, max_line + 32);  // room for a trailer after a cut line
  if (r == Subprocess::Io::kEof) {
    lose();
    return r;
  }
  if (r != Subprocess::Io::kOk) return r;
  size_t at = line.find(kMark);
  if (at == std::string::npos) return r;
  if (at == 0 && line.rfind(kCompileError, 0) == 0) {
    compile_error_ = line.substr(sizeof kCompileError - 1);
    for (char& c : *compile_error_)
      if (c == '\x02') c = '\n';
    line.clear();
    return Subprocess::Io::kEof;
  }
  if (!take_trailer(line, at)) {
    lose();
    line.clear();
    return Subprocess::Io::kEof;
  }
  line.resize(at);  // what the child wrote of a line before it ended
  return Subprocess::Io::kEof;
}

std::string ForkedProgram::stderr_text() const {
  if (server_lost_ || !server_.proc_) return lost_stderr_;
  std::string all = server_.proc_->stderr_text();
  return all.size() >= stderr_from_ ? all.substr(stderr_from_) : all;
}

bool ForkedProgram::read_trailer(Deadline d) {
  std::string line;
  while (!status_ && !server_lost_) {
    Subprocess::Io r = server_.proc_->read_line(line, d, size_t{1} << 20);
    if (r == Subprocess::Io::kTimeout) return false;
    size_t at = r == Subprocess::Io::kOk ? line.find(kMark) : std::string::npos;
    if (r != Subprocess::Io::kOk || (at != std::string::npos && !take_trailer(line, at))) lose();
    // a line without the mark: output after the last answer, not asked for
  }
  return status_.has_value();
}

std::optional<ExitStatus> ForkedProgram::wait_ended(Deadline d) {
  if (!read_trailer(d)) return std::nullopt;
  // What the child wrote on stderr just before it ended may not have been read yet.
  server_.proc_->drain_stderr(std::min(d, deadline_after(0.02)));
  return status_;
}

ExitStatus ForkedProgram::kill() {
  if (!status_ && !server_lost_) {
    if (pid_ > 0) ::kill(pid_, SIGKILL);  // not reaped before the trailer says so: the pid is still its
    if (!read_trailer(deadline_after(5.0)) && !server_lost_) lose();
  }
  return status_ ? *status_ : ExitStatus{true, SIGKILL};
}

void ForkedProgram::finish(Deadline d) {
  if (!read_trailer(d)) kill();
}

}  // namespace concord
