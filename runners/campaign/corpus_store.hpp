// runners/campaign/corpus_store.hpp: writing cases into a corpus (corpus/README.md). Every
// file is written atomically (a temporary file in the same folder, flushed, then
// renamed over the name), so an interrupted campaign leaves whole files or none.
// A corpus keeps one case per signature: storing a case whose signature is
// already there keeps the smaller program of the two.
#pragma once

#include <string>
#include <vector>

#include "oracle/program_json.hpp"
#include "runners/process/files.hpp"
#include "runners/protocol/load.hpp"

namespace concord {

struct NewCase {
  std::string name;  // "" : derived from the signature (case_name_for)
  std::string about;
  ojson program;              // JSON form (SPEC §13)
  std::vector<CaseRun> runs;  // settings and the oracle's result of each
  std::string signature;      // divergence.hpp, by SPEC rule
  std::string detail;         // the signature's detail, by field path ("" : none)
  std::string status = "regression";
  std::string reason;  // for "known-divergence"
  ojson found;         // campaign seed, case, profile, generator version, command
};

ojson case_json(const NewCase& c);                        // the file's content, keys in the README's order
std::string case_name_for(const std::string& signature);  // "div_" + 16 hex digits of its hash
size_t json_size(const ojson& j);                         // values and containers: the size that decides "smaller"

struct Stored {
  std::string path;      // the file that now holds the signature
  bool written = false;  // false: a case at least as small was already there
  bool existed = false;  // a case of this signature was there before
};
// Stores `c` in `dir` (created when needed), keeping one case per signature.
Stored store_case(const std::string& dir, const NewCase& c);

// The signatures of every case under `dir` ("" for cases without one are left
// out); a missing folder has none. An unreadable case file is an InputError
// naming it: a campaign that would store into that corpus refuses to start
// rather than meet it when it stores what it found.
std::vector<std::string> corpus_signatures(const std::string& dir);

struct MergeReport {
  size_t added = 0, replaced = 0, kept = 0, copied = 0, same = 0;
  size_t held = 0;                     // cases of a signature `into` had before: not written
  std::vector<std::string> conflicts;  // cases whose file name is taken by another content
};
// Joins corpora: every case of each folder of `from` into `into`: cases with a
// signature by store_case, others (hand-written, with their .conc) copied when
// their name is free. A signature `into` already has keeps its case: a merge runs
// no target, so a shard's case claiming it cannot be checked, and a smaller one
// would replace a real regression test by whatever claims its signature; among
// the shards' cases of a new signature the smallest is kept. Throws InputError for
// an unreadable case, a bad name or a path leading out of `into` (or a source out
// of its shard's folder), before writing.
MergeReport merge_corpora(const std::string& into, const std::vector<std::string>& from);

}  // namespace concord
