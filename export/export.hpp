// export/export.hpp: `concord export CASE --as FORMAT`: a corpus case as a test of
// the user's own framework that runs without concord (a Common Test suite on real
// OTP, an ExUnit test on real Elixir, a C test against the c runtime, a GoogleTest
// case for any runtime that speaks the backend protocol, a JSON file per case with a
// Python runner, TAP or pytest, for any other test runner). Each test asserts every
// run's result line against the case's expected result and, when it differs, names
// the first difference (field path, both values).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runners/protocol/load.hpp"

namespace concord {

enum class ExportFormat { kCt, kExunit, kC, kGtest, kJson };

// "ct", "exunit", "c", "gtest", "json"; nullopt for anything else.
std::optional<ExportFormat> parse_export_format(const std::string& name);
const char* export_format_names();  // "ct, exunit, c, gtest, json", for messages

struct ExportedFile {
  std::string path;  // relative to the export's folder
  std::string text;
};

struct Exported {
  std::vector<ExportedFile> files;  // README.md among them
  std::string run;                  // the command that runs the test, from inside the folder
};

// The files of a case's export. Reads the runtime sources a BEAM export ships
// (runtime_path: the build's, or an install's); throws InputError when they are
// missing.
Exported export_case(const Case& c, ExportFormat f);

// Writes every file under dir (created), each atomically. InputError, before any
// write, when a file's path would lead out of dir (safe_names.hpp).
void write_exported(const std::string& dir, const Exported& e);

// --- one function per format: export_beam.cpp (ct, exunit), export_native.cpp (c, gtest)
Exported export_ct(const Case& c);
Exported export_exunit(const Case& c);
Exported export_c(const Case& c);
Exported export_gtest(const Case& c);
Exported export_json(const Case& c);  // export_json.cpp

// Literals for the generated sources: any bytes in, a literal of exactly those bytes out.
std::string c_literal(const std::string& s);      // "..." (C and C++), split every 100 bytes
std::string erlang_binary(const std::string& s);  // <<"...">>
std::string erlang_atom(const std::string& s);    // '...' (a module name, quoted whatever it holds)
std::string comment_text(const std::string& s);   // printable ASCII and UTF-8 ("§") on one line, for comments
// Identifiers made from a case name (safe_names.hpp), for the languages whose
// identifiers take fewer characters: its letters and digits, each run after
// another character capitalised ("fifo.mailbox-2" -> "FifoMailbox2"), or with
// every other character an underscore ("fifo_mailbox_2").
std::string camel_words(const std::string& s);
std::string snake_words(const std::string& s);
// comment_text, wrapped at `width` columns, each line after `prefix` ("%% ", "// ").
std::string comment_lines(const std::string& s, const std::string& prefix, size_t width = 88);

// The files of a runtime's source folder whose names end in one of `suffixes`,
// sorted, as exported files under `into`. InputError when there are none.
std::vector<ExportedFile> runtime_sources(const std::string& dir, const std::vector<std::string>& suffixes,
                                          const std::string& into);

// The support files that exports ship (export/support/), built into concord.
const char* support_expect_erl();        // concord_expect.erl
const char* support_first_difference();  // first_difference.h
const char* support_concord_cases_py();  // concord_cases.py

}  // namespace concord
