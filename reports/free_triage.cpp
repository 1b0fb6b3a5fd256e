// reports/free_triage.cpp: the text and the page of a free run's trace (free_triage.hpp).
#include "free_triage.hpp"

#include <map>
#include <set>
#include <sstream>

#include "oracle/printable.hpp"
#include "oracle/text.hpp"
#include "reports/html.hpp"

namespace concord {
namespace {

std::string inc_words(const ojson& r) {
  if (!r.is_array() || r.size() != 2) return "the outside";
  return r[0].get<std::string>() + "#" + std::to_string(r[1].get<int64_t>());
}

std::string args_words(const ojson& args) {
  std::string s;
  for (const ojson& a : args) s += (s.empty() ? "" : ", ") + (a.is_string() ? a.get<std::string>() : a.dump());
  return s;
}

// Each listed incarnation: its place ("/workers/2") and its JSON.
std::vector<std::pair<std::string, const ojson*>> incarnations(const ojson& trace) {
  std::vector<std::pair<std::string, const ojson*>> out;
  for (const char* list : {"workers", "supervisors"})
    if (trace.contains(list) && trace[list].is_array())
      for (size_t i = 0; i < trace[list].size(); i++)
        out.emplace_back(std::string("/") + list + "/" + std::to_string(i), &trace[list][i]);
  return out;
}

std::set<std::string> marked(const TraceVerdict& v) {
  std::set<std::string> m;
  if (!v.violations.empty())
    for (const std::string& p : v.violations[0].places) m.insert(p);
  return m;
}

std::string exit_words(const ojson& inc) {
  const ojson& e = inc.value("exit", ojson());
  return e.is_null() ? "alive at the end" : "exit " + e.get<std::string>();
}

std::string final_words(const ojson& inc) {
  if (inc.contains("state") && !inc["state"].is_null()) return "state " + inc["state"].dump();
  if (inc.contains("children") && !inc["children"].is_null()) {
    std::string s;
    for (const ojson& c : inc["children"])
      s += (s.empty() ? "" : ", ") + c.value("name", std::string()) + (c.value("running", false) ? "" : " (not running)");
    return "children [" + s + "]";
  }
  return "";
}

}  // namespace

std::string trace_event_words(const ojson& e) {
  std::string ev = e.value("ev", std::string("?"));
  auto n = [&](const char* key) { return e.contains(key) ? std::to_string(e[key].get<int64_t>()) : std::string("?"); };
  auto reached = [&] { return e.contains("inc") && !e["inc"].is_null() ? "#" + std::to_string(e["inc"].get<int64_t>()) : " (none live)"; };
  if (ev == "deliver") {
    std::string what = e.value("tag", std::string()) + "(" + args_words(e.value("args", ojson::array())) + ")";
    std::string sig = e.value("signal", std::string());
    if (sig == "noproc") return "deliver " + what + ", the answer of its own effect " + n("n");
    if (sig == "down") return "deliver " + what + " from " + inc_words(e["from"]) + "'s exit (its monitor, effect " + n("monitor") + ")";
    if (sig == "link") return "deliver " + what + " from " + inc_words(e["from"]) + "'s exit (a link)";
    if (!e.contains("from") || e["from"].is_null()) return "deliver " + what + ", given message " + n("n");
    return std::string(e.value("call", false) ? "deliver call " : "deliver ") + what + " from " + inc_words(e["from"]) +
           " (its effect " + n("n") + ")";
  }
  if (ev == "resume") return "resume with " + e.value("value", ojson()).dump() + " (" + inc_words(e["from"]) + "'s reply, effect " + n("n") + ")";
  if (ev == "signal")
    return "signal " + e.value("kind", std::string()) + " from " + inc_words(e["from"]) + ", " + e.value("reason", std::string()) +
           ": " + e.value("effect", std::string());
  if (ev == "send") return n("n") + ": send to " + e.value("to", std::string()) + reached();
  if (ev == "drop") return n("n") + ": send to " + e.value("to", std::string()) + ", dropped";
  if (ev == "spawn")
    return n("n") + ": spawn " + (e.contains("refused") ? "refused " + e["refused"].get<std::string>()
                                                        : e.value("name", std::string()) + " (" + e.value("result", std::string()) + ")");
  if (ev == "reply") return n("n") + ": reply";
  if (ev == "api")
    return n("n") + ": " + e.value("op", std::string()) + " -> " + e.value("result", std::string());
  if (e.contains("to")) return n("n") + ": " + ev + " " + e.value("to", std::string()) + reached();
  if (ev == "exit") return "input: exit of " + inc_words(e["child"]) + " (" + e.value("reason", std::string()) + ")";
  if (ev == "start_child") return "input: start_child " + e.value("child", std::string()) + " for " + inc_words(e["from"]);
  if (ev == "retry") return "input: retry " + e.value("child", std::string());
  if (ev == "decision") return "decision " + e.value("action", std::string()) + " for " + e.value("child", std::string());
  return ev;
}

std::string free_triage_text(const FreeTriage& t) {
  std::ostringstream o;
  o << t.title << "\n";
  if (t.verdict.admissible) o << "  the trace is admissible\n";
  for (const Violation& v : t.verdict.violations) o << "  " << printable(violation_line(v)) << "\n";
  if (!t.note.empty()) o << "  (" << t.note << ")\n";
  std::set<std::string> m = marked(t.verdict);
  for (const auto& [place, inc] : incarnations(t.trace)) {
    std::string name = inc->value("name", std::string()) + "#" + std::to_string(inc->value("inc", int64_t{0}));
    o << (m.count(place) ? ">> " : "   ") << name << " (started by " << inc_words(inc->value("by", ojson())) << ")\n";
    const ojson& evs = inc->value("events", ojson::array());
    for (size_t k = 0; k < evs.size(); k++) {
      std::string at = place + "/events/" + std::to_string(k);
      o << (m.count(at) ? ">>   " : "     ") << k + 1 << ". " << printable(trace_event_words(evs[k])) << "\n";
    }
    o << (m.count(place + "/exit") ? ">>   " : "     ") << exit_words(*inc);
    std::string fin = final_words(*inc);
    o << (fin.empty() ? "" : ", " + fin) << "\n";
  }
  for (const std::string& c : t.commands) o << "  " << c << "\n";
  return o.str();
}

std::string free_triage_html(const FreeTriage& t) {
  std::ostringstream o;
  o << html_page_start("concord free triage: " + t.title);
  o << "<h1>" << html_escape(t.title) << "</h1>\n";
  if (t.verdict.admissible) o << "<p class=\"agree\">The trace is admissible.</p>\n";
  for (const Violation& v : t.verdict.violations)
    o << "<p class=\"differ\">" << html_escape(v.guarantee) << "</p><p>" << html_escape(v.text) << "</p>\n";
  if (!t.note.empty()) o << "<p class=\"note\">" << html_escape(t.note) << "</p>\n";
  for (const std::string& c : t.commands) o << html_command(c);
  o << "<h2>Each incarnation's inputs and effects, side by side</h2>\n"
    << "<p>One column per incarnation, its events in the order they happened to it; no order holds between "
       "columns but what the events say (a delivery names its sender's effect). Marked: the events the "
       "violation names.</p>\n<div style=\"overflow-x:auto\"><table class=\"side\">\n<tr>";
  std::set<std::string> m = marked(t.verdict);
  auto incs = incarnations(t.trace);
  size_t rows = 0;
  for (const auto& [place, inc] : incs) {
    rows = std::max(rows, inc->value("events", ojson::array()).size());
    std::string name = inc->value("name", std::string()) + "#" + std::to_string(inc->value("inc", int64_t{0}));
    o << "<th" << (m.count(place) ? " class=\"differ\"" : "") << ">" << html_escape(name) << "<br><small>by "
      << html_escape(inc_words(inc->value("by", ojson()))) << "</small></th>";
  }
  o << "</tr>\n";
  for (size_t k = 0; k < rows + 1; k++) {
    o << "<tr>";
    for (const auto& [place, inc] : incs) {
      const ojson& evs = inc->value("events", ojson::array());
      if (k < evs.size()) {
        bool hit = m.count(place + "/events/" + std::to_string(k)) > 0;
        o << "<td" << (hit ? " style=\"background:#ffe4e1;font-weight:600\"" : "") << ">" << k + 1 << ". "
          << html_escape(trace_event_words(evs[k])) << "</td>";
      } else if (k == evs.size()) {
        bool hit = m.count(place + "/exit") > 0 || m.count(place + "/state") > 0 || m.count(place + "/children") > 0;
        std::string fin = final_words(*inc);
        o << "<td class=\"absent\"" << (hit ? " style=\"background:#ffe4e1;font-weight:600\"" : "") << ">"
          << html_escape(exit_words(*inc) + (fin.empty() ? "" : "; " + fin)) << "</td>";
      } else {
        o << "<td></td>";
      }
    }
    o << "</tr>\n";
  }
  o << "</table></div>\n";
  if (t.program) o << "<h2>The program</h2>\n<pre>" << html_escape(print_program(*t.program)) << "</pre>\n";
  o << "<details><summary>The trace (JSON)</summary><pre>" << html_escape(t.trace.dump(1)) << "</pre></details>\n";
  o << html_page_end();
  return o.str();
}

}  // namespace concord
