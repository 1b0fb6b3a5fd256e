// reports/shown_path.cpp: paths made relative for pages.
#include "shown_path.hpp"

#include <filesystem>

namespace concord {

std::string shown_path(const std::string& path, const std::string& from) {
  namespace fs = std::filesystem;
  if (path.empty()) return path;
  std::error_code ec;  // no working directory (removed): the path as it is
  fs::path base = fs::absolute(from.empty() ? fs::path(".") : fs::path(from), ec);
  if (ec) return path;
  fs::path target = fs::absolute(path, ec);
  if (ec) return path;
  fs::path rel = target.lexically_normal().lexically_proximate(base.lexically_normal());
  return rel.empty() ? path : rel.string();
}

}  // namespace concord
