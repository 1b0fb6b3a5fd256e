// reports/triage_text.cpp: a Triage for a terminal: the case, the program, each
// target's verdict, both sides around each first difference (the differing field
// between >> <<), and the commands that reproduce it.
#include <sstream>

#include "oracle/dialect.hpp"
#include "reports/shown_path.hpp"
#include "reports/spec_rule.hpp"
#include "reports/triage_page.hpp"

namespace concord {
namespace {

constexpr size_t kColumn = 60;  // wider rows are shown one above the other

std::string indent(const std::string& text, const std::string& by) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : by + line) + "\n";
  return out;
}

std::string row_words(bool present, const ojson& v, const std::string& mark) {
  if (!present) return "(absent)";
  ElementWords w = element_words(v);
  std::string out = w.head;
  for (const auto& [k, val] : w.fields) {
    std::string f = k.empty() ? val : k + "=" + val;
    if (!mark.empty() && k == mark) f = ">>" + f + "<<";
    out += (out.empty() ? "" : " ") + f;
  }
  return out;
}

std::string pad(const std::string& s, size_t n) { return s.size() >= n ? s : s + std::string(n - s.size(), ' '); }

void side_by_side(std::ostream& out, const SideBySide& s, const std::string& right_name) {
  std::vector<std::string> left, right;
  size_t wide = 0;
  for (const SideRow& r : s.rows) {
    std::string mark = r.first ? s.field : "";
    left.push_back(row_words(r.left_present, r.left, mark));
    right.push_back(row_words(r.right_present, r.right, mark));
    wide = std::max({wide, left.back().size(), right.back().size()});
  }
  bool columns = wide <= kColumn;
  size_t lw = 6;
  for (const std::string& l : left) lw = std::max(lw, l.size());
  if (columns) out << "          " << pad("oracle", lw) << " | " << right_name << "\n";
  for (size_t i = 0; i < s.rows.size(); i++) {
    const SideRow& r = s.rows[i];
    std::string flag = r.first ? ">" : r.differs ? "!" : " ";
    std::string idx = s.rows.size() > 1 || s.section == "journal" ? std::to_string(r.index) : "";
    std::string lead = "    " + flag + " " + pad(idx, 4);
    if (columns) {
      out << lead << pad(left[i], lw) << " | " << right[i] << "\n";
    } else {
      size_t w = std::max<size_t>(6, right_name.size());
      out << lead << pad("oracle", w) << ": " << left[i] << "\n";
      out << std::string(lead.size(), ' ') << pad(right_name, w) << ": " << right[i] << "\n";
    }
  }
}

}  // namespace

std::string triage_text(const Triage& t) {
  std::ostringstream out;
  out << "case " << shown_path(t.path) << (t.c.name.empty() ? "" : " (" + t.c.name + ")") << "\n";
  if (!t.c.about.empty()) out << "  about: " << t.c.about << "\n";
  out << "  status: " << t.c.status << (t.c.reason.empty() ? "" : " (" + t.c.reason + ")") << "\n";
  out << "  recorded signature: " << (t.c.signature.empty() ? "none" : t.c.signature) << "\n";
  out << "  signature now: " << (t.signature.empty() ? "none (every target agrees with the oracle)" : t.signature)
      << "\n";
  if (t.c.found.is_object() && t.c.found.contains("reproduce"))
    out << "  found by: " << t.c.found["reproduce"].get<std::string>() << "\n";
  out << "\nprogram:\n" << indent(t.program_text, "    ");
  out << "\nruns:\n";
  for (size_t i = 0; i < t.runs.size(); i++) out << "  run " << i << ": " << settings_words(t.runs[i]) << "\n";
  if (!t.oracle_changed.empty()) {
    out << "  note: the oracle's answer is no longer the recorded result on run";
    for (size_t i : t.oracle_changed) out << " " << i;
    out << " (the spec or the oracle changed since the case was stored)\n";
  }

  if (!t.not_run.empty()) {
    out << "  note: the recorded signature names";
    for (const std::string& n : t.not_run) out << " " << n;
    out << ", not run here: declare it with --backend NAME=COMMAND\n";
  }
  if (!t.not_claimed.empty()) {
    out << "  note: not run on";
    for (const std::string& n : t.not_claimed) out << " " << n;
    out << ": the program uses what its declaration does not claim (runners/PROTOCOL.md)\n";
  }
  out << "\nverdict, against the oracle:\n";
  size_t w = 6;
  for (const TargetTriage& tt : t.targets) w = std::max(w, tt.target.size());
  for (const TargetTriage& tt : t.targets) {
    out << "  " << pad(tt.target, w) << "  ";
    if (tt.state == TargetTriage::State::kAgree) {
      out << "agrees on every run (" << t.runs.size() << ")\n";
      continue;
    }
    out << (tt.state == TargetTriage::State::kDiffer ? "DIFFERS" : "NO VERDICT") << " from run " << tt.run << ": "
        << (tt.rule.empty() ? "" : tt.rule + " at ") << tt.kind << "\n";
    if (std::optional<SpecRule> r = tt.rule.empty() ? std::nullopt : spec_rule(tt.rule))
      out << std::string(w + 4, ' ') << "SPEC " << r->heading << " (" << shown_path(r->file) << "#" << r->anchor
          << ")\n";
    if (!tt.dialect.empty()) {
      const Alternative* a = alternative_named(tt.dialect) ? &alternative(*alternative_named(tt.dialect)) : nullptr;
      out << std::string(w + 4, ' ') << tt.target << " behaves as the oracle would if SPEC "
          << (a ? a->rule : tt.rule.c_str()) << " were " << tt.dialect << (a ? std::string(": ") + a->instead : "")
          << "\n"
          << std::string(w + 4, ' ') << "on every run (the replay: " << t.concord << " run " << shown_path(t.path)
          << " --dialect " << tt.dialect << ")\n";
    } else if (tt.state == TargetTriage::State::kDiffer && !tt.rule.empty() && tt.deviation.empty()) {
      out << std::string(w + 4, ' ') << "(no dialect of the oracle gives its answers: the rule is the fallback "
          << "analysis's of the first difference)\n";
    }
    if (!tt.deviation.empty())
      out << std::string(w + 4, ' ') << "known deviation " << tt.deviation << ", declared by " << tt.target << ": "
          << tt.deviation_about << "\n";
    out << indent(tt.report, std::string(w + 2, ' '));
  }
  for (const TargetTriage& tt : t.targets) {
    if (tt.state != TargetTriage::State::kDiffer) continue;
    out << "\n"
        << tt.target << ", run " << tt.run << " (" << settings_words(t.runs[tt.run]) << "): " << where_words(tt.around)
        << "\n";
    side_by_side(out, tt.around, tt.target);
    if (!tt.stderr_tail.empty())
      out << "  what " << tt.target << " wrote on stderr last, before it failed:\n" << indent(tt.stderr_tail, "    ");
    if (tt.around.section != "journal" && !tt.journal.rows.empty()) {  // what led there: the journals' ends
      SideBySide tail = tt.journal;
      if (tail.rows.size() > 6) tail.rows.erase(tail.rows.begin(), tail.rows.end() - 6);
      out << "  the journals' last events (" << tt.journal.total << " in all):\n";
      side_by_side(out, tail, tt.target);
    }
  }
  out << "\nreproduce:\n";
  std::vector<std::pair<std::string, size_t>> lines{{"oracle", 0}};
  for (const TargetTriage& tt : t.targets)
    if (tt.state != TargetTriage::State::kAgree) lines.emplace_back(tt.target, tt.run);
  for (const TargetTriage& tt : t.targets)  // the oracle's line shows the first diverging run
    if (tt.state != TargetTriage::State::kAgree) {
      lines[0].second = tt.run;
      break;
    }
  for (const auto& [name, run] : lines) out << "  " << pad(name, w) << "  " << reproduce_run(t, name, run) << "\n";
  out << "  " << pad("all", w) << "  " << reproduce_case(t) << "\n";
  return out.str();
}

}  // namespace concord
