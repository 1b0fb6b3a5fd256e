// oracle/features.hpp: what a program uses, in the closed list of features a backend
// may claim (runners/PROTOCOL.md, "What a backend claims"), so that a runtime that
// implements part of the language is not judged on the rest. Each feature is a
// section of SPEC.md a runtime can implement or leave out on its own; the core of a
// version (§1-§13 for 1; §14, §15, §17, §22, §23 for 2) comes with the version.
// Computed from the program's text, not from a run: a program uses a feature when
// some statement or declaration of it could need that section, reached or not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/program.hpp"

namespace concord {

enum class Feature : uint8_t {
  Supervisors,    // §7: a supervisor declared (then also `spawn ... under`), versions 1 and 2
  Links,          // §16: link, unlink (and the link signals of exits)
  Monitors,       // §16: monitor, demonitor (and down messages)
  ExitSignals,    // §16.2-§16.3: exit(e, r), exit(e, kill)
  TrapExit,       // §16.2: trap_exit(e)
  Calls,          // §18: call, reply
  FailingStarts,  // §19: a start that can fail or be ignored
  SupervisorApi,  // §20: terminate_child, restart_child, delete_child
  Significant,    // §21: significant children, auto_shutdown
};
constexpr int kFeatureCount = 9;

// The features as a set (bit i: Feature i).
struct FeatureSet {
  uint32_t bits = 0;
  bool has(Feature f) const { return bits & (1u << static_cast<unsigned>(f)); }
  void add(Feature f) { bits |= 1u << static_cast<unsigned>(f); }
  bool operator==(const FeatureSet&) const = default;
};

const std::vector<Feature>& all_features();  // in declaration order
const char* feature_name(Feature f);         // "links", "failing_starts", ...
const char* feature_section(Feature f);      // "§16", "§19", ...
bool parse_feature(const std::string& s, Feature& out);
// "supervisors, links, ..." (every feature, for messages and --help).
std::string feature_names();

// The features `p` uses (p as read; check() need not have run):
// - supervisors: a supervisor is declared (spawn under and the API name one);
// - links, monitors, exit_signals, trap_exit, calls, supervisor_api: a statement of
//   that section (link/unlink; monitor/demonitor; exit; trap_exit; call/reply; the
//   three API statements), anywhere;
// - failing_starts (version 2 only: version 1 starts cannot fail, §4 rule 9): an init
//   with `ignore`, `stop`, `fail` or `link` (NOPROC, §16.2), or a `/` or `%` in an
//   init or state initialiser whose right operand is not a non-zero literal;
// - significant: a significant child (declared or spawned), or an auto_shutdown
//   other than never.
FeatureSet program_features(const Program& p);

}  // namespace concord
