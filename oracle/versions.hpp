// oracle/versions.hpp: the language versions implemented (SPEC §14.1), from the
// oldest to the newest, every one in between too: the checker refuses any other,
// `concord --version` names them.
#pragma once

namespace concord {

constexpr int kOldestVersion = 1, kNewestVersion = 2;

}  // namespace concord
