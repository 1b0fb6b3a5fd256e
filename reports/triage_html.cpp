// reports/triage_html.cpp: a Triage as one self-contained page: the verdict per
// target, both sides around each first difference with the differing field
// marked, a command per target that reproduces it, the program, and the full
// journals and answers folded away.
#include <sstream>

#include "oracle/dialect.hpp"
#include "reports/html.hpp"
#include "reports/shown_path.hpp"
#include "reports/spec_rule.hpp"
#include "reports/triage_page.hpp"

namespace concord {
namespace {

std::string cell(bool present, const ojson& v, const std::string& mark) {
  if (!present) return "<td class=\"absent\">(absent)</td>";
  ElementWords w = element_words(v);
  std::string out = html_escape(w.head);
  for (const auto& [k, val] : w.fields) {
    std::string f = html_escape(k.empty() ? val : k + "=" + val);
    if (!mark.empty() && k == mark) f = "<mark class=\"field\" data-field=\"" + html_escape(k) + "\">" + f + "</mark>";
    out += (out.empty() ? "" : " ") + f;
  }
  return "<td>" + out + "</td>";
}

std::string side_table(const SideBySide& s, const std::string& right_name, const std::string& id) {
  std::ostringstream out;
  out << "<table class=\"side\"" << (id.empty() ? "" : " id=\"" + html_escape(id) + "\"")
      << ">\n<tr><th>#</th><th>oracle</th><th>" << html_escape(right_name) << "</th></tr>\n";
  for (const SideRow& r : s.rows) {
    std::string cls = r.first ? " class=\"first differs\"" : r.differs ? " class=\"differs\"" : "";
    std::string mark = r.first ? s.field : "";
    out << "<tr" << cls << "><td class=\"num\">"
        << (s.rows.size() > 1 || s.section == "journal" ? std::to_string(r.index) : "") << "</td>"
        << cell(r.left_present, r.left, mark) << cell(r.right_present, r.right, mark) << "</tr>\n";
  }
  out << "</table>\n";
  return out.str();
}

// Per differing target, the SPEC rule behind its first difference: named, linked
// to its section of SPEC.md and quoted from it.
std::string rules_section(const Triage& t) {
  std::ostringstream out;
  bool any = false;
  for (const TargetTriage& tt : t.targets) {
    if (tt.state != TargetTriage::State::kDiffer || tt.rule.empty()) continue;
    if (!any) out << "<section id=\"rules\">\n<h2>The rule behind the difference</h2>\n";
    any = true;
    std::optional<SpecRule> r = spec_rule(tt.rule);
    out << "<div class=\"rule\" id=\"rule-" << html_escape(tt.target) << "\"><h3>" << html_escape(tt.target) << ": "
        << html_escape(tt.rule) << "</h3>\n";
    if (std::optional<Alt> a = tt.dialect.empty() ? std::nullopt : alternative_named(tt.dialect))
      out << "<p class=\"replay\">" << html_escape(tt.target) << " behaves as the oracle would if SPEC "
          << html_escape(alternative(*a).rule) << " were <code>" << html_escape(tt.dialect)
          << "</code>: " << html_escape(alternative(*a).instead) << ", on every run (the replay: <code>"
          << html_escape(t.concord + " run " + shown_path(t.path) + " --dialect " + tt.dialect) << "</code>).</p>\n";
    else
      out << "<p class=\"replay\">No dialect of the oracle gives its answers: this rule is the fallback analysis's "
          << "of the first difference.</p>\n";
    if (!r) {
      out << "<p>(this rule names no section of " << html_escape(shown_path(spec_md_path(), t.page_dir))
          << ")</p></div>\n";
      continue;
    }
    std::string href = shown_path(r->file, t.page_dir) + "#" + r->anchor;
    out << "<p>SPEC <a class=\"spec-link\" href=\"" << html_escape(href) << "\">§" << html_escape(r->heading)
        << "</a> (<code>" << html_escape(shown_path(r->file, t.page_dir))
        << "</code>) says:</p>\n<blockquote class=\"spec-quote\"><pre>" << html_escape(r->quote)
        << "</pre></blockquote></div>\n";
  }
  if (any) out << "</section>\n";
  return out.str();
}

}  // namespace

std::string triage_html(const Triage& t) {
  std::ostringstream out;
  std::string title = "concord triage: " + (t.c.name.empty() ? shown_path(t.path) : t.c.name);
  out << html_page_start(title) << "<h1>" << html_escape(title) << "</h1>\n";
  out << "<table class=\"meta\">\n<tr><td>case file</td><td><code>" << html_escape(shown_path(t.path))
      << "</code></td></tr>\n";
  if (!t.c.about.empty()) out << "<tr><td>about</td><td>" << html_escape(t.c.about) << "</td></tr>\n";
  out << "<tr><td>status</td><td>" << html_escape(t.c.status)
      << (t.c.reason.empty() ? "" : " (" + html_escape(t.c.reason) + ")") << "</td></tr>\n";
  out << "<tr><td>recorded signature</td><td><code>" << html_escape(t.c.signature.empty() ? "none" : t.c.signature)
      << "</code></td></tr>\n<tr><td>signature now</td><td><code id=\"signature\">"
      << html_escape(t.signature.empty() ? "none: every target agrees with the oracle" : t.signature)
      << "</code></td></tr>\n";
  if (t.c.found.is_object() && t.c.found.contains("reproduce"))
    out << "<tr><td>found by</td><td><code>" << html_escape(t.c.found["reproduce"].get<std::string>())
        << "</code></td></tr>\n";
  out << "</table>\n";
  if (!t.oracle_changed.empty()) {
    out << "<p class=\"note\">The oracle's answer is no longer the recorded result on run";
    for (size_t i : t.oracle_changed) out << " " << i;
    out << ": the spec or the oracle changed since the case was stored.</p>\n";
  }

  if (!t.not_run.empty()) {
    out << "<p class=\"note\">The recorded signature names";
    for (const std::string& n : t.not_run) out << " <code>" << html_escape(n) << "</code>";
    out << ", not run here: declare it with <code>--backend NAME=COMMAND</code>.</p>\n";
  }
  if (!t.not_claimed.empty()) {
    out << "<p class=\"note\">Not run on";
    for (const std::string& n : t.not_claimed) out << " <code>" << html_escape(n) << "</code>";
    out << ": the program uses what its declaration does not claim.</p>\n";
  }
  out << "<h2>Verdict against the oracle</h2>\n<table id=\"verdict\">\n<tr><th>target</th><th>verdict</th><th>run</th>"
         "<th>what differs first</th></tr>\n";
  for (const TargetTriage& tt : t.targets) {
    out << "<tr><td>" << html_escape(tt.target) << "</td>";
    if (tt.state == TargetTriage::State::kAgree) {
      out << "<td class=\"agree\">agrees</td><td>all " << t.runs.size() << "</td><td></td></tr>\n";
      continue;
    }
    bool differ = tt.state == TargetTriage::State::kDiffer;
    std::string verdict = !differ                ? "noverdict\">no verdict"
                          : tt.deviation.empty() ? "differ\">differs"
                                                 : "noverdict\">known deviation <code>" + html_escape(tt.deviation) +
                                                       "</code>: " + html_escape(tt.deviation_about);
    out << "<td class=\"" << verdict << "</td><td class=\"num\">" << tt.run << "</td><td>"
        << (tt.rule.empty() ? ""
                            : "<a class=\"rule\" href=\"#rule-" + html_escape(tt.target) + "\">" +
                                  html_escape(tt.rule) + "</a> at ")
        << "<code>" << html_escape(tt.kind) << "</code><pre>" << html_escape(tt.report) << "</pre></td></tr>\n";
  }
  out << "</table>\n";

  out << "<section id=\"first-difference\">\n";
  bool any = false;
  for (const TargetTriage& tt : t.targets) {
    if (tt.state != TargetTriage::State::kDiffer) continue;
    any = true;
    out << "<h2>" << html_escape(tt.target) << ", run " << tt.run << " (" << settings_words(t.runs[tt.run])
        << "): " << html_escape(where_words(tt.around)) << "</h2>\n"
        << side_table(tt.around, tt.target, "first-" + tt.target);
    if (!tt.stderr_tail.empty())
      out << "<p>What " << html_escape(tt.target)
          << " wrote on stderr last, before it failed:</p>\n<pre class=\"stderr\" id=\"stderr-"
          << html_escape(tt.target) << "\">" << html_escape(tt.stderr_tail) << "</pre>\n";
  }
  if (!any) out << "<p>No target differs from the oracle on this case.</p>\n";
  out << "</section>\n";
  out << rules_section(t);

  out << "<h2>Reproduce</h2>\n<section id=\"reproduce\">\n";
  size_t oracle_run = 0;
  for (const TargetTriage& tt : t.targets)
    if (tt.state != TargetTriage::State::kAgree) {
      oracle_run = tt.run;
      break;
    }
  out << "<p>oracle, run " << oracle_run << ":</p>\n" << html_command(reproduce_run(t, "oracle", oracle_run));
  for (const TargetTriage& tt : t.targets) {
    size_t run = tt.state == TargetTriage::State::kAgree ? oracle_run : tt.run;
    out << "<p>" << html_escape(tt.target) << ", run " << run << ":</p>\n"
        << html_command(reproduce_run(t, tt.target, run));
  }
  out << "<p>this page's content in a terminal, every target:</p>\n" << html_command(reproduce_case(t));
  out << "</section>\n";

  out << "<h2>Program</h2>\n<pre id=\"program\">" << html_escape(t.program_text) << "</pre>\n";
  out << "<h2>Runs</h2>\n<table id=\"runs\">\n<tr><th>run</th><th class=\"num\">seed</th><th class=\"num\">turns</th>"
         "<th class=\"num\">max processes</th></tr>\n";
  for (size_t i = 0; i < t.runs.size(); i++)
    out << "<tr><td class=\"num\">" << i << "</td><td class=\"num\">" << t.runs[i].seed << "</td><td class=\"num\">"
        << t.runs[i].turns << "</td><td class=\"num\">" << t.runs[i].max_processes << "</td></tr>\n";
  out << "</table>\n";

  out << "<h2>Full journals</h2>\n";
  for (const TargetTriage& tt : t.targets) {
    if (tt.state != TargetTriage::State::kDiffer) continue;
    const SideBySide& j = tt.journal;
    std::string shown = std::to_string(j.total) + " events";
    if (j.rows.size() < j.total && !j.rows.empty())
      shown += ", " + std::to_string(j.rows.front().index) + " to " + std::to_string(j.rows.back().index) +
               " shown, around the first difference";
    out << "<details class=\"journal\"><summary>run " << tt.run << ": oracle and " << html_escape(tt.target) << " ("
        << shown << ")</summary>\n"
        << side_table(tt.journal, tt.target, "") << "</details>\n";
  }
  out << "<details><summary>every answer, as the backends printed it</summary>\n";
  for (size_t i = 0; i < t.runs.size(); i++) {
    out << "<p>run " << i << ", oracle:</p><pre>" << html_escape(t.oracle[i].line) << "</pre>\n";
    for (const TargetTriage& tt : t.targets)
      if (i < tt.answers.size())
        out << "<p>run " << i << ", " << html_escape(tt.target) << ":</p><pre>" << html_escape(tt.answers[i].line)
            << "</pre>\n";
  }
  out << "</details>\n" << html_page_end();
  return out.str();
}

}  // namespace concord
