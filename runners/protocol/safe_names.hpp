// runners/protocol/safe_names.hpp: what a file read as input may name (issue 40).
// A case's name becomes file names ("NAME.case.json", "NAME_test.c") and, through
// each export language's escaping, identifiers; a path a file names (a hand case's
// source, a report's triage page) is opened or written relative to a folder. Both
// are checked here, in one place, before anything is read or written: an
// InputError (exit 2) names the file and the field.
#pragma once

#include <string>

namespace concord {

constexpr size_t kMaxCaseNameBytes = 100;

// "" when `name` is a case name: 1 to kMaxCaseNameBytes of A-Z a-z 0-9 _ . -, the
// first not '.' or '-', and no "..". Otherwise what is wrong, in words.
std::string case_name_problem(const std::string& name);
// Throws InputError(where, ...) unless `name` is a case name.
void check_case_name(const std::string& name, const std::string& where);

// root/rel, when rel is relative, has no ".." component, and (symbolic links
// resolved, as far as they exist) stays inside root. Otherwise InputError(where,
// ...): a path from an input file never leads out of the folder it belongs to.
std::string path_inside(const std::string& root, const std::string& rel, const std::string& where);

}  // namespace concord
