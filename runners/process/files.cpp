// runners/process/files.cpp: atomic files, folders written aside, and the system's own words
// for a failed write.
#include "files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

#include "runners/process/cleanup.hpp"

namespace concord {
namespace {

namespace fs = std::filesystem;

std::atomic<uint64_t> g_counter{0};

std::string temp_name(const std::string& base) {
  return base + ".tmp." + cleanup::temp_tag() + "-" + std::to_string(g_counter++);
}

[[noreturn]] void fail(const std::string& path, int err) {
  throw WriteError("cannot write " + path + ": " + std::strerror(err));
}

// What dead concord processes left in `dir` goes, once per folder and process.
void sweep_once(const std::string& dir) {
  static std::mutex mu;
  static std::set<std::string> swept;
  std::lock_guard<std::mutex> lock(mu);
  if (swept.insert(dir).second) cleanup::sweep(dir.empty() ? "." : dir);
}

void make_parent(const fs::path& file, const std::string& shown) {
  if (!file.has_parent_path()) return;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec)
    throw WriteError("cannot write " + shown + ": cannot create " + file.parent_path().string() + ": " + ec.message());
}

// Writes `text` to the new file `tmp`, flushed to the disk; `shown` names it in errors.
void write_new(const std::string& tmp, const std::string& text, const std::string& shown) {
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(shown, errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(shown, err);
    }
    done += static_cast<size_t>(n);
  }
  int err = ::fsync(fd) == 0 ? 0 : errno;
  if (::close(fd) != 0 && err == 0) err = errno;  // NFS reports a full disk here
  if (err) {
    ::unlink(tmp.c_str());
    fail(shown, err);
  }
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
  fs::path target(path);
  make_parent(target, path);
  sweep_once(target.parent_path().string());
  std::string tmp = temp_name(path);
  std::optional<cleanup::Creating> creating(std::in_place);
  int slot = cleanup::add_path(tmp);
  try {
    write_new(tmp, text, path);
    creating.reset();
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      fail(path, err);
    }
  } catch (...) {
    cleanup::remove_path(slot);
    throw;
  }
  cleanup::remove_path(slot);
}

void write_folder(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                  const std::string& marker) {
  std::set<std::string> names;  // one file each: a second would meet the first in staging
  for (const auto& f : files)
    if (!names.insert(f.first).second)
      throw std::logic_error("write_folder " + dir + ": " + f.first + " is given twice");
  std::error_code ec;
  bool created = !fs::exists(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) throw WriteError("cannot write " + dir + ": " + ec.message());
  sweep_once(dir);
  fs::path staging = fs::path(dir) / temp_name(".concord");
  std::optional<cleanup::Creating> creating(std::in_place);
  int slot = cleanup::add_path(staging.string());
  auto discard = [&] {
    std::error_code rm;
    fs::remove_all(staging, rm);
    if (created && fs::is_empty(dir, rm)) fs::remove(dir, rm);
    cleanup::remove_path(slot);
  };
  try {
    for (const auto& [rel, text] : files) {
      fs::path shown = fs::path(dir) / rel;
      make_parent(staging / rel, shown.string());
      write_new((staging / rel).string(), text, shown.string());
    }
    creating.reset();
    fs::remove(fs::path(dir) / marker, ec);  // the old folder is no longer complete
    if (ec) throw WriteError("cannot write " + dir + ": cannot remove the old " + marker + ": " + ec.message());
    auto move_in = [&](const std::string& rel) {
      fs::path to = fs::path(dir) / rel;
      make_parent(to, to.string());
      if (::rename((staging / rel).c_str(), to.c_str()) != 0) fail(to.string(), errno);
    };
    for (const auto& f : files)
      if (f.first != marker) move_in(f.first);
    for (const auto& f : files)
      if (f.first == marker) move_in(f.first);  // the new one is: the last to arrive
  } catch (...) {
    discard();
    throw;
  }
  std::error_code rm;
  fs::remove_all(staging, rm);
  cleanup::remove_path(slot);
}

}  // namespace concord
