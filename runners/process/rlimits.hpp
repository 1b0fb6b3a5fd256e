// runners/process/rlimits.hpp: setting a child's resource limits between fork and its
// work (Subprocess before exec, the c target's fork server before a program runs).
#pragma once

#include <cstdint>

namespace concord {

// Sets the soft limit of `resource` (RLIMIT_CPU, RLIMIT_AS, ...) to `soft`, at most
// the hard limit. RLIMIT_CPU gets the hard limit soft + 1 (SIGXCPU first, then
// SIGKILL), RLIMIT_AS the hard limit soft. Async-signal-safe: it runs in a forked
// child.
void set_soft_limit(int resource, int64_t soft);

}  // namespace concord
