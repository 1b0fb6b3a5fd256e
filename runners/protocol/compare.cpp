// runners/protocol/compare.cpp: the verdict on one answer and the words that explain it.
#include "compare.hpp"

#include <algorithm>

#include "oracle/printable.hpp"
#include "runners/protocol/diff.hpp"

namespace concord {
namespace {

std::string indent(const std::string& text, const std::string& by) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    out += by + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// A target's message is its own text: printable, so a report stays one line per
// message, and bounded. A result by its outcome and turns.
std::string what_it_is(const Answer& a) {
  if (a.ok()) {
    std::string outcome = a.json.value("outcome", ojson()).is_string() ? a.json["outcome"].get<std::string>() : "?";
    std::string turns = a.json.contains("turns") ? a.json["turns"].dump() : "?";
    return "a result (" + printable(outcome) + " after " + printable(turns) + " turns)";
  }
  std::string message = a.json.is_object() && a.json.value("message", ojson()).is_string()
                            ? a.json["message"].get<std::string>()
                            : std::string();
  return "error " + printable(bounded_message(a.code())) + ": " + printable(bounded_message(message));
}

// Both sides around the first differing byte, for a difference of form only.
std::string byte_report(const std::string& ref_name, const std::string& ref, const std::string& name,
                        const std::string& got) {
  size_t n = std::min(ref.size(), got.size()), at = 0;
  while (at < n && ref[at] == got[at]) at++;
  size_t from = at > 30 ? at - 30 : 0;
  auto excerpt = [&](const std::string& s) {
    return printable(ojson(s.substr(from, 60)).dump(-1, ' ', false, ojson::error_handler_t::replace));
  };
  return "same JSON value, different bytes (SPEC 9.3 canonical form): first at byte " + std::to_string(at) + "\n" +
         "  " + ref_name + ": ..." + excerpt(ref) + "\n  " + name + ": ..." + excerpt(got) + "\n";
}

}  // namespace

std::string bounded_message(const std::string& message) {
  if (message.size() <= kMessageShown) return message;
  size_t cut = kMessageShown;
  // Back to the start of the character the cut falls in (never past a whole one).
  while (cut > 0 && kMessageShown - cut < 4 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) cut--;
  return message.substr(0, cut) + "... (" + std::to_string(message.size()) + " bytes)";
}

std::string difference_words(const std::string& ref_name, const Answer& ref, const std::string& name,
                             const Answer& got) {
  if (!ref.ok() || !got.ok()) {
    if (ref.json == got.json) return "";
    return "the answers differ\n  " + ref_name + ": " + what_it_is(ref) + "\n  " + name + ": " + what_it_is(got) + "\n";
  }
  std::optional<Difference> d = first_causal_difference(ref.json, got.json);
  if (!d) return "";
  // The event's kind from the side that has it (an event one side lacks: the other's).
  std::string where = locate(d->pointer, ref.json.contains("journal") && !d->left_missing ? ref.json : got.json);
  std::string text = describe(*d, ref_name, name);
  if (!where.empty()) text.insert(text.find('\n'), " (" + where + ")");
  return text;
}

std::string locate(const std::string& pointer, const ojson& result) {
  const std::string prefix = "/journal/";
  if (pointer.rfind(prefix, 0) != 0) return "";
  size_t slash = pointer.find('/', prefix.size());
  std::string index =
      pointer.substr(prefix.size(), slash == std::string::npos ? std::string::npos : slash - prefix.size());
  if (index.empty() || !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; })) return "";
  std::string where = "journal event " + index;
  size_t i = std::stoul(index);
  if (result.contains("journal") && result["journal"].is_array() && i < result["journal"].size() &&
      result["journal"][i].is_object() && result["journal"][i].contains("ev") && result["journal"][i]["ev"].is_string())
    where += " (" + result["journal"][i]["ev"].get<std::string>() + ")";
  if (slash != std::string::npos) where += ", field " + pointer.substr(slash + 1);
  return where;
}

Comparison compare_answers(const std::string& ref_name, const Answer& ref, const std::string& name, const Answer& got) {
  Comparison c;
  if (!got.ok() && !is_definite(got.code())) {
    c.verdict = Verdict::kNoVerdict;
    c.report = "  no verdict: " + what_it_is(got) + "\n";
    return c;
  }
  if (!ref.ok() && !is_definite(ref.code())) {  // the reference itself gave none (MEMORY: SPEC §11)
    c.verdict = Verdict::kNoVerdict;
    c.report = "  no verdict: " + ref_name + ": " + what_it_is(ref) + "\n";
    return c;
  }
  if (!ref.ok() || !got.ok()) {
    if (!ref.ok() && !got.ok() && ref.code() == got.code()) return c;  // errors agree by code (SPEC §10)
    c.verdict = Verdict::kDiffer;
    c.report = "  " + ref_name + ": " + what_it_is(ref) + "\n  " + name + ": " + what_it_is(got) + "\n";
    return c;
  }
  if (std::string text = difference_words(ref_name, ref, name, got); !text.empty()) {
    c.verdict = Verdict::kDiffer;
    c.report = indent(text, "  ");
    return c;
  }
  if (ref.line != got.line) {
    c.verdict = Verdict::kDiffer;
    c.report = indent(byte_report(ref_name, ref.line, name, got.line), "  ");
  }
  return c;
}

}  // namespace concord
