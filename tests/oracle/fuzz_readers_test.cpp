// tests/oracle/fuzz_readers_test.cpp: the readers under hostile input. A generated
// program's JSON text and text syntax are mutated (truncated, bytes deleted,
// inserted, replaced, tokens swapped, names replaced by keywords, numbers made
// huge, spans duplicated, deep nesting spliced in) and read back, then checked.
// The contract (SPEC §4, §10): the result is a valid program (which must then
// round-trip), or an InputError whose `where` is located, "line:column" inside the
// text for the text syntax, "byte N" or a JSON pointer that resolves in the
// document for JSON; never another exception, a crash or a hang. Built normally
// and with CONCORD_SANITIZE=ON; each property runs in a few seconds. Reproduce
// with the RC_PARAMS="reproduce=..." line RapidCheck prints:
//   RC_PARAMS="reproduce=..." build/tests/oracle_fuzz_readers_test --gtest_filter=Fuzz*
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <ostream>
#include <string>
#include <typeinfo>
#include <vector>

#include "generators/basics.hpp"
#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"

namespace concord {
namespace {

enum class Form { Json, Text };

const char* form_name(Form f) { return f == Form::Json ? "JSON" : "text"; }

std::string source_of(const Program& p, Form f) {
  return f == Form::Json ? program_to_json(p).dump() : print_program(p);
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 12 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Whether `where` names a place of `input`; `why` says what is wrong if not.
bool located(const std::string& where, Form form, const std::string& input, std::string& why,
             const std::string& message = "") {
  if (form == Form::Text) {
    size_t colon = where.find(':');
    if (colon == std::string::npos || !all_digits(where.substr(0, colon)) || !all_digits(where.substr(colon + 1)))
      return why = "not line:column", false;
    long line = std::stol(where.substr(0, colon)), col = std::stol(where.substr(colon + 1));
    long lines = 1 + static_cast<long>(std::count(input.begin(), input.end(), '\n'));
    if (line < 1 || col < 1 || line > lines) return why = "line out of the input", false;
    size_t start = 0;
    for (long l = 1; l < line; l++) start = input.find('\n', start) + 1;
    size_t end = std::min(input.find('\n', start), input.size());
    if (static_cast<size_t>(col) > end - start + 1) return why = "column past the end of its line", false;
    return true;
  }
  if (where.rfind("byte ", 0) == 0) {
    if (!all_digits(where.substr(5))) return why = "not byte N", false;
    if (std::stoul(where.substr(5)) > input.size() + 1) return why = "byte past the end of the input", false;
    return true;
  }
  ojson doc = ojson::parse(input, nullptr, false);  // it parsed once already, or the place would be "byte N"
  // ... except for a number no double holds (SPEC §13), named by its pointer: with
  // that number replaced by 0, the document parses and the pointer must name it.
  size_t quoted = message.find("number overflow parsing '");
  if (doc.is_discarded() && quoted != std::string::npos) {
    size_t from = quoted + std::string("number overflow parsing '").size();
    std::string token = message.substr(from, message.find('\'', from) - from);
    std::string replaced = input;
    for (size_t at = replaced.find(token); !token.empty() && at != std::string::npos; at = replaced.find(token, at + 1))
      replaced.replace(at, token.size(), "0");
    doc = ojson::parse(replaced, nullptr, false);
  }
  if (doc.is_discarded()) return why = "a JSON pointer for input that is not JSON", false;
  if (where.empty()) {
    // The document's root: only for a root that is not an object or lacks a key.
    bool root_broken = !doc.is_object();
    for (const char* k : {"concord", "kinds", "system", "given"}) root_broken = root_broken || !doc.contains(k);
    return root_broken || (why = "empty place for an error below the root", false);
  }
  if (where[0] != '/') return why = "neither byte N nor a JSON pointer", false;
  try {
    if (!doc.contains(ojson::json_pointer(where))) return why = "JSON pointer names nothing in the document", false;
  } catch (const ojson::exception& e) {
    return why = std::string("malformed JSON pointer: ") + e.what(), false;
  }
  return true;
}

// Reads and checks `input`: a valid program, or an InputError located in `input`.
// Empty when the contract holds, else what broke it.
// `kind` says which: "valid", or the form of the error's place.
std::string read_result(const std::string& input, Form form, Program& out, bool& valid, std::string* kind = nullptr) {
  valid = false;
  try {
    out = form == Form::Json ? program_from_json_text(input) : parse_program(input);
    check(out);
    valid = true;
    if (kind) *kind = "valid";
  } catch (const InputError& e) {
    if (kind)
      *kind = std::string(form_name(form)) + (form == Form::Text  ? " error at line:column"
                                              : e.where.empty()   ? " error at the root"
                                              : e.where[0] == '/' ? " error at a JSON pointer"
                                                                  : " error at byte N");
    std::string why;
    if (!located(e.where, form, input, why, e.what_is_wrong))
      return std::string(form_name(form)) + " error badly located (" + why + "): where='" + e.where + "', " + e.what();
  } catch (const std::exception& e) {
    return std::string(form_name(form)) + " reader threw " + typeid(e).name() + ", not an InputError: " + e.what();
  } catch (...) {
    return std::string(form_name(form)) + " reader threw something that is not a std::exception";
  }
  return "";
}

// Asserts the contract of the banner for `input`; a valid program must also come
// back unchanged through both forms.
// Far more than any input here needs: a reader slower than this hangs (or went
// quadratic). ASan and UBSan make reading several times slower. The clock is this
// thread's CPU time, so a loaded machine (other tests on both cores) cannot make a
// fast reader look hung, as wall-clock time did.
#ifdef __SANITIZE_ADDRESS__
constexpr double kHangSeconds = 30.0;
#else
constexpr double kHangSeconds = 5.0;
#endif

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

void read_must_behave(const std::string& input, Form form) {
  double started = thread_cpu_seconds();
  Program p;
  bool valid;
  std::string kind;
  std::string broken = read_result(input, form, p, valid, &kind);
  if (!broken.empty()) RC_FAIL(broken);
  RC_TAG(kind);  // the distribution of outcomes is printed after the property
  RC_ASSERT(thread_cpu_seconds() - started < kHangSeconds);
  if (!valid) return;
  for (Form other : {Form::Json, Form::Text}) {
    std::string again = source_of(p, other);
    Program q;
    bool still_valid;
    broken = read_result(again, other, q, still_valid);
    if (!broken.empty() || !still_valid)
      RC_FAIL(std::string("a valid program read from ") + form_name(form) + " does not read back from " +
              form_name(other) + ": " + (broken.empty() ? "rejected" : broken) + "\n" + again);
    RC_ASSERT(q == p);
  }
}

// --- mutations -------------------------------------------------------------------

// Spans of "words" (runs of [A-Za-z0-9_@.+-], or JSON strings) in a text.
std::vector<std::pair<size_t, size_t>> words(const std::string& s) {
  std::vector<std::pair<size_t, size_t>> out;
  auto wordy = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '-' || c == '.' || c == '+';
  };
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '"') {
      size_t j = s.find('"', i + 1);
      j = j == std::string::npos ? s.size() : j + 1;
      out.emplace_back(i, j - i);
      i = j;
    } else if (wordy(s[i])) {
      size_t j = i;
      while (j < s.size() && wordy(s[j])) j++;
      out.emplace_back(i, j - i);
      i = j;
    } else {
      i++;
    }
  }
  return out;
}

enum class Edit { Truncate, Delete, Insert, Replace, SwapWords, Keyword, HugeNumber, Duplicate };

struct Mutation {
  Edit edit;
  size_t at;          // a byte or word index, taken modulo the input's size
  size_t other;       // a length, or a second word index
  std::string bytes;  // inserted / replacing bytes, the keyword or the number
};

const std::vector<std::string>& keywords() {
  static const std::vector<std::string> v{
      "kind",        "state",        "init",       "on",        "process",   "supervisor", "given",     "send",
      "to",          "spawn",        "under",      "stop",      "fail",      "if",         "else",      "repeat",
      "self",        "int",          "addr",       "intensity", "permanent", "transient",  "temporary", "one_for_one",
      "one_for_all", "rest_for_one", "NO_HANDLER", "true",      "null",      "concord"};
  return v;
}

const std::vector<std::string>& huge_numbers() {
  static const std::vector<std::string> v{"9223372036854775807",
                                          "9223372036854775808",
                                          "-9223372036854775808",
                                          "-9223372036854775809",
                                          "18446744073709551615",
                                          "18446744073709551616",
                                          "99999999999999999999999999999999999999",
                                          "1e999",
                                          "-1e999",
                                          "1e308",
                                          "1.5",
                                          "-0",
                                          "0x10",
                                          "00",
                                          "1001",
                                          "-1",
                                          "2147483648",
                                          "100001"};
  return v;
}

/// A mutation of one of the kinds above, with random places and bytes. Shrinks
/// toward a truncation at byte 0 and toward fewer, plainer bytes.
rc::Gen<Mutation> mutation() {
  rc::Gen<std::string> bytes = rc::gen::resize(
      8, rc::gen::container<std::string>(
             gen::weighted<char>({{4, rc::gen::elementOf(std::string("{}[]()\":,;=@-#\n \\/~0123456789aZ_.!<>*%"))},
                                  {1, rc::gen::arbitrary<char>()}})));
  return rc::gen::mapcat(rc::gen::element(Edit::Truncate, Edit::Delete, Edit::Insert, Edit::Replace, Edit::SwapWords,
                                          Edit::Keyword, Edit::HugeNumber, Edit::Duplicate),
                         [bytes](Edit e) {
                           rc::Gen<std::string> payload = e == Edit::Keyword      ? rc::gen::elementOf(keywords())
                                                          : e == Edit::HugeNumber ? rc::gen::elementOf(huge_numbers())
                                                                                  : bytes;
                           return rc::gen::apply(
                               [e](size_t at, size_t other, std::string b) {
                                 return Mutation{e, at, other, std::move(b)};
                               },
                               rc::gen::arbitrary<size_t>(), rc::gen::inRange<size_t>(1, 64), payload);
                         });
}

std::string apply(const Mutation& m, std::string s) {
  size_t at = s.empty() ? 0 : m.at % (s.size() + 1);
  auto ws = words(s);
  switch (m.edit) {
    case Edit::Truncate: return s.substr(0, at);
    case Edit::Delete: return s.erase(std::min(at, s.size()), m.other % 9);
    case Edit::Insert: return s.insert(at, m.bytes);
    case Edit::Replace: return s.replace(std::min(at, s.size()), m.bytes.size(), m.bytes);
    case Edit::Duplicate: {
      size_t from = m.other * 7919 % (s.size() + 1);
      return s.insert(at, s.substr(from, m.other));
    }
    case Edit::SwapWords: {
      if (ws.size() < 2) return s;
      auto a = ws[m.at % ws.size()], b = ws[m.other % ws.size()];
      if (a.first > b.first) std::swap(a, b);
      if (a.first == b.first) return s;
      return s.substr(0, a.first) + s.substr(b.first, b.second) +
             s.substr(a.first + a.second, b.first - a.first - a.second) + s.substr(a.first, a.second) +
             s.substr(b.first + b.second);
    }
    case Edit::Keyword:
    case Edit::HugeNumber: {
      // A keyword replaces a word (inside the quotes of a JSON string); a number
      // replaces a number, or any word when there is none.
      std::vector<std::pair<size_t, size_t>> targets;
      for (auto w : ws) {
        bool number = std::isdigit(static_cast<unsigned char>(s[w.first])) ||
                      (s[w.first] == '-' && w.second > 1 && std::isdigit(static_cast<unsigned char>(s[w.first + 1])));
        if ((m.edit == Edit::HugeNumber) == number) targets.push_back(w);
      }
      if (targets.empty()) targets = ws;
      if (targets.empty()) return s;
      auto [pos, len] = targets[m.at % targets.size()];
      if (s[pos] == '"' && len >= 2) pos++, len -= 2;
      return s.replace(pos, len, m.bytes);
    }
  }
  return s;
}

void showValue(const Mutation& m, std::ostream& os) {
  static const char* const names[] = {"truncate",   "delete",  "insert",      "replace",
                                      "swap-words", "keyword", "huge-number", "duplicate"};
  os << names[static_cast<int>(m.edit)] << " at " << m.at << " other " << m.other << " bytes ";
  rc::show(m.bytes, os);
}

rc::Gen<Form> form() { return rc::gen::element(Form::Text, Form::Json); }

// --- properties ------------------------------------------------------------------

RC_GTEST_PROP(FuzzReaders, UnmutatedProgramsAreValid, ()) {
  Program p = *gen::any_program();
  for (Form f : {Form::Json, Form::Text}) read_must_behave(source_of(p, f), f);
}

RC_GTEST_PROP(FuzzReaders, MutatedInputIsReadOrRejectedWithAPlace, ()) {
  Program p = *gen::any_program();
  Form f = *form();
  auto ms = *rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<Mutation>>(mutation())));
  std::string input = source_of(p, f);
  for (const Mutation& m : ms) input = apply(m, std::move(input));
  RC_LOG() << form_name(f) << " input:\n" << input << "\n";
  read_must_behave(input, f);
}

// Deep nesting of every kind the grammars allow, spliced anywhere into a program
// or put where it parses furthest.
std::string deep(int which, size_t n) {
  auto rep = [](const std::string& s, size_t k) {
    std::string out;
    out.reserve(s.size() * k);
    for (size_t i = 0; i < k; i++) out += s;
    return out;
  };
  switch (which) {
    case 0: return rep("(", n) + "1" + rep(")", n);
    case 1: return "a" + rep(" + a", n);
    case 2: return rep("- ", n) + "a";
    case 3: return rep("-(", n) + "1" + rep(")", n);
    case 4: return rep("!~", n) + "a";
    case 5: return rep("if 1 { ", n) + rep("} ", n);
    case 6: return rep("if 1 {} else ", n) + "{}";
    case 7: return rep("repeat 1 { ", n) + rep("}", n);
    case 8: return rep("permanent supervisor s one_for_one intensity 0 { ", n) + rep("}", n);
    case 9: return rep("[", n) + rep("]", n);
    case 10: return rep("{\"a\":", n) + "1" + rep("}", n);
    case 11: return rep("{\"op\":\"neg\",\"arg\":", n) + "{\"op\":\"int\",\"value\":1}" + rep("}", n);
    case 12:
      return rep("{\"op\":\"add\",\"rhs\":{\"op\":\"int\",\"value\":1},\"lhs\":", n) +
             "{\"op\":\"var\",\"name\":\"a\"}" + rep("}", n);
    case 13:
      return rep("{\"do\":\"if\",\"cond\":{\"op\":\"int\",\"value\":1},\"else\":[],\"then\":[", n) + rep("]}", n);
    case 14:
      return rep("{\"restart\":\"permanent\",\"supervisor\":{\"name\":\"s\",\"strategy\":\"one_for_one\",\"intensity\":"
                 "0,\"children\":[",
                 n) +
             rep("]}}", n);
    default: return rep("[{", n);
  }
}
constexpr int kDeepKinds = 16;

// `deep` put where it parses furthest: an expression, a statement, a child.
std::string deep_in_context(int which, size_t n, Form& f) {
  std::string d = deep(which, n);
  if (which <= 4) {
    f = Form::Text;
    return "kind K(a: int) {\n    state x: int = 0;\n    on t() {\n        x = " + d + ";\n    }\n}\n";
  }
  if (which <= 7) {
    f = Form::Text;
    return "kind K() {\n    on t() {\n        " + d + "\n    }\n}\n";
  }
  if (which == 8) {
    f = Form::Text;
    return "kind K() {}\nsupervisor top one_for_one intensity 1 {\n    " + d + "\n}\n";
  }
  f = Form::Json;
  std::string kind_head = "{\"concord\":1,\"kinds\":[{\"name\":\"K\",\"params\":[{\"name\":\"a\",\"type\":\"int\"}],";
  if (which == 9 || which == 10 || which == 15) return "{\"concord\":1,\"kinds\":" + d + ",\"system\":[],\"given\":[]}";
  if (which == 11 || which == 12)
    return kind_head + "\"state\":[{\"name\":\"x\",\"type\":\"int\",\"init\":" + d +
           "}],\"init\":[],\"handlers\":[]}],\"system\":[],\"given\":[]}";
  if (which == 13)
    return kind_head + "\"state\":[],\"init\":[],\"handlers\":[{\"tag\":\"t\",\"params\":[],\"body\":[" + d +
           "]}]}],\"system\":[],\"given\":[]}";
  return kind_head +
         "\"state\":[],\"init\":[],\"handlers\":[]}],\"system\":[{\"supervisor\":{\"name\":\"top\",\"strategy\":"
         "\"one_for_one\",\"intensity\":1,\"children\":[" +
         d + "]}}],\"given\":[]}";
}

rc::Gen<size_t> nesting() {
  return gen::weighted<size_t>(
      {{4, rc::gen::element<size_t>(63, 64, 65, 66, 200)}, {1, rc::gen::just<size_t>(100000)}});
}

RC_GTEST_PROP(FuzzReaders, DeepNestingSplicedAnywhereIsRejectedWithAPlace, ()) {
  // A small carrier: the point is where the nesting lands, and under the sanitizers
  // a large program around 100000 levels costs seconds per case.
  Program p = *rc::gen::resize(20, gen::any_program());
  Form f = *form();
  std::string input = source_of(p, f);
  size_t at = *rc::gen::inRange<size_t>(0, input.size() + 1);
  input.insert(at, deep(*rc::gen::inRange(0, kDeepKinds), *nesting()));
  read_must_behave(input, f);
}

RC_GTEST_PROP(FuzzReaders, DeepNestingInContextIsReadOrRejectedWithAPlace, ()) {
  Form f;
  std::string input = deep_in_context(*rc::gen::inRange(0, kDeepKinds), *nesting(), f);
  read_must_behave(input, f);
}

// Every deep construct once at 100000 levels, where it parses furthest: rejected,
// located, quickly.
TEST(FuzzReaders, HundredThousandLevelsOfEveryNesting) {
  for (int which = 0; which < kDeepKinds; which++) {
    Form f;
    std::string input = deep_in_context(which, 100000, f);
    bool rejected = false;
    try {
      Program p = f == Form::Json ? program_from_json_text(input) : parse_program(input);
      check(p);
    } catch (const InputError& e) {
      std::string why;
      EXPECT_TRUE(located(e.where, f, input, why, e.what_is_wrong))
          << "nesting " << which << ": " << why << ": " << e.what();
      rejected = true;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "nesting " << which << ": " << typeid(e).name() << ": " << e.what();
      rejected = true;
    }
    EXPECT_TRUE(rejected) << "nesting " << which << " accepted";
  }
}

}  // namespace
}  // namespace concord
