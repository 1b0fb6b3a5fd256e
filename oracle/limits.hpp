// oracle/limits.hpp: the limits of SPEC §11, one constant each.
#pragma once

#include <cstdint>

namespace concord {

constexpr int kMaxDepth = 64;         // nesting of statements, expressions, supervisors
constexpr int kMaxTextNesting = 256;  // parentheses and unary operators nested in text (§12.1)
constexpr int kMaxNameLength = 32;
constexpr int64_t kMaxRepeat = 1000;
constexpr int64_t kMaxIntensity2 = 1000;         // intensity of a supervisor, version 2 (§14.3 V13)
constexpr int64_t kMaxWeight = 100000;           // statements run per body, at most (§4.8)
constexpr int kMaxArgs = 16;                     // arguments per message, parameters per kind
constexpr int64_t kMaxTurns = 1000000000;
constexpr int64_t kMaxProcesses = 10000000;
constexpr int64_t kDefaultTurns = 1000;
constexpr int64_t kDefaultProcesses = 10000;
constexpr int64_t kMaxInputBytes = 16 * 1024 * 1024;

}  // namespace concord
