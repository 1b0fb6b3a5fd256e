// runners/process/reaper.cpp: split_reaper() and the reaper's loop. Raw system calls only:
// this runs in a fork of the harness, where another thread may have held the
// allocator's lock at the fork.
#include "reaper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <initializer_list>

namespace concord {
namespace {

constexpr int kMaxListed = 4096;  // children killed per round; more wait for the next round

// "prefix<n>suffix" into out (at most `size` bytes, NUL-terminated).
void path_with_pid(char* out, size_t size, const char* prefix, long n, const char* suffix) {
  size_t i = 0;
  for (const char* p = prefix; *p && i + 1 < size; p++) out[i++] = *p;
  char digits[24];
  int d = 0;
  do digits[d++] = static_cast<char>('0' + n % 10);
  while ((n /= 10) > 0 && d < 23);
  while (d > 0 && i + 1 < size) out[i++] = digits[--d];
  for (const char* p = suffix; *p && i + 1 < size; p++) out[i++] = *p;
  out[i] = '\0';
}

// Reads a whole small file into buf; returns its length, or -1.
ssize_t read_small(const char* path, char* buf, size_t size) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t n = 0;
  for (;;) {
    ssize_t r = ::read(fd, buf + n, size - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += static_cast<size_t>(r);
    if (n == size) break;
  }
  ::close(fd);
  return static_cast<ssize_t>(n);
}

// The parent pid field of /proc/<pid>/stat ("pid (comm) state ppid ..."), or -1.
long ppid_of(const char* pid_name) {
  char path[64], buf[1024];
  size_t i = 0;
  for (const char* p = "/proc/"; *p; p++) path[i++] = *p;
  for (const char* p = pid_name; *p && i < 50; p++) path[i++] = *p;
  for (const char* p = "/stat"; *p; p++) path[i++] = *p;
  path[i] = '\0';
  ssize_t n = read_small(path, buf, sizeof buf - 1);
  if (n <= 0) return -1;
  ssize_t close = -1;
  for (ssize_t k = 0; k < n; k++)
    if (buf[k] == ')') close = k;  // the last ')': comm may contain one
  ssize_t k = close + 1;
  while (k < n && buf[k] == ' ') k++;
  while (k < n && buf[k] != ' ') k++;  // the state letter
  while (k < n && buf[k] == ' ') k++;
  long ppid = 0;
  bool any = false;
  for (; k < n && buf[k] >= '0' && buf[k] <= '9'; k++, any = true) ppid = ppid * 10 + (buf[k] - '0');
  return any && close >= 0 ? ppid : -1;
}

// The children of `me`: /proc/self/task/<me>/children (CONFIG_PROC_CHILDREN), else a
// scan of /proc/*/stat for the parent pid. Returns how many were written to out.
int list_children(pid_t me, pid_t* out, int max) {
  char path[64];
  path_with_pid(path, sizeof path, "/proc/self/task/", me, "/children");
  static char buf[1 << 16];  // the reaper is single-threaded
  ssize_t n = read_small(path, buf, sizeof buf);
  int count = 0;
  if (n >= 0) {
    long v = 0;
    bool in = false;
    for (ssize_t k = 0; k <= n && count < max; k++) {
      if (k < n && buf[k] >= '0' && buf[k] <= '9') {
        v = v * 10 + (buf[k] - '0');
        in = true;
      } else if (in) {
        out[count++] = static_cast<pid_t>(v);
        v = 0;
        in = false;
      }
    }
    return count;
  }
  int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  for (;;) {
    long got = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (got <= 0) break;
    for (long off = 0; off < got && count < max;) {
      auto* d = reinterpret_cast<struct dirent64*>(buf + off);
      off += d->d_reclen;
      if (d->d_name[0] < '1' || d->d_name[0] > '9') continue;
      if (ppid_of(d->d_name) == me) {
        long v = 0;
        for (const char* p = d->d_name; *p; p++) v = v * 10 + (*p - '0');
        out[count++] = static_cast<pid_t>(v);
      }
    }
  }
  ::close(dir);
  return count;
}

void note(pid_t p, int st, pid_t watched, int* watched_status, bool* watched_reaped) {
  if (p == watched) {
    *watched_status = st;
    *watched_reaped = true;
  }
}

// Ends this process as the command ended: its exit code, or its signal.
[[noreturn]] void exit_as(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    restore_default_signal(sig);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);  // a signal whose default is not to terminate
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

[[noreturn]] void reaper_loop(pid_t command) {
  sigset_t waited;
  sigemptyset(&waited);
  for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&waited, s);
  int status = 0;
  bool reaped = false;
  for (;;) {
    struct timespec tick = {1, 0};  // also a safety net for a lost SIGCHLD
    int sig = ::sigtimedwait(&waited, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT) break;
    int st;
    for (pid_t p; (p = ::waitpid(-1, &st, WNOHANG)) > 0;) note(p, st, command, &status, &reaped);
    if (reaped) break;
  }
  kill_all_children(command, command, &status, &reaped);
  exit_as(reaped ? status : SIGKILL);  // a bare SIGKILL is also a valid wait status
}

}  // namespace

void kill_all_children(pid_t pgid, pid_t watched, int* watched_status, bool* watched_reaped) {
  if (pgid > 0) ::kill(-pgid, SIGKILL);
  pid_t me = ::getpid();
  static pid_t kids[kMaxListed];
  int unlisted = 0;  // rounds where children existed but none was listed
  for (;;) {
    int st;
    pid_t p;
    while ((p = ::waitpid(-1, &st, WNOHANG)) > 0) note(p, st, watched, watched_status, watched_reaped);
    if (p < 0 && errno == ECHILD) return;  // none left
    int n = list_children(me, kids, kMaxListed);
    if (n == 0) {  // a child between exit and re-parenting, or no /proc: try again shortly
      if (++unlisted > 2000) return;
      struct timespec ms = {0, 1000000};
      ::nanosleep(&ms, nullptr);
      continue;
    }
    for (int i = 0; i < n; i++) {
      ::kill(-kids[i], SIGKILL);  // its group, when it leads one (setsid, setpgid)
      ::kill(kids[i], SIGKILL);
    }
    for (int i = 0; i < n; i++) {  // their own children are ours once they are reaped
      while ((p = ::waitpid(kids[i], &st, 0)) < 0 && errno == EINTR) {
      }
      if (p > 0) note(p, st, watched, watched_status, watched_reaped);
    }
  }
}

void restore_default_signal(int sig) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
}

void split_reaper(int pid_fd) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &dfl, nullptr);  // SIG_IGN would reap the command behind our back
  sigset_t waited, old;
  sigemptyset(&waited);
  for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaddset(&waited, s);
  ::sigprocmask(SIG_BLOCK, &waited, &old);
  pid_t me = ::getpid();
  pid_t command = ::fork();
  if (command == 0) {
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::setpgid(0, 0);                      // its own group: the reaper kills it whole
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);   // the reaper gone: so is the command
    if (::getppid() != me) ::_exit(127);  // the reaper died before prctl
    return;
  }
  (void)!::write(pid_fd, &command, sizeof command);
  if (::syscall(SYS_close_range, 0u, ~0u, 0u) != 0)
    for (int fd = 0; fd < 65536; fd++) ::close(fd);
  if (command < 0) ::_exit(127);
  reaper_loop(command);
}

}  // namespace concord
