// oracle/json_text.hpp: the one reader of JSON text for everything concord reads
// (programs, case files, requests, backend files, report folders). Strict where
// nlohmann is lenient: a duplicate key or a number beyond a double is an
// InputError naming the JSON pointer of the value; a syntax error, or nesting
// deeper than 512 levels, names the byte.
#pragma once

#include <string>

#include "program_json.hpp"

namespace concord {

constexpr int kMaxJsonNesting = 512;  // a valid program nests about 200 levels at most

struct JsonTextOptions {
  // SPEC §13: a JSON number denotes its value, whatever its notation. A number
  // written with a fraction or an exponent whose value is an integer of the 64-bit
  // ranges (1.0, 1e2, -5.0e0) is read as that integer, exactly (from its digits,
  // never through a double). Off for files whose fractions are meant (reports).
  bool exact_integers = true;
};

// Throws InputError: where is a JSON pointer ("/kinds/0/name") or "byte N".
ojson parse_json_text(const std::string& text, JsonTextOptions opt = {});

}  // namespace concord
