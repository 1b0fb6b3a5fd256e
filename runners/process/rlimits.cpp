// runners/process/rlimits.cpp: set_soft_limit (runners/process/rlimits.hpp).
#include "rlimits.hpp"

#include <sys/resource.h>

namespace concord {

void set_soft_limit(int resource, int64_t soft) {
  struct rlimit cur;
  if (::getrlimit(resource, &cur) != 0) return;
  rlim_t want = static_cast<rlim_t>(soft);
  if (cur.rlim_max != RLIM_INFINITY && want > cur.rlim_max) want = cur.rlim_max;
  rlim_t hard = cur.rlim_max;
  if (resource == RLIMIT_CPU && (hard == RLIM_INFINITY || want + 1 <= hard)) hard = want + 1;  // SIGXCPU, then SIGKILL
  if (resource == RLIMIT_AS) hard = want;
  struct rlimit r = {want, hard};
  ::setrlimit(resource, &r);
}

}  // namespace concord
