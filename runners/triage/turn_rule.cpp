// runners/triage/turn_rule.cpp: the rules of the statements a turn ran (turn_rule.hpp).
#include "turn_rule.hpp"

#include <set>

#include "runners/triage/attribution_json.hpp"

namespace concord {
namespace {

using attribution_json::each_statement;
using attribution_json::kind_at;
using attribution_json::operators_in;
using attribution_json::rule_of_ops;
using attribution_json::str;

// (Pointers into the program: never into a value() copy.)
const ojson* kind_named(const ojson& prog, const std::string& name) {
  if (!prog.contains("kinds") || !prog["kinds"].is_array()) return nullptr;
  for (const ojson& k : prog["kinds"])
    if (str(k, "name") == name) return &k;
  return nullptr;
}

const ojson* handler_body(const ojson& kind, const std::string& tag) {
  if (!kind.contains("handlers") || !kind["handlers"].is_array()) return nullptr;
  for (const ojson& h : kind["handlers"])
    if (str(h, "tag") == tag && h.contains("body")) return &h["body"];
  return nullptr;
}

// The rule of a statement that acts (turn_rule.hpp), "" for one that computes.
std::string statement_rule(const std::string& what) {
  if (what == "send") return "§6.5 send";
  if (what == "spawn") return "§6.6 spawn";
  if (what == "stop" || what == "fail") return "§6.4 exit";
  if (what == "ignore") return "§19.1 ignore";
  if (what == "link" || what == "unlink") return "§16.2 link";
  if (what == "monitor" || what == "demonitor") return "§16.2 monitor";
  if (what == "exit") return "§16.2 exit";
  if (what == "trap_exit") return "§16.2 trap_exit";
  if (what == "call") return "§18.1 call";
  if (what == "reply") return "§18.1 reply";
  if (what == "terminate_child" || what == "restart_child" || what == "delete_child") return "§20 " + what;
  return "";
}

// The tag of the handler process `name` ran last before event `i` (a caller
// resumes in it).
std::string last_handler(const ojson& journal, const ojson& name, size_t i) {
  for (size_t j = std::min(i, journal.size()); j-- > 0;) {
    std::string ev = str(journal[j], "ev");
    if ((ev == "deliver" || ev == "call") && journal[j]["to"] == name) return str(journal[j], "tag");
    if (ev == "start" && journal[j]["name"] == name) return "";
  }
  return "";
}

}  // namespace

std::string turn_rule(const ojson& prog, const ojson& journal, int64_t turn) {
  if (!journal.is_array()) return "";
  std::vector<const ojson*> bodies;
  for (size_t i = 0; i < journal.size(); i++) {
    const ojson& e = journal[i];
    if (e.value("turn", int64_t{-1}) != turn) continue;
    std::string ev = str(e, "ev");
    const ojson* kind = nullptr;
    if (ev == "start") {
      if ((kind = kind_named(prog, str(e, "kind"))) && kind->contains("init")) bodies.push_back(&(*kind)["init"]);
      continue;
    }
    std::string tag = ev == "deliver" || ev == "call" ? str(e, "tag")
                      : ev == "resume"                ? last_handler(journal, e["to"], i)
                                                      : "";
    if (tag.empty() || !(kind = kind_named(prog, kind_at(journal, e["to"], i)))) continue;
    if (const ojson* body = handler_body(*kind, tag)) bodies.push_back(body);
  }
  std::set<std::string> rules, ops;
  for (const ojson* body : bodies)
    each_statement(*body, [&](const ojson& st) {
      if (std::string r = statement_rule(str(st, "do")); !r.empty()) rules.insert(r);
      for (const auto& item : st.items()) {
        if (item.value().is_object()) operators_in(item.value(), ops);  // value, cond, to, reason, child
        if (item.key() == "args")
          for (const ojson& a : item.value()) operators_in(a, ops);
      }
    });
  if (bodies.empty()) return "";
  if (rules.empty()) return rule_of_ops(ops);
  std::string out;
  for (const std::string& r : rules) out += (out.empty() ? "" : " + ") + r;
  return out;
}

}  // namespace concord
