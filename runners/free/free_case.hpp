// runners/free/free_case.hpp: a free run's finding kept in a corpus (corpus/README.md,
// "Free cases"): `*.free.json` beside the conducted cases, a program and the run
// settings of its free runs, the guarantee a trace broke (its signature) and the
// trace that broke it (the witness: check-trace shows it again at any time). As a
// regression it requires every target that runs free runs to give `free_runs`
// admissible traces of it; conducted tooling (which reads *.case.json) ignores it.
#pragma once

#include <string>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"
#include "oracle/state.hpp"

namespace concord {

struct FreeCase {
  std::string path;
  std::string name;   // file name without .free.json
  std::string about;
  ojson program;      // JSON form (SPEC §13)
  Program checked;    // the program, read and checked (load_free_case)
  RunSettings settings;
  int free_runs = 8;      // runs per check (the shrinker's R when found by a campaign)
  std::string signature;  // "erlang:free:G4 pair order"
  std::string violation;  // the violation's words, as found
  ojson witness;          // the inadmissible trace, as found (shrunk); null: none kept
  std::string status = "regression";  // or known-divergence (with reason)
  std::string reason;
  ojson found;  // campaign seed, case, profile, generator version, command
};

// "free_" + 16 hex digits of the signature's FNV-1a hash.
std::string free_case_name(const std::string& signature);
ojson free_case_json(const FreeCase& c);
// Reads and checks a *.free.json file; InputError naming the file and place otherwise.
FreeCase load_free_case(const std::string& path);
// Every *.free.json under dir (recursively), sorted; none for a missing folder.
std::vector<std::string> find_free_cases(const std::string& dir);
bool is_free_case_file(const std::string& path);

struct FreeStored {
  std::string path;
  bool written = false;  // false: a case at least as small already holds the signature
};
// Stores `c` in `dir` atomically, one case per signature (the smaller program kept).
FreeStored store_free_case(const std::string& dir, const FreeCase& c);
// The signatures of the free cases under dir.
std::vector<std::string> free_case_signatures(const std::string& dir);

}  // namespace concord
