// runners/triage/attribution_v2.hpp: the SPEC rule behind a first difference that only a
// version 2 program (SPEC §14-§22) can make; attribution.cpp asks it first for a
// version 2 program and goes on with version 1's rules when it has none.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "oracle/program_json.hpp"

namespace concord {

// Whether a program's JSON form is marked `concord 2` (§14.1).
bool is_version_2(const ojson& prog);

// The rule behind the first difference at journal event `i` of the oracle's
// journal `oj` and the target's `tj`, when version 2 made it (a signal, call,
// resume or api event, an auto_shutdown decision, an exit for a reason only
// version 2 gives, a name reused after a failed start); nothing otherwise.
std::optional<std::string> version2_event_rule(const ojson& prog, const ojson& oj, const ojson& tj, size_t i);

// The rule behind the first differing result field of two results whose journals
// agree (§18.3 deadlock, §22 failures, a child list an API request changed).
// Gives the rule and the field.
std::optional<std::pair<std::string, std::string>> version2_field_rule(const ojson& oracle, const ojson& got);

}  // namespace concord
