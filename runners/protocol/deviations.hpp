// runners/protocol/deviations.hpp: declared deviations (DESIGN §4): the known, confirmed
// differences of one backend from SPEC, each with the experiment that shows it
// outside concord. A declaration names a *dialect* of the oracle (oracle/dialect.hpp):
// an alternative rule, for one construct, that the oracle runs. A divergence is a
// "known deviation" only when the oracle run in the dialect of the target's
// declarations gives the target's result (exactly, or up to the freedom the
// alternatives declare); anything else in the run, any other run and any other
// construct is compared with SPEC as usual (issue 38: a field path matched a bug in
// another supervisor). Built-in targets declare theirs in targets/<name>/deviations.json,
// user backends under "deviations" in a --backends file (runners/PROTOCOL.md,
// "Declaring a backend").
#pragma once

#include <string>
#include <vector>

#include "oracle/dialect.hpp"
#include "oracle/program_json.hpp"

namespace concord {

struct Answer;
struct Program;
struct RunSettings;

struct Deviation {
  std::string id;          // unique within its backend, [a-z0-9_-]+
  Alt dialect;             // the oracle's alternative rule it is; its rule, scope and freedom are the catalogue's
  std::string about;       // one sentence
  std::string experiment;  // what shows it without concord (a file under spec/experiments/ and its check)
  std::string source;      // the implementation's line responsible (file, function or line)
};

// The array of declarations at `where` ("deviations" of a backend, or of a
// deviations.json). Throws InputError located at where/INDEX/KEY on anything off.
std::vector<Deviation> parse_deviations(const ojson& j, const std::string& where);
// A deviations.json: {"deviations":[...]}; `origin` names it in errors.
std::vector<Deviation> parse_deviations_file(const std::string& text, const std::string& origin);

// The oracle's result for a run in the dialect of `declared` (every alternative
// they name), and what the replay saw: which alternatives changed a rule's outcome
// and which parts of the journal they leave unordered.
struct DialectResult {
  ojson result;  // null when the oracle gave an error in the dialect
  AltSet taken;
  int64_t changes = 0;  // how many times an alternative changed its rule's outcome
  std::vector<UnorderedSpan> unordered;
};
DialectResult run_in_dialect(const Program& p, const RunSettings& s, const AltSet& dialect);

// Whether `got` is `dialect`'s result up to its freedom: equal, once the journal's
// unordered parts of both are sorted.
bool agrees_up_to_freedom(const DialectResult& dialect, const ojson& got);

// The declarations of `declared` that explain `got`, a target's answer to run `s`
// of `p` that differs from the oracle's: the oracle in their dialect gives `got`,
// and these are the ones whose alternative changed something. Empty when they do
// not explain it (an error answer is never explained).
std::vector<const Deviation*> explaining(const std::vector<Deviation>& declared, const Program& p, const RunSettings& s,
                                         const Answer& got);
// "id-a + id-b": how a verdict names the declarations that explained a run.
std::string deviation_ids(const std::vector<const Deviation*>& ds);

}  // namespace concord
