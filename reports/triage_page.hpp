// reports/triage_page.hpp: a Triage (runners/triage/triage.hpp) for people: in a
// terminal (triage_text) and as one self-contained page (triage_html), both built
// from the same words, with one command per target that reproduces the difference.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runners/triage/triage.hpp"

namespace concord {

// One element in words: "t3 deliver to=a from=null tag=hi args=[1] ready=2" for an
// event, "key=value ..." for another object, the JSON otherwise. Split so that a
// renderer can mark one field.
struct ElementWords {
  std::string head;                                         // "t3 deliver", or ""
  std::vector<std::pair<std::string, std::string>> fields;  // key, value in words
};
ElementWords element_words(const ojson& element);
std::string value_words(const ojson& v);  // strings that are names unquoted, the rest as JSON

// "seed 5, turns 1000, max processes 10000"
std::string settings_words(const RunSettings& r);
// "journal around element 7, field name", "the outcome", "the answers"
std::string where_words(const SideBySide& s);

// The command that shows run `run` of the case on `target` ("oracle" included).
std::string reproduce_run(const Triage& t, const std::string& target, size_t run);
// The command that checks the whole case on every target again.
std::string reproduce_case(const Triage& t);

std::string triage_text(const Triage& t);
std::string triage_html(const Triage& t);

}  // namespace concord
