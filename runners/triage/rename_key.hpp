// runners/triage/rename_key.hpp: a program up to renaming (issue 17, "one bug, one
// bucket"): two shrunk programs that differ only in the names of their kinds,
// processes, supervisors, fields, parameters, tags and failure codes are one
// finding. The key is the program's canonical JSON form with every name replaced
// by its order of first appearance (n0, n1, ...), one map for all of them, so
// that a name used in several roles stays one name.
#pragma once

#include <map>
#include <string>

#include "oracle/program.hpp"

namespace concord {

std::string rename_key(const Program& p);

// A campaign's buckets by shrunk program: the first signature given a program is
// the bucket of every later one whose program equals it up to renaming.
class RenamedBuckets {
 public:
  // The bucket that `signature`, whose shrunk program is `p`, belongs to: itself
  // when no earlier program equals `p` up to renaming.
  std::string join(const std::string& signature, const Program& p);

 private:
  std::map<std::string, std::string> bucket_of_key_;
};

}  // namespace concord
