// oracle/free/violation.hpp: a guarantee of SPEC §25 that a trace breaks, in words,
// with the places (JSON pointers into the trace) of the events involved.
#pragma once

#include <string>
#include <vector>

namespace concord {

struct Violation {
  std::string guarantee;            // "G4 pair order": the rule's id and name (§25.3-§25.5)
  std::string text;                 // what happened, in words, naming incarnations as a#1
  std::vector<std::string> places;  // the events involved
};

// Thrown where a check meets a violation it cannot go on from.
struct ViolationError {
  Violation v;
};

// The guarantees, by id, as the checker names them.
namespace guarantee {
constexpr const char* kOneTurn = "G1 one turn at a time";
constexpr const char* kMailbox = "G2 mailbox order";
constexpr const char* kReplay = "G3 determinism of a step";
constexpr const char* kPairOrder = "G4 pair order";
constexpr const char* kCausality = "G5 causality";
constexpr const char* kNames = "G6 names";
constexpr const char* kExactlyOnce = "G7 exactly once";
constexpr const char* kSpawnedNames = "G8 spawned names";
constexpr const char* kSupervisors = "G9 supervisors";
constexpr const char* kLimits = "G10 limits";
constexpr const char* kSignals = "G11 signals";
constexpr const char* kCalls = "G12 calls";
constexpr const char* kApi = "G13 the API";
}  // namespace guarantee

}  // namespace concord
