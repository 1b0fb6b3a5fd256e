// runners/triage/triage.cpp: running a case for triage and locating its differences.
#include "triage.hpp"

#include <algorithm>

#include "oracle/text.hpp"
#include "runners/campaign/case_check.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/protocol/diff.hpp"

namespace concord {
namespace {

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const ojson* section_of(const Answer& a, const std::string& section) {
  if (!a.json.is_object() || !a.json.contains(section)) return nullptr;
  return &a.json[section];
}

// Rows [from, to) of two arrays (either may be shorter).
std::vector<SideRow> array_rows(const ojson* left, const ojson* right, size_t from, size_t to) {
  std::vector<SideRow> rows;
  size_t nl = left && left->is_array() ? left->size() : 0, nr = right && right->is_array() ? right->size() : 0;
  for (size_t i = from; i < to && i < std::max(nl, nr); i++) {
    SideRow r;
    r.index = i;
    r.left_present = i < nl;
    r.right_present = i < nr;
    if (r.left_present) r.left = (*left)[i];
    if (r.right_present) r.right = (*right)[i];
    r.differs = r.left_present != r.right_present || r.left != r.right;
    rows.push_back(std::move(r));
  }
  return rows;
}

// An answer as one row: a result by its outcome and turns, an error by its code.
ojson gist(const Answer& a) {
  if (!a.ok() && !a.json.is_object()) return ojson(bounded_message(a.line));
  if (!a.ok()) {  // its message bounded: a runtime's message of megabytes stays a row
    ojson e = a.json;
    if (e.contains("message") && e["message"].is_string())
      e["message"] = bounded_message(e["message"].get<std::string>());
    return e;
  }
  return ojson{{"outcome", a.json.value("outcome", ojson())}, {"turns", a.json.value("turns", ojson())}};
}

}  // namespace

SideBySide around_first_difference(const Answer& oracle, const Answer& got, size_t context) {
  SideBySide s;
  if (!oracle.ok() || !got.ok()) {
    s.section = "answer";
    SideRow r;
    r.left_present = r.right_present = true;
    r.left = gist(oracle);
    r.right = gist(got);
    r.differs = r.first = true;
    s.rows.push_back(std::move(r));
    return s;
  }
  std::optional<Difference> d = first_causal_difference(oracle.json, got.json);
  if (!d) {  // the same value in another form: the whole line is the difference
    s.section = "bytes";
    SideRow r;
    r.left_present = r.right_present = true;
    r.left = oracle.line;
    r.right = got.line;
    r.differs = r.first = true;
    s.rows.push_back(std::move(r));
    return s;
  }
  std::vector<std::string> tok = pointer_tokens(d->pointer);
  s.section = tok.empty() ? "answer" : tok[0];
  const ojson* l = section_of(oracle, s.section);
  const ojson* r = section_of(got, s.section);
  bool array = (l && l->is_array()) || (r && r->is_array());
  if (array && tok.size() >= 2 && is_index(tok[1])) {
    size_t at = std::stoul(tok[1]);
    if (tok.size() >= 3) s.field = tok[2];
    s.rows = array_rows(l, r, at > context ? at - context : 0, at + context + 1);
    for (SideRow& row : s.rows) row.first = row.index == at;
    return s;
  }
  SideRow row;  // a scalar section (outcome, turns), or a whole section present on one side only
  row.left_present = l != nullptr;
  row.right_present = r != nullptr;
  if (l) row.left = ojson{{s.section, *l}};  // as "outcome=quiescent", the field marked
  if (r) row.right = ojson{{s.section, *r}};
  s.field = s.section;
  row.differs = row.first = true;
  s.rows.push_back(std::move(row));
  return s;
}

SideBySide whole_journals(const Answer& oracle, const Answer& got) {
  SideBySide s;
  s.section = "journal";
  const ojson* l = section_of(oracle, "journal");
  const ojson* r = section_of(got, "journal");
  std::vector<SideRow> all = array_rows(l, r, 0, SIZE_MAX);
  s.total = all.size();
  size_t first = all.size();
  for (size_t i = 0; i < all.size() && first == all.size(); i++)
    if (all[i].differs) first = i;
  if (first < all.size()) all[first].first = true;
  size_t from = 0;
  if (all.size() > kJournalRows && first < all.size())
    from = std::min(first > kJournalRows / 2 ? first - kJournalRows / 2 : 0, all.size() - kJournalRows);
  size_t to = std::min(all.size(), from + kJournalRows);
  s.rows.assign(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(from)),
                std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(to)));
  return s;
}

Triage triage_case(const std::string& path, const Case& c, const std::vector<BackendSpec>& targets,
                   const std::string& declared) {
  Differ differ(targets);
  differ.set_hang_limits(kDetectHangs);  // a hang shows in seconds, as in a campaign
  return triage_case(path, c, differ, declared);
}

Triage triage_case(const std::string& path, const Case& c, Differ& differ, const std::string& declared) {
  Triage t;
  t.path = path;
  t.c = c;
  t.program_text = print_program(c.program);
  t.declared = declared;
  for (const CaseRun& r : c.runs) t.runs.push_back(r.settings);
  DiffOutcome o = differ.run(c.program, t.runs);
  std::vector<std::string> asked = differ.target_names();
  for (const std::string& name : signature_targets(c.signature))
    if (std::find(asked.begin(), asked.end(), name) == asked.end()) t.not_run.push_back(name);
  t.not_claimed = o.not_claimed;
  t.oracle = o.oracle;
  t.signature = o.signature;
  for (size_t i = 0; i < c.runs.size(); i++) {
    Answer expected = expected_answer(c.runs[i].expect);
    if (compare_answers("expected", expected, "oracle", t.oracle[i]).verdict != Verdict::kAgree)
      t.oracle_changed.push_back(i);
  }
  // Each target's first difference is the Differ's (find_divergences), so the
  // verdict here and the signature never disagree; a target without one that gave
  // no verdict is shown at its first indefinite answer.
  for (TargetAnswers& ta : o.targets) {
    TargetTriage tt;
    tt.target = ta.target;
    tt.answers = std::move(ta.answers);
    auto d = std::find_if(o.divergences.begin(), o.divergences.end(),
                          [&](const Divergence& x) { return x.target == tt.target; });
    if (d != o.divergences.end()) {
      tt.state = TargetTriage::State::kDiffer;
      tt.run = d->run;
      tt.kind = d->kind;
      tt.rule = d->rule;
      tt.dialect = d->dialect;
      tt.report = d->report;
      tt.stderr_tail = d->stderr_tail;
      tt.deviation = d->deviation;
      // The declarations it names ("a + b"), each with its dialect's rule.
      for (const Deviation& dev : differ.deviations_of(tt.target))
        if (("+ " + tt.deviation + " +").find("+ " + dev.id + " +") != std::string::npos)
          tt.deviation_about += (tt.deviation_about.empty() ? "" : " ") + dev.about + " (the oracle in dialect " +
                                alternative(dev.dialect).id + ", instead of SPEC " + alternative(dev.dialect).rule +
                                ", gives this target's result)";
      const Answer &ref = t.oracle[tt.run], &got = tt.answers[tt.run];
      if (ref.ok() && got.ok())
        if (auto diff = first_causal_difference(ref.json, got.json)) tt.pointer = diff->pointer;
      tt.around = around_first_difference(ref, got, 4);
      tt.journal = whole_journals(ref, got);
    } else if (std::find(o.no_verdict.begin(), o.no_verdict.end(), tt.target) != o.no_verdict.end()) {
      for (size_t i = 0; i < tt.answers.size() && i < t.oracle.size(); i++) {
        Comparison cmp = compare_answers("oracle", t.oracle[i], tt.target, tt.answers[i]);
        if (cmp.verdict != Verdict::kNoVerdict) continue;
        tt.state = TargetTriage::State::kNoVerdict;
        tt.run = i;
        tt.report = cmp.report;
        tt.kind = difference_kind(t.oracle[i], tt.answers[i]);
        break;
      }
    }
    t.targets.push_back(std::move(tt));
  }
  return t;
}

}  // namespace concord
