// targets/common/install_paths.hpp: where a target's runtime is. concord runs
// either from its build tree, where each runtime sits where the build put it, or
// installed (`cmake --install`, the .deb), where every runtime is under
// <prefix>/share/concord and <prefix>/bin holds the executable. The install is found
// relative to the running executable, so an installed concord needs neither its
// build tree nor its sources, and a prefix can be moved as a whole.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace concord {

// <prefix>/share/concord when the running executable is <prefix>/bin/concord of an
// install, else "" (a build tree).
inline std::string installed_share_dir() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  std::filesystem::path share = exe.parent_path().parent_path() / "share" / "concord";
  return std::filesystem::is_directory(share / "targets", ec) ? share.string() : "";
}

// A runtime's path: share_rel under the install's share/concord/targets when
// installed, else build_path (a path in the build or source tree, from CMake).
inline std::string runtime_path(const std::string& share_rel, const std::string& build_path) {
  static const std::string share = installed_share_dir();
  return share.empty() ? build_path : share + "/targets/" + share_rel;
}

}  // namespace concord
