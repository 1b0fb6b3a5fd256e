// runners/campaign/divergence.cpp: divergences and their signatures.
#include "divergence.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/protocol/diff.hpp"
#include "runners/triage/attribution.hpp"
#include "runners/triage/replay.hpp"

namespace concord {
namespace {

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split_pointer(const std::string& pointer) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 1; i <= pointer.size(); i++) {
    if (i == pointer.size() || pointer[i] == '/') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += pointer[i];
    }
  }
  return out;
}

// What names an element of a result's arrays in a signature: a journal event by
// its kind, a decision by its action, a failure by its code; other arrays
// (processes, alive, supervisors, args) by nothing.
std::string element_name(const std::string& array, const ojson& element) {
  const char* key = array == "journal"     ? "ev"
                    : array == "decisions" ? "action"
                    : array == "failures"  ? "code"
                                           : nullptr;
  if (!key || !element.is_object() || !element.contains(key) || !element[key].is_string()) return "";
  return element[key].get<std::string>();
}

// A failure in words: what the oracle answered, what the target's harness said
// (its stderr tail apart, in Divergence::stderr_tail).
std::string failure_report(const Answer& oracle, const std::string& target, const Answer& got) {
  std::string message = got.json.is_object() ? got.json.value("message", std::string()) : got.line;
  size_t tail = message.find("; stderr tail: ");
  if (tail != std::string::npos) message.resize(tail);
  std::string ref = oracle.ok() ? "a result (" + oracle.json.value("outcome", std::string()) + " after " +
                                      std::to_string(oracle.json.value("turns", int64_t{0})) + " turns)"
                                : "error " + oracle.code();
  return "  oracle: " + ref + "\n  " + target + ": " + got.code() + ": " + message + "\n";
}

}  // namespace

Answer oracle_answer(const Program& p, const RunSettings& r, RunSize* size) {
  Answer a;
  a.line = answer_line(p, r, [&](const World& w) {
    if (size) *size = run_size(w);
  });
  a.line.pop_back();  // the '\n'
  // Parsed, a line takes about 14 times its size: past the harness's limit the
  // oracle's result is not compared (no verdict), as a target's is not.
  if (a.line.size() > answer_parse_limit())
    return harness_error("MEMORY", "oracle: a result line of " + std::to_string(a.line.size()) +
                                       " bytes, longer than " + size_text(static_cast<int64_t>(answer_parse_limit())) +
                                       ", the most the harness parses (a sixteenth of the oracle's memory limit; $" +
                                       kOracleMemoryVariable + " raises it)");
  a.json = ojson::parse(a.line);
  return a;
}

std::string difference_kind(const Answer& oracle, const Answer& got) {
  std::string failure = answer_failure(got);
  if (!failure.empty() && (oracle.ok() || failure == "bad-output")) return failure;
  if (oracle.ok() && !got.ok()) return "error/" + got.code();
  if (!oracle.ok() && got.ok()) return "oracle-error/" + oracle.code();
  if (!oracle.ok()) return "error/" + got.code();
  std::optional<Difference> d = first_difference(oracle.json, got.json);
  if (!d) return "bytes";
  std::vector<std::string> parts = split_pointer(d->pointer);
  std::string kind;
  const ojson* left = &oracle.json;
  const ojson* right = &got.json;
  std::string parent;
  for (size_t i = 0; i < parts.size(); i++) {
    const std::string& p = parts[i];
    bool last = i + 1 == parts.size();
    if (is_index(p)) {
      size_t at = std::stoul(p);
      const ojson* l = left && left->is_array() && at < left->size() ? &(*left)[at] : nullptr;
      const ojson* r = right && right->is_array() && at < right->size() ? &(*right)[at] : nullptr;
      std::string name = element_name(parent, l ? *l : r ? *r : ojson());
      if (!name.empty()) kind += "/" + name;
      if (last && !l) kind += "/extra";
      if (last && !r) kind += "/absent";
      left = l;
      right = r;
    } else {
      if (parent != "state") kind += "/" + p;  // state fields are the program's names
      if (last && left && !left->contains(p)) kind += "/extra";
      if (last && right && !right->contains(p)) kind += "/absent";
      left = left && left->is_object() && left->contains(p) ? &(*left)[p] : nullptr;
      right = right && right->is_object() && right->contains(p) ? &(*right)[p] : nullptr;
    }
    parent = p;
  }
  return kind.empty() ? "result" : kind.substr(1);
}

std::vector<Divergence> find_divergences(const Program& p, const std::vector<RunSettings>& runs,
                                         const std::vector<Answer>& oracle, const std::vector<TargetAnswers>& targets,
                                         std::vector<std::string>* no_verdict, const std::vector<RunSize>* sizes) {
  std::vector<Divergence> out;
  for (const TargetAnswers& t : targets) {
    bool indefinite = false, unexplained = false;
    std::optional<Divergence> explained;  // the first run a deviation explains, naming every one that did
    std::vector<const Deviation*> by;
    for (size_t i = 0; i < oracle.size() && i < t.answers.size(); i++) {
      const Answer& got = t.answers[i];
      std::string failure = failure_kind(oracle[i], got, sizes && i < sizes->size() ? &(*sizes)[i] : nullptr);
      if (!failure.empty()) {
        out.push_back(Divergence{t.target, i, failure, failure_report(oracle[i], t.target, got), "",
                                 stderr_tail_of(got), "", ""});
        unexplained = true;
        break;
      }
      Comparison c = compare_answers("oracle", oracle[i], t.target, got);
      if (c.verdict == Verdict::kNoVerdict) indefinite = true;
      if (c.verdict != Verdict::kDiffer) continue;
      // Each run is explained or not on its own (issue 38): an explained one does
      // not stop the comparison of the others.
      std::vector<const Deviation*> ex = t.deviations && i < runs.size() ? explaining(*t.deviations, p, runs[i], got)
                                                                         : std::vector<const Deviation*>{};
      if (ex.empty()) {
        out.push_back(Divergence{t.target, i, difference_kind(oracle[i], got), c.report, "", "", "", ""});
        unexplained = true;
        break;
      }
      for (const Deviation* d : ex)
        if (std::find(by.begin(), by.end(), d) == by.end()) by.push_back(d);
      if (!explained) explained = Divergence{t.target, i, difference_kind(oracle[i], got), c.report, "", "", "", ""};
    }
    if (!unexplained && explained) {
      std::sort(by.begin(), by.end(), [](const Deviation* a, const Deviation* b) { return a->dialect < b->dialect; });
      explained->deviation = deviation_ids(by);
      out.push_back(*explained);
    }
    if (indefinite && no_verdict) no_verdict->push_back(t.target);
  }
  std::sort(out.begin(), out.end(), [](const Divergence& a, const Divergence& b) { return a.target < b.target; });
  return out;
}

bool all_explained(const std::vector<Divergence>& ds) {
  return !ds.empty() && std::all_of(ds.begin(), ds.end(), [](const Divergence& d) { return !d.deviation.empty(); });
}

AskAnswer answering(Backend& b, RequestLimits limits) {
  return [&b, limits](const Program& q, const RunSettings& s) {
    std::vector<Answer> a = b.request(program_to_json(q), {s}, limits);
    return a.size() == 1 ? a[0] : harness_error("CRASH", b.spec().name + ": no answer");
  };
}

AskTarget asking(const AskAnswer& ask) {
  return [ask](const Program& q, const RunSettings& s) -> std::optional<ojson> {
    Answer a = ask(q, s);
    if (!a.ok()) return std::nullopt;
    return a.json;
  };
}

AskTarget asking(Backend& b, RequestLimits limits) { return asking(answering(b, limits)); }

void attribute_divergences(const Program& p, const std::vector<RunSettings>& runs, const std::vector<Answer>& oracle,
                           const std::vector<TargetAnswers>& targets, std::vector<Divergence>& ds,
                           const std::function<AskTarget(const std::string& target)>& ask_of) {
  for (Divergence& d : ds) {
    if (is_failure_kind(d.kind) || d.run >= oracle.size()) continue;
    for (const TargetAnswers& t : targets)
      if (t.target == d.target && d.deviation.empty())
        if (std::optional<Replay> r = replay_attribution(p, runs, t.answers, ask_of ? ask_of(t.target) : AskTarget{})) {
          d.rule = alternative(r->alt).bucket;
          d.dialect = alternative(r->alt).id;
        }
    if (!d.dialect.empty()) continue;
    // The first differing run's rule, unless it is not sure (attribution.hpp) and a
    // later differing run of the target's is.
    for (const TargetAnswers& t : targets) {
      if (t.target != d.target) continue;
      AskTarget ask = ask_of ? ask_of(t.target) : AskTarget{};
      for (size_t r = d.run; r < oracle.size() && r < t.answers.size(); r++) {
        if (r > d.run &&
            (!oracle[r].ok() || !t.answers[r].ok() || !first_difference(oracle[r].json, t.answers[r].json)))
          continue;
        Attribution a = attribute(p, oracle[r].json, t.answers[r].json, ask);
        if (r == d.run) d.rule = a.rule;
        if (a.sure) {
          d.rule = a.rule;
          break;
        }
      }
    }
  }
}

std::string bucket_of(const Divergence& d) { return d.rule.empty() ? d.kind : d.rule; }

namespace {

std::string joined(std::vector<std::string> parts, const char* separator) {
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// A signature's parts: "target:kind" each. A part starts at a word that holds a
// ':' after the separator's ',' or, in a detail (kinds are words), after a word.
// A rule may hold either, not both: "§2 spawned names, decimal", "§10 error
// INTERNAL at concord_conductor:settle/2".
std::vector<std::string> signature_parts(const std::string& signature) {
  std::vector<std::string> out;
  std::istringstream in(signature);
  bool after_comma = true;
  for (std::string word; in >> word;) {
    bool in_rule = !out.empty() && is_rule(out.back().substr(out.back().find(':') + 1));
    if (word.find(':') != std::string::npos && (after_comma || !in_rule)) {
      if (after_comma && !out.empty()) out.back().pop_back();  // the separator's ','
      out.push_back(word);
    } else if (out.empty()) {
      out.push_back(word);
    } else {
      out.back() += " " + word;
    }
    after_comma = word.back() == ',';
  }
  return out;
}

}  // namespace

std::string signature_of(const std::vector<Divergence>& ds) {
  std::vector<std::string> parts;
  for (const Divergence& d : ds) parts.push_back(d.target + ":" + bucket_of(d));
  return joined(parts, ", ");
}

std::string detail_of(const std::vector<Divergence>& ds) {
  std::vector<std::string> parts;
  for (const Divergence& d : ds) parts.push_back(d.target + ":" + d.kind);
  return joined(parts, " ");
}

std::vector<std::string> signature_targets(const std::string& signature) {
  std::vector<std::string> out;
  for (const std::string& part : signature_parts(signature)) out.push_back(part.substr(0, part.find(':')));
  return out;
}

std::string signature_kind(const std::string& signature, const std::string& target) {
  for (const std::string& part : signature_parts(signature))
    if (part.substr(0, part.find(':')) == target) return part.substr(part.find(':') + 1);
  return "";
}

bool signature_refines(const std::string& candidate, const std::string& signature) {
  if (candidate == signature) return true;
  std::vector<std::string> c = signature_parts(candidate), s = signature_parts(signature);
  if (c.size() != s.size() || c.empty()) return false;
  for (size_t i = 0; i < c.size(); i++) {
    size_t cc = c[i].find(':'), sc = s[i].find(':');
    if (c[i].substr(0, cc) != s[i].substr(0, sc) || !refines(c[i].substr(cc + 1), s[i].substr(sc + 1))) return false;
  }
  return true;
}

bool is_rule(const std::string& kind) { return kind.rfind("§", 0) == 0; }

bool legacy_signature(const std::string& signature) {
  for (const std::string& part : signature_parts(signature)) {
    std::string kind = part.substr(part.find(':') + 1);
    if (!is_rule(kind) && !is_failure_kind(kind)) return true;
  }
  return false;
}

}  // namespace concord
