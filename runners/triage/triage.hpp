// runners/triage/triage.hpp: what a person needs to understand one corpus case (DESIGN
// §4): its program, each target's answers against the oracle's, the run where a
// target first differs, and both sides of that answer around the first difference
// (the section it is in, e.g. the journal, with the differing element and field
// marked). reports/triage_page.hpp renders a Triage, as text and as a page,
// without running anything again.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"

namespace concord {

// One row of two answers shown side by side: element `index` of a section (an
// event of the journal, a decision, ...), or the section's value itself.
struct SideRow {
  size_t index = 0;
  bool left_present = false, right_present = false;
  ojson left, right;
  bool differs = false;
  bool first = false;  // the first difference
};

struct SideBySide {
  std::string section;  // "journal", "decisions", "outcome", ...; "answer" when one side is an error
  std::string field;    // the field of the first differing element ("to"), or "" for the whole element
  std::vector<SideRow> rows;
  size_t total = 0;  // rows in the whole section (more than `rows` when cut)
};

struct TargetTriage {
  std::string target;
  std::vector<Answer> answers;
  enum class State { kAgree, kDiffer, kNoVerdict } state = State::kAgree;
  size_t run = 0;               // the first run where it differs (or gave no verdict)
  std::string kind;             // difference_kind(), e.g. "journal/deliver/to": the signature's detail
  std::string rule;             // the SPEC rule behind it (attribution.hpp), e.g. "§6.5 fifo"; "" for a failure
  std::string dialect;          // the alternative whose replay gives its answers (replay.hpp); "" for the fallback
  std::string deviation;        // kDiffer explained by a declared deviation of the target: its id ("" otherwise)
  std::string deviation_about;  // and its sentence
  std::string report;           // the first difference in words (compare_answers)
  std::string pointer;          // the JSON pointer of the first difference; "" for an error or bytes
  SideBySide around;            // a few rows either side of the first difference
  SideBySide journal;           // both journals of that run in full
  std::string stderr_tail;      // a failure's (crash, hang...): the end of what the target wrote on stderr
};

struct Triage {
  std::string path;  // the case file, as given
  Case c;
  std::string program_text;
  std::vector<RunSettings> runs;
  std::vector<Answer> oracle;            // the oracle's answers now
  std::vector<size_t> oracle_changed;    // runs whose expected result is no longer the oracle's answer
  std::vector<TargetTriage> targets;     // besides the oracle, in the order asked
  std::string signature;                 // the signature the case shows now ("" when all agree)
  std::vector<std::string> not_run;      // targets of the recorded signature that were not asked for
  std::vector<std::string> not_claimed;  // targets not asked: their declarations do not claim the program
  std::string declared;                  // the --backend options that declare user targets, for reproduce lines
  std::string concord = "concord";       // how reproduce lines call concord
  // The folder its page is written in, for the page's links (reports/shown_path.hpp:
  // a page names no absolute path); "" the working directory.
  std::string page_dir;
};

// Runs the case on the oracle and on `targets` and locates every difference. The
// second form reuses a Differ's backends (a campaign's report triages many cases).
Triage triage_case(const std::string& path, const Case& c, const std::vector<BackendSpec>& targets,
                   const std::string& declared);
class Differ;
Triage triage_case(const std::string& path, const Case& c, Differ& differ, const std::string& declared);

// Rows `context` either side of the first difference between two answers of one
// run, or every row of their journals.
SideBySide around_first_difference(const Answer& oracle, const Answer& got, size_t context);
// At most kJournalRows rows, centred on the first difference: a page stays light
// even for a run of a million events.
constexpr size_t kJournalRows = 2000;
SideBySide whole_journals(const Answer& oracle, const Answer& got);

}  // namespace concord
