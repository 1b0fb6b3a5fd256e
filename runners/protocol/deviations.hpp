// runners/protocol/deviations.hpp: declared deviations (DESIGN §4): the known, confirmed
// differences of one backend from SPEC, each with the experiment that shows it
// outside concord. A divergence that a declaration of its target explains is a
// "known deviation": campaigns, `concord corpus`, triage and reports show it and
// count it, and it does not fail; any other divergence still does. Built-in
// targets declare theirs in targets/<name>/deviations.json, user backends under
// "deviations" in a --backends file (runners/PROTOCOL.md, "Declaring a backend").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/program_json.hpp"

namespace concord {

struct Deviation {
  std::string id;                       // unique within its backend, [a-z0-9_-]+
  std::string rule;                     // the SPEC rule it departs from, e.g. "§7.2 [R2]"
  std::vector<std::string> signatures;  // the kinds it explains (difference_kind(): "journal/decision/action")
  // When given, the values at the first difference must be these too (the oracle's
  // and the target's), so that a declaration explains that difference and no other
  // of the same kind.
  std::optional<ojson> oracle_value, target_value;
  std::string about;       // one sentence
  std::string experiment;  // what shows it without concord (a file under spec/experiments/ and its check)
  std::string source;      // the implementation's line responsible (file, function or line)
};

// The array of declarations at `where` ("deviations" of a backend, or of a
// deviations.json). Throws InputError located at where/INDEX/KEY on anything off.
std::vector<Deviation> parse_deviations(const ojson& j, const std::string& where);
// A deviations.json: {"deviations":[...]}; `origin` names it in errors.
std::vector<Deviation> parse_deviations_file(const std::string& text, const std::string& origin);

// divergence.hpp has explaining(): the declaration, if any, that explains how a
// target's answer first differs from the oracle's.

}  // namespace concord
