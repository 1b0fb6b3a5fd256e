// runners/protocol/diff.hpp: the first difference between two results, as a JSON pointer
// and the two values there; for a journal, the event index is part of the pointer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/program_json.hpp"

namespace concord {

struct Difference {
  std::string pointer;  // e.g. /journal/12/reason
  ojson left, right;    // the values there (null when absent on one side)
  bool left_missing = false, right_missing = false;
};

// In key order: the first differing key of the left's, then keys only on the right.
// A signature's detail (divergence.hpp) is named by it.
std::optional<Difference> first_difference(const ojson& left, const ojson& right);

// In causal order, the order the campaign's attribution takes (runners/triage/
// attribution.hpp): `ok` (an error against a result), then the journal event by
// event, then what follows from it (kCausalOrder), then any other key in key order.
// What a person is shown: a run that delivered another message at event 6 and so ran
// one turn more differs first at /journal/6, not at /turns.
std::optional<Difference> first_causal_difference(const ojson& left, const ojson& right);
inline constexpr const char* kCausalOrder[] = {"ok",       "journal",   "alive",     "outcome",     "turns",
                                               "failures", "decisions", "processes", "supervisors", "run"};
std::string describe(const Difference& d, const std::string& left_name, const std::string& right_name);
// "/journal/12/to" -> {"journal", "12", "to"} (RFC 6901 escapes undone).
std::vector<std::string> pointer_tokens(const std::string& pointer);

}  // namespace concord
