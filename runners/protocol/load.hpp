// runners/protocol/load.hpp: reading programs and corpus cases from files. Errors are
// InputErrors whose place starts with the file name (file:line:column, or
// file: /json/pointer), so the CLI prints them as they are.
#pragma once

#include <string>
#include <vector>

#include "oracle/interpreter.hpp"
#include "oracle/program.hpp"

namespace concord {

std::string read_file(const std::string& path);  // bounded by kMaxInputBytes
// read_file, then parsed strictly (oracle/json_text.hpp); errors located as "path:byte N"
// or "path: /json/pointer". exact_integers: false for files whose fractions are meant.
ojson read_json_file(const std::string& path, bool exact_integers = true);

// A program in text (.conc) or JSON form, sniffed by the first non-blank byte;
// parsed and checked.
Program load_program(const std::string& path);
Program program_from_source(const std::string& text, const std::string& origin);

struct CaseRun {
  RunSettings settings;
  ojson expect;
};

struct Case {
  std::string path;
  std::string name;
  std::string about;
  Program program;
  std::vector<CaseRun> runs;
  // Found by a campaign (corpus/README.md): what differed first, and whether the
  // targets must now agree ("regression") or still differ as recorded
  // ("known-divergence", with the reason). Hand-written cases: "", "regression".
  std::string signature;
  std::string detail;  // the signature's detail: the first difference's field path per target ("" : not recorded)
  std::string status = "regression";
  std::string reason;
  ojson found;  // where it came from (campaign seed, case, profile, generator version), or null
};

// Reads a *.case.json file (corpus/README.md); its program is checked.
Case load_case(const std::string& path);
// Every *.case.json under dir, sorted by path.
std::vector<std::string> find_cases(const std::string& dir);

}  // namespace concord
