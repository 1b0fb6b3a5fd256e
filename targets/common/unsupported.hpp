// targets/common/unsupported.hpp: what an emitter throws for a construct its target
// does not implement (yet). The launchers answer each run of such a program with
// the error UNSUPPORTED (SPEC §10; runners/PROTOCOL.md), never INTERNAL.
#pragma once

#include <stdexcept>
#include <string>

#include "oracle/program.hpp"

namespace concord {

struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every target that does not implement version 2 yet refuses a version 2 program
// as a whole (SPEC §14: its semantics differ even where its statements are those of
// version 1, e.g. an init that fails).
inline void refuse_version_2(const Program& p, const std::string& target) {
  if (p.version >= 2) throw Unsupported(target + " target: version 2 programs (SPEC §14-§23) are not supported yet");
}

}  // namespace concord
