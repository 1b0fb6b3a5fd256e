// runners/process/cleanup.hpp: what concord must not leave behind. While they exist, its
// temporary files and folders and the reapers of the commands it runs
// (reaper.hpp) are listed here; a signal that ends the process (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT) first asks each reaper to end its command's tree, waits for them
// a moment, removes the listed paths, and only then dies of that signal. What a
// process killed without a chance to clean (SIGKILL, a power cut) left is
// recognised by its name, which carries the host and pid, and removed by the next
// concord on that host: sweep().
//
// The list is fixed-size and lock-free, and the handler uses async-signal-safe
// calls only.
#pragma once

#include <sys/types.h>

#include <string>

namespace concord::cleanup {

// A temporary path (a folder, removed whole, or a file); -1 when the list is full
// (the path is then removed by its owner, or by a later sweep).
int add_path(const std::string& path);
void remove_path(int slot);  // -1: nothing
// Brackets the creation of a temporary path with its listing (add_path before or
// after it): the fatal handler waits (a second at most) for the creations under way
// before it removes the listed paths, and a creation that would begin once the
// handler has begun waits for the process's end instead. So no thread creates a
// temporary path after the handler's last look at the list (a worker whose compile
// the handler just ended would otherwise make the next one's folder meanwhile).
class Creating {
 public:
  Creating();
  ~Creating();
  Creating(const Creating&) = delete;
  Creating& operator=(const Creating&) = delete;
};
// A reaper's pid; -1 when the list is full.
int add_reaper(pid_t pid);
void remove_reaper(int slot);  // -1: nothing

// The handler above for SIGINT, SIGTERM, SIGHUP and SIGQUIT. main() installs it.
void install_fatal_handlers();
// From now on `sig` ends the process with that cleanup. Async-signal-safe: the
// campaign's Ctrl-C handler calls it, so that a second Ctrl-C ends it cleanly.
void make_fatal(int sig);

// $TMPDIR, or /tmp.
std::string temp_base();
// "<host>-<pid>", part of every temporary name: <prefix>-<host>-<pid>-XXXXXX for
// folders, <file>.tmp.<host>-<pid>-<n> for files written atomically.
std::string temp_tag();

// Removes, in `dir`, the temporary folders and files of this host's concord
// processes that are no longer alive. Never throws; returns how many it removed.
int sweep(const std::string& dir);

}  // namespace concord::cleanup
