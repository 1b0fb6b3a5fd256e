// runners/conformance/scoreboard.hpp: `concord conformance`, a target's conformance
// table (Test262-style): per SPEC section and feature, how many programs of the hand
// corpus and of generated ones it passes, fails, or is not asked (its declaration does
// not claim them, runners/protocol/supports.hpp), with the bucket of every failure.
//
// A program counts in the row of its language version (the core sections it cannot
// do without) and in the row of every feature it uses (oracle/features.hpp); the
// total counts it once. A program passes when every run agrees with the oracle, or
// differs only as a declared deviation explains (a known deviation, counted too);
// it fails when a run differs otherwise or gives no verdict (a timeout, a crash).
// The generated programs are a campaign's: program i of profile P is case i of
// `concord fuzz --seed S --profile P`, on the same runs, so a failure reproduces with
// that campaign's `--case i`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "oracle/features.hpp"
#include "runners/protocol/backends.hpp"

namespace concord {

struct Tally {
  int pass = 0, fail = 0, skip = 0;
  int deviation = 0;  // of the passes, those by a known deviation
  int judged() const { return pass + fail; }
};

// A row: a section of SPEC.md a program can use, and its two tallies.
struct ScoreRow {
  std::string section;  // "§16", "§1-§13"
  std::string what;     // "links", "version 1"
  Tally hand, generated;
};

struct ScoreFailure {
  std::string source;     // the hand case's file, or "links #12" (profile, program index)
  std::string reproduce;  // a command that shows it again
  std::string bucket;     // the divergence's bucket for this target (divergence.hpp bucket_of): "§16.2 link"
  std::string rows;       // the rows it counts in: "version 2, links"
  std::string case_file;  // the case file (written for a generated program under --out), or ""
  std::string triage;     // its triage page, relative to the output folder, or "" (the command makes pages)
};

struct TargetScore {
  std::string target;
  std::string claims;          // what its declaration claims (supports.hpp describe)
  std::vector<ScoreRow> rows;  // kScoreRows' order
  ScoreRow total;              // every program once
  std::vector<ScoreFailure> failures;
};

struct ScoreSettings {
  std::vector<std::string> corpus_dirs;  // the hand corpus: every *.case.json under each
  std::vector<std::string> profiles;     // generator profiles, programs generated per profile
  int programs = 0;                      // per profile
  uint64_t seed = 1;                     // the campaign seed the programs come from
  int runs = 8;                          // runs (seeds) per generated program
  std::string out;                       // "": no case files or pages written
  std::string declared;                  // the --backend options, for reproduce lines
};

struct Scoreboard {
  ScoreSettings settings;
  int hand_cases = 0, generated_programs = 0;
  bool stopped = false;  // interrupted: the tallies cover what ran
  double seconds = 0;
  std::vector<TargetScore> targets;
};

// The rows, in order: the two versions, then the features.
std::vector<ScoreRow> score_rows();
// The rows a program counts in (indices into score_rows()).
std::vector<size_t> rows_of(const Program& p);

// Runs everything on `targets` (the oracle in-process), one program at a time, and
// tallies it. `stop` (when set) ends it between programs; `progress` hears a line per
// 25 programs. With settings.out, a failing generated program is stored as a case
// under out/cases (one per signature, corpus_store.hpp). InputError: a hand case
// that cannot be read (every one is read before anything runs), a target that does
// not answer a trivial program.
Scoreboard score(const ScoreSettings& settings, const std::vector<BackendSpec>& targets,
                 const std::atomic<bool>* stop = nullptr, const std::function<void(const std::string&)>& progress = {});

}  // namespace concord
