// runners/campaign/coverage.hpp: what a fuzzing campaign has exercised, counted per
// category: the constructs of the programs it generated (statement and expression
// forms, every operator, spawns, supervision trees, edge literals, stray messages)
// and what their runs did (journal events, failure codes, supervisor decisions,
// outcomes). The spec's full list for each category is written once, in
// coverage.cpp, from ops.def and the model's enums, so blind_spots() names every
// thing the language has that no program or run showed.
//
// The category "capacity" counts runs that reached a runtime's growth paths (the
// sizes of runners/campaign/failure.hpp's RunSize and of the result): more than 1,024 and
// 10,000 process ids, a mailbox 1,000 deep, a child list of 100, 1,000 turns, a
// spawned name whose number has 4 digits; `peaks` keeps the largest of each.
//
// Names are "group:detail" within a category (constructs "stmt:send", "op:shl",
// events "exit:shutdown"); a blind spot is "category:name" ("events:drop:dead").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"
#include "runners/campaign/failure.hpp"

namespace concord {

struct Coverage {
  using Counts = std::map<std::string, uint64_t>;  // name -> times seen

  uint64_t programs = 0;     // add_program calls
  uint64_t programs_v2 = 0;  // ... of version 2 programs: until one is counted, reports leave version 2's names out
  uint64_t results = 0;      // add_result calls, error objects included
  Counts constructs;         // program constructs, one count per occurrence (static: what was written)
  Counts events;             // journal events by "ev", and refined ("exit:normal", "drop:dead", "start:restart")
  Counts failures;           // failure codes of results' "failures": runtime codes and programs' own codes
  Counts decisions;          // supervisor actions of results' "decisions", and refined ("restart:spawned")
  Counts outcomes;           // "quiescent", "turn_limit", and "error:<code>" for error objects
  Counts capacity;           // runs that reached a capacity ("ids:over_1024", "mailbox:1000_deep", ...)
  Counts peaks;              // the largest reached: "ids", "mailbox", "children", "turns", "spawned_number_digits"

  // Counts the constructs of one program (checked or not).
  void add_program(const Program& p);
  // Counts one result line's JSON (SPEC §9); an error object {"ok":false,...}
  // counts only as the outcome "error:<code>". `size`, the oracle's measure of the
  // run, gives the mailbox depth (a result does not show it).
  void add_result(const ojson& result, const RunSize* size = nullptr);
  void merge(const Coverage& other);

  // {"programs":N,"results":N,"constructs":{...},"events":{...},"failures":{...},
  //  "decisions":{...},"outcomes":{...},"capacity":{...},"peaks":{...},
  //  "blind_spots":[...]}: every known name of a category first, in the spec's
  //  order (0 when unseen), then the others sorted.
  ojson to_json() const;
  // Reads what to_json() wrote (blind_spots is ignored; capacity and peaks may be
  // missing, as in reports written before they existed). Throws InputError.
  static Coverage from_json(const ojson& j);

  // Everything the spec has that was never seen, as "category:name", in the order
  // of categories() and known(). In failures, "<program code>" stands for any
  // code of a `fail` statement.
  std::vector<std::string> blind_spots() const;
  // How many of what the spec has in `category` were seen (the rest are its blind spots).
  size_t known_seen(const std::string& category) const;
  // What this coverage reports of `category`: known(category) without version 2's
  // names while no version 2 program was counted (unless seen). The one count of "of
  // the spec's" for the terminal, summary.md and index.html alike (issue 37: one
  // count, one truth), and the names blind_spots() looks for.
  std::vector<std::string> reported(const std::string& category) const;

  // A compact table for a terminal: per category, seen/known and every count;
  // then the blind spots.
  std::string to_text() const;

  // The categories, in order: constructs, events, failures, decisions, outcomes, capacity.
  static const std::vector<std::string>& categories();
  // What the spec has in `category` (the names blind_spots() looks for), version 2's
  // included (SPEC §22): blind_spots() and the reports leave those out while no
  // version 2 program was counted.
  static const std::vector<std::string>& known(const std::string& category);
  const Counts& counts(const std::string& category) const;
};

}  // namespace concord
