// runners/process/subprocess.cpp: Subprocess on Boost.Process v1 + one asio io_context per
// child. The child Boost starts is a reaper (reaper.hpp) whose own child runs the
// command. stdout and stderr always have a read pending; every wait is
// io_context::run_one_until(deadline), so nothing spins. Exit is observed with
// waitid(WNOWAIT) so that the group is killed while its leader's pid is still ours.
#include "subprocess.hpp"
#include "rlimits.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <mutex>
#include <thread>

#include "runners/process/cleanup.hpp"
#include "runners/process/reaper.hpp"

namespace bp = boost::process;
namespace asio = boost::asio;

namespace concord {
namespace {

constexpr size_t kHeadBytes = size_t{8} << 10, kTailBytes = size_t{64} << 10;
// The stdout buffer's storage kept once everything in it was read. A 10,000-process
// run's result line is megabytes: a buffer that kept its largest line's storage held
// that much per backend for the rest of a campaign (measured in the soak: 8 mapped
// blocks, 54 MiB, live in a campaign between programs).
constexpr size_t kKeptOutBuffer = size_t{256} << 10;

void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

void set_cloexec(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

std::string resolve_exe(const std::string& exe) {
  if (exe.empty()) throw SubprocessError("empty command");
  if (exe.find('/') != std::string::npos) return std::filesystem::absolute(exe).string();  // before any chdir
  boost::filesystem::path p = bp::search_path(exe);
  if (p.empty()) throw SubprocessError("'" + exe + "': command not found in PATH");
  return p.string();
}

ExitStatus from_wait_status(int raw) {
  ExitStatus s;
  if (WIFEXITED(raw)) {
    s.code = WEXITSTATUS(raw);
  } else if (WIFSIGNALED(raw)) {
    s.signaled = true;
    s.code = WTERMSIG(raw);
  } else {
    s.code = -1;  // not reaped by us (should not happen)
  }
  return s;
}

// The body of a forked child that does not exec (Subprocess(cmd, body)): the
// descriptors beyond 0-2 closed (among them Boost.Process's exec-error pipe, which
// the harness reads until it closes), stdio forgetting what the harness had
// buffered, then the body; _exit, never exit: the harness's atexit handlers and
// destructors are not the child's to run.
int run_in_child(const std::function<int()>& body) {
  ::close_range(3, ~0U, 0);
  for (FILE* f : {stdin, stdout, stderr}) {
    ::__fpurge(f);
    ::clearerr(f);
  }
  int code = body();
  std::fflush(stdout);
  std::fflush(stderr);
  return code;
}

}  // namespace

Deadline deadline_after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string ExitStatus::describe() const {
  if (!signaled) return code < 0 ? "ended (status unknown)" : "exited with " + std::to_string(code);
  const char* abbrev = ::sigabbrev_np(code);
  return "killed by signal " + std::to_string(code) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
}

struct Subprocess::Impl {
  asio::io_context io;  // first member: destroyed last, after the pipes
  bp::async_pipe in{io}, out{io}, err{io};
  bp::group group;
  bp::child child;
  std::array<char, 65536> out_chunk{}, err_chunk{};
  std::string out_buf;  // unread stdout starts at out_pos
  size_t out_pos = 0;
  bool out_eof = false;
  std::string err_head, err_tail;  // first kHeadBytes, then a sliding last kTailBytes
  size_t err_total = 0;
  bool err_eof = false;
  bool stdin_open = true;
  pid_t command = -1;                // the command's pid (its group's id); the child is its reaper
  int cleanup_slot = -1;             // the reaper, stopped by a fatal signal (cleanup.hpp)
  std::optional<ExitStatus> status;  // set once reaped

  explicit Impl(const Command& cmd, const std::function<int()>* body = nullptr) {
    ignore_sigpipe();
    if (cmd.argv.empty()) throw SubprocessError("empty command");
    for (int fd : {in.native_source(), in.native_sink(), out.native_source(), out.native_sink(), err.native_source(),
                   err.native_sink()})
      set_cloexec(fd);  // no other child inherits these; dup2 onto 0/1/2 clears the flag
    std::string exe = resolve_exe(cmd.argv[0]);
    std::vector<std::string> args(cmd.argv.begin() + 1, cmd.argv.end());
    bp::environment env = boost::this_process::environment();
    // set(), not env[k]: operator[] looks the key up with a memcmp of its full length
    // against every entry, reading past shorter ones (ASan: heap-buffer-overflow).
    for (const auto& [k, v] : cmd.env) env.set(k, v);
    if (!cmd.dir.empty() && !std::filesystem::is_directory(cmd.dir))
      throw SubprocessError("cannot start '" + cmd.argv[0] + "': no directory " + cmd.dir);
    Limits lim = cmd.limits;
    pid_t parent = ::getpid();
    const char* dir = cmd.dir.empty() ? nullptr : cmd.dir.c_str();
    int pid_pipe[2];  // the reaper tells the command's pid through it
    if (::pipe2(pid_pipe, O_CLOEXEC) != 0)
      throw SubprocessError("cannot start '" + cmd.argv[0] + "': pipe: " + std::strerror(errno));
    int pid_sink = pid_pipe[1];
    auto exec_setup = [lim, parent, dir, pid_sink, body](auto&) {
      if (dir && ::chdir(dir) != 0) ::_exit(127);
      for (int fd = 0; fd < 3; fd++) ::fcntl(fd, F_SETFD, 0);
      struct rlimit no_core = {0, 0};
      ::setrlimit(RLIMIT_CORE, &no_core);
      ::signal(SIGPIPE, SIG_DFL);
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);       // the reaper's cue to end the command's tree
      if (::getppid() != parent) ::_exit(127);  // the harness died before prctl
      split_reaper(pid_sink);                   // returns in the command only
      if (lim.cpu_seconds > 0) set_soft_limit(RLIMIT_CPU, lim.cpu_seconds);
      if (lim.address_space_bytes > 0) set_soft_limit(RLIMIT_AS, lim.address_space_bytes);
      // A body is a copy of the harness: its fatal-signal handler (cleanup.hpp) would
      // remove the harness's temporary files. Exec resets it; a body must too.
      for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(sig, SIG_DFL);
      if (body) ::_exit(run_in_child(*body));  // instead of exec
    };
    // With an error_code, Boost.Process reports a failed exec through on_error, where
    // the forked child can be reaped (the throwing variant leaves it a zombie).
    auto reap_failed = [](auto& exec, const std::error_code&) {
      if (exec.pid > 0) ::waitpid(exec.pid, nullptr, 0);
    };
    std::error_code ec;
    child = bp::child(bp::exe = exe, bp::args = args, bp::std_in<in, bp::std_out> out, bp::std_err > err, group, env,
                      bp::extend::on_exec_setup = exec_setup, bp::extend::on_error = reap_failed, ec);
    ::close(pid_pipe[1]);
    std::string problem = ec ? ec.message() : "";
    if (!ec) {
      ssize_t n;
      while ((n = ::read(pid_pipe[0], &command, sizeof command)) < 0 && errno == EINTR) {
      }
      if (n != static_cast<ssize_t>(sizeof command) || command <= 0) problem = "its reaper could not fork it";
    }
    ::close(pid_pipe[0]);
    if (!problem.empty()) {
      if (child.valid()) reap();
      throw SubprocessError("cannot start '" + cmd.argv[0] + "': " + problem);
    }
    cleanup_slot = cleanup::add_reaper(child.id());
    read_out();
    read_err();
  }

  // Everything buffered was read: empty, and a large buffer's storage freed.
  void all_read() {
    out_pos = 0;
    if (out_buf.capacity() > kKeptOutBuffer)
      std::string().swap(out_buf);
    else
      out_buf.clear();
  }

  void read_out() {
    out.async_read_some(asio::buffer(out_chunk), [this](const boost::system::error_code& ec, size_t n) {
      out_buf.append(out_chunk.data(), n);
      if (ec)
        out_eof = true;
      else
        read_out();
    });
  }

  void read_err() {
    err.async_read_some(asio::buffer(err_chunk), [this](const boost::system::error_code& ec, size_t n) {
      std::string_view got(err_chunk.data(), n);
      err_total += n;
      size_t to_head = std::min(got.size(), kHeadBytes - err_head.size());
      err_head.append(got.substr(0, to_head));
      err_tail.append(got.substr(to_head));
      if (err_tail.size() > 2 * kTailBytes) err_tail.erase(0, err_tail.size() - kTailBytes);
      if (ec)
        err_eof = true;
      else
        read_err();
    });
  }

  // Runs one ready handler, blocking until `d` at most. False: the deadline passed or
  // there is no more work (both pipes closed and no write pending).
  bool pump(Deadline d) {
    if (io.stopped()) io.restart();
    return io.run_one_until(d) > 0;
  }

  // Asks the reaper to end the command's tree (it exits at once when the command
  // has ended already), waits for it briefly, then SIGKILLs whatever is left of
  // its group and reaps it.
  void reap() {
    std::error_code ec;
    pid_t reaper = child.id();
    ::kill(reaper, SIGTERM);
    Deadline d = deadline_after(5.0);
    for (auto nap = std::chrono::microseconds(100); Clock::now() < d;
         nap = std::min(nap * 2, std::chrono::microseconds(20000))) {
      siginfo_t info;
      std::memset(&info, 0, sizeof info);
      int r = ::waitid(P_PID, static_cast<id_t>(reaper), &info, WEXITED | WNOHANG | WNOWAIT);
      if (r == -1 && errno == EINTR) continue;
      if (r == -1 || info.si_pid != 0) break;
      std::this_thread::sleep_for(nap);
    }
    if (group.valid()) group.terminate(ec);  // killpg(SIGKILL) while the leader's pid is still held
    child.wait(ec);
    status = from_wait_status(child.native_exit_code());
    cleanup::remove_reaper(cleanup_slot);
    cleanup_slot = -1;
  }
};

Subprocess::Subprocess(const Command& cmd) : impl_(std::make_unique<Impl>(cmd)) {}

Subprocess::Subprocess(const Command& cmd, std::function<int()> body) : impl_(std::make_unique<Impl>(cmd, &body)) {}

Subprocess::~Subprocess() {
  if (impl_ && !impl_->status) impl_->reap();
}

pid_t Subprocess::pid() const { return impl_->command; }

Subprocess::Io Subprocess::write(std::string_view data, Deadline d) {
  Impl& m = *impl_;
  if (!m.stdin_open) return Io::kEof;
  struct Pending {
    std::string data;
    bool done = false;
    boost::system::error_code ec;
  };
  auto p = std::make_shared<Pending>();  // outlives us if the write is still pending at the deadline
  p->data.assign(data);
  asio::async_write(m.in, asio::buffer(p->data), [p](const boost::system::error_code& ec, size_t) {
    p->done = true;
    p->ec = ec;
  });
  while (!p->done && m.pump(d)) {
  }
  if (!p->done) return Io::kTimeout;
  if (p->ec) {
    close_stdin();
    return Io::kEof;
  }
  return Io::kOk;
}

void Subprocess::close_stdin() {
  boost::system::error_code ec;
  impl_->in.close(ec);
  impl_->stdin_open = false;
}

Subprocess::Io Subprocess::read_line(std::string& line, Deadline d, size_t max_line) {
  Impl& m = *impl_;
  size_t scanned = m.out_pos;
  for (;;) {
    size_t nl = m.out_buf.find('\n', scanned);
    if (nl != std::string::npos) {
      line.assign(m.out_buf, m.out_pos, nl - m.out_pos);
      m.out_pos = nl + 1;
      if (m.out_pos == m.out_buf.size()) {
        m.all_read();
      } else if (m.out_pos > (size_t{1} << 20) && m.out_pos * 2 > m.out_buf.size()) {
        m.out_buf.erase(0, m.out_pos);
        m.out_pos = 0;
      }
      return Io::kOk;
    }
    scanned = m.out_buf.size();
    if (m.out_eof) {
      line.assign(m.out_buf, m.out_pos);
      m.all_read();
      return Io::kEof;
    }
    if (m.out_buf.size() - m.out_pos > max_line) return Io::kTooLong;
    if (!m.pump(d) && Clock::now() >= d) return Io::kTimeout;
  }
}

Subprocess::Io Subprocess::read_to_eof(std::string& all, Deadline d, size_t max_bytes) {
  Impl& m = *impl_;
  for (;;) {
    if (m.out_buf.size() > m.out_pos) {
      size_t room = max_bytes > all.size() ? max_bytes - all.size() : 0;
      all.append(m.out_buf, m.out_pos, std::min(room, m.out_buf.size() - m.out_pos));
      m.all_read();
    }
    if (m.out_eof) return Io::kEof;
    if (!m.pump(d) && Clock::now() >= d) return Io::kTimeout;
  }
}

bool Subprocess::output_pending() {
  Impl& m = *impl_;
  if (m.io.stopped()) m.io.restart();
  m.io.poll();
  return m.out_pos < m.out_buf.size() || m.out_eof;
}

void Subprocess::drain_stderr(Deadline d) {
  while (!impl_->err_eof && impl_->pump(d)) {
  }
}

std::string Subprocess::stderr_text() const {
  const Impl& m = *impl_;
  size_t kept = m.err_head.size() + std::min(m.err_tail.size(), kTailBytes);
  std::string tail = m.err_tail.size() > kTailBytes ? m.err_tail.substr(m.err_tail.size() - kTailBytes) : m.err_tail;
  if (m.err_total <= kept) return m.err_head + tail;
  return m.err_head + "\n[... " + std::to_string(m.err_total - kept) + " bytes of stderr omitted ...]\n" + tail;
}

std::optional<ExitStatus> Subprocess::wait_until(Deadline d) {
  Impl& m = *impl_;
  auto nap = std::chrono::milliseconds(1);
  while (!m.status) {
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    int r = ::waitid(P_PID, static_cast<id_t>(m.child.id()), &info, WEXITED | WNOHANG | WNOWAIT);
    if (r == -1 && errno == EINTR) continue;
    if (r == -1 || info.si_pid != 0) {  // exited (a zombie still holding its pid), or not waitable
      m.reap();
      break;
    }
    auto now = Clock::now();
    if (now >= d) return std::nullopt;
    // A short, bounded nap: only used once stdout has closed and the exit is imminent.
    std::this_thread::sleep_for(std::min<Clock::duration>(nap, d - now));
    nap = std::min(nap * 2, std::chrono::milliseconds(20));
  }
  return m.status;
}

ExitStatus Subprocess::kill() {
  if (!impl_->status) impl_->reap();
  return *impl_->status;
}

CommandResult run_command(const Command& cmd, const std::string& stdin_text, double timeout_seconds) {
  CommandResult r;
  Deadline d = deadline_after(timeout_seconds);
  Subprocess p(cmd);
  bool late = !stdin_text.empty() && p.write(stdin_text, d) == Subprocess::Io::kTimeout;
  p.close_stdin();
  if (!late) late = p.read_to_eof(r.out, d) == Subprocess::Io::kTimeout;
  if (!late) p.drain_stderr(d);
  std::optional<ExitStatus> s;
  if (!late) s = p.wait_until(d);
  r.timed_out = !s;
  r.status = s ? *s : p.kill();
  r.err = p.stderr_text();
  return r;
}

TempDir::TempDir(const std::string& prefix) {
  std::string tmpl =
      (std::filesystem::path(cleanup::temp_base()) / (prefix + "-" + cleanup::temp_tag() + "-XXXXXX")).string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  cleanup::Creating creating;
  if (!::mkdtemp(buf.data()))
    throw std::runtime_error("cannot create a temporary directory " + tmpl + ": " + std::strerror(errno));
  path_ = buf.data();
  slot_ = cleanup::add_path(path_);
}

TempDir::~TempDir() { remove(); }

TempDir& TempDir::operator=(TempDir&& o) noexcept {
  if (this != &o) {
    remove();
    path_ = std::exchange(o.path_, {});
    slot_ = std::exchange(o.slot_, -1);
  }
  return *this;
}

void TempDir::remove() noexcept {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  cleanup::remove_path(slot_);
  slot_ = -1;
  path_.clear();
}

}  // namespace concord
