// runners/process/cleanup.cpp: the lists, the fatal-signal handler and the sweep.
#include "cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>

#include "runners/process/reaper.hpp"

namespace concord::cleanup {
namespace {

constexpr int kPaths = 1024, kReapers = 1024, kPathMax = 4096;

struct PathSlot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 listed
  char path[kPathMax];
};
PathSlot g_paths[kPaths];
std::atomic<pid_t> g_reapers[kReapers];
std::atomic<bool> g_dying{false};  // the fatal handler has begun
std::atomic<int> g_creating{0};    // Creating scopes open, in every thread
thread_local int t_creating = 0;   // ... in this one (the handler's own do not count)

// --- async-signal-safe removal --------------------------------------------------

void remove_at(int parent, const char* name, int depth);

// Removes everything in the open folder `fd` (a few passes: unlinking while
// reading may skip entries).
void empty_folder(int fd, int depth) {
  char buf[4096];
  for (int pass = 0; pass < 8; pass++) {
    bool removed = false;
    ::lseek(fd, 0, SEEK_SET);
    for (;;) {
      long got = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (got <= 0) break;
      for (long off = 0; off < got;) {
        auto* d = reinterpret_cast<struct dirent64*>(buf + off);
        off += d->d_reclen;
        if (d->d_name[0] == '.' && (d->d_name[1] == '\0' || (d->d_name[1] == '.' && d->d_name[2] == '\0'))) continue;
        remove_at(fd, d->d_name, depth + 1);
        removed = true;
      }
    }
    if (!removed) return;
  }
}

void remove_at(int parent, const char* name, int depth) {
  if (::unlinkat(parent, name, 0) == 0 || errno == ENOENT) return;
  if (depth > 32) return;
  int fd = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  empty_folder(fd, depth);
  ::close(fd);
  ::unlinkat(parent, name, AT_REMOVEDIR);
}

void sleep_1ms() {
  struct timespec ms = {0, 1000000};
  ::nanosleep(&ms, nullptr);
}

void on_fatal(int sig) {
  int saved = errno;
  g_dying.store(true);
  for (auto& r : g_reapers)
    if (pid_t p = r.load(); p > 0) ::kill(p, SIGTERM);
  // A moment for each reaper to end its command's tree (milliseconds), so that no
  // command writes into a folder while it is removed.
  for (int waited = 0; waited < 2000; waited++) {
    bool all = true;
    for (auto& r : g_reapers) {
      pid_t p = r.load();
      if (p <= 0) continue;
      int st;
      pid_t got = ::waitpid(p, &st, WNOHANG);
      if (got == p || (got < 0 && errno == ECHILD))
        r.store(0);
      else
        all = false;
    }
    if (all) break;
    sleep_1ms();
  }
  // Creations under way end with their path listed; no new one begins.
  for (int waited = 0; waited < 1000 && g_creating.load() > t_creating; waited++) sleep_1ms();
  for (auto& s : g_paths)
    if (s.state.load() == 2) remove_at(AT_FDCWD, s.path, 0);
  restore_default_signal(sig);
  errno = saved;
  ::raise(sig);
}

bool alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

// The pid in `name` after `marker` ("-<host>-" or ".tmp.<host>-"), followed by '-';
// -1 when the name does not have that shape.
long pid_after(const std::string& name, const std::string& marker) {
  size_t at = name.rfind(marker);
  if (at == std::string::npos) return -1;
  size_t i = at + marker.size();
  long pid = 0;
  size_t start = i;
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && i - start < 10; i++) pid = pid * 10 + (name[i] - '0');
  if (i == start || i >= name.size() || name[i] != '-') return -1;
  return pid;
}

std::string host() {
  char h[256] = {};
  if (::gethostname(h, sizeof h - 1) != 0 || !h[0]) return "localhost";
  std::string out;
  for (const char* p = h; *p; p++) out += (std::isalnum(static_cast<unsigned char>(*p)) || *p == '.') ? *p : '_';
  return out;
}

}  // namespace

int add_path(const std::string& path) {
  if (path.size() >= static_cast<size_t>(kPathMax)) return -1;
  for (int i = 0; i < kPaths; i++) {
    int free = 0;
    if (!g_paths[i].state.compare_exchange_strong(free, 1)) continue;
    std::memcpy(g_paths[i].path, path.c_str(), path.size() + 1);
    g_paths[i].state.store(2);
    return i;
  }
  return -1;
}

void remove_path(int slot) {
  if (slot >= 0 && slot < kPaths) g_paths[slot].state.store(0);
}

Creating::Creating() {
  g_creating.fetch_add(1);
  t_creating++;
  if (g_dying.load()) {  // the process is ending: what would be made here would outlive it
    t_creating--;
    g_creating.fetch_sub(1);
    for (;;) ::pause();
  }
}

Creating::~Creating() {
  t_creating--;
  g_creating.fetch_sub(1);
}

int add_reaper(pid_t pid) {
  for (int i = 0; i < kReapers; i++) {
    pid_t free = 0;
    if (g_reapers[i].compare_exchange_strong(free, pid)) return i;
  }
  return -1;
}

void remove_reaper(int slot) {
  if (slot >= 0 && slot < kReapers) g_reapers[slot].store(0);
}

void make_fatal(int sig) {
  struct sigaction sa {};
  sa.sa_handler = on_fatal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&sa.sa_mask, s);  // one cleanup at a time
  ::sigaction(sig, &sa, nullptr);
}

void install_fatal_handlers() {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) make_fatal(s);
}

std::string temp_base() {
  const char* base = std::getenv("TMPDIR");
  return base && *base ? base : "/tmp";
}

std::string temp_tag() { return host() + "-" + std::to_string(::getpid()); }

int sweep(const std::string& dir) {
  namespace fs = std::filesystem;
  std::string h = host();
  int removed = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    long pid = name.rfind("concord", 0) == 0 ? pid_after(name, "-" + h + "-") : -1;
    if (pid < 0) pid = pid_after(name, ".tmp." + h + "-");
    if (pid < 0 || pid == ::getpid() || alive(pid)) continue;
    std::error_code rm;
    if (fs::remove_all(it->path(), rm) > 0 && !rm) removed++;
  }
  return removed;
}

}  // namespace concord::cleanup
