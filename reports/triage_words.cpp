// reports/triage_words.cpp: the words both renderings of a Triage share: an
// element as "t3 deliver to=a ...", a run's settings, where a difference is, and
// the commands that reproduce it.
#include <algorithm>

#include "oracle/printable.hpp"
#include "reports/shown_path.hpp"
#include "reports/triage_page.hpp"
#include "runners/protocol/backends.hpp"
#include "targets/targets.hpp"

namespace concord {

std::string value_words(const ojson& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    bool name = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
    });
    if (name) return s;
  }
  return printable(v.dump(-1, ' ', false, ojson::error_handler_t::replace));  // a target's text: shown escaped
}

ElementWords element_words(const ojson& e) {
  ElementWords w;
  if (!e.is_object()) {
    w.fields.emplace_back("", value_words(e));
    return w;
  }
  bool event = e.contains("ev") && e.contains("turn");
  if (event) w.head = "t" + value_words(e["turn"]) + " " + value_words(e["ev"]);
  for (const auto& [k, v] : e.items()) {
    if (event && (k == "ev" || k == "turn")) continue;
    w.fields.emplace_back(k, value_words(v));
  }
  return w;
}

std::string settings_words(const RunSettings& r) {
  return "seed " + std::to_string(r.seed) + ", turns " + std::to_string(r.turns) + ", max processes " +
         std::to_string(r.max_processes);
}

std::string where_words(const SideBySide& s) {
  if (s.section == "answer") return "the answers";
  if (s.section == "bytes") return "the bytes of the answer line (same JSON value)";
  for (const SideRow& r : s.rows)
    if (r.first && s.rows.size() > 1)
      return s.section + " around element " + std::to_string(r.index) + (s.field.empty() ? "" : ", field " + s.field);
  return "the " + s.section;
}

std::string reproduce_run(const Triage& t, const std::string& target, size_t run) {
  const RunSettings& r = t.runs.at(run);
  std::string cmd = t.concord + " run " + shell_quote(shown_path(t.path)) + " --seed " + std::to_string(r.seed) +
                    " --turns " + std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes);
  if (target == "oracle") return cmd;
  const std::vector<std::string>& builtin = builtin_targets();
  bool declared = std::find(builtin.begin(), builtin.end(), target) == builtin.end();
  cmd += " --target " + shell_quote(target) + (declared ? t.declared : "");
  return cmd;
}

std::string reproduce_case(const Triage& t) {
  return t.concord + " triage " + shell_quote(shown_path(t.path)) + t.declared;
}

}  // namespace concord
