// runners/triage/operator_probe.cpp: the operator probe (operator_probe.hpp).
#include "operator_probe.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/operator_log.hpp"
#include "oracle/program_json.hpp"

namespace concord {
namespace {

constexpr size_t kMostUses = 2000;   // distinct applications probed per case (one question)
constexpr size_t kPerProcess = 100;  // applications per probe process (its state fields)

ojson int_json(int64_t v) { return {{"op", "int"}, {"value", v}}; }

// The distinct int applications of the oracle's run, in first-seen order.
std::optional<std::vector<OperatorUse>> uses_of(const Program& p, const RunSettings& run) {
  std::vector<OperatorUse> log;
  operator_log = &log;
  try {
    (void)concord::run(p, run);
  } catch (...) {  // past the oracle's limits: the probe cannot tell
    operator_log = nullptr;
    return std::nullopt;
  }
  operator_log = nullptr;
  if (log.size() > kOperatorLogCap) return std::nullopt;
  std::vector<OperatorUse> out;
  std::set<std::tuple<Op, int64_t, int64_t>> seen;
  for (const OperatorUse& u : log) {
    if (!u.ints || !seen.insert({u.op, u.a, u.b}).second) continue;
    out.push_back(u);
    if (out.size() > kMostUses) return std::nullopt;
  }
  return out;
}

// One probe process computing uses [from, to): fields a<i>, b<i> hold the operands,
// r<i> gets the result in its handler of go(). A division by zero gets a process of its own (it
// fails the process with DIV_ZERO, or, computed otherwise, does not).
ojson probe_kind(const std::string& name, const std::vector<OperatorUse>& uses, size_t from, size_t to) {
  ojson state = ojson::array(), body = ojson::array();
  for (size_t i = from; i < to; i++) {
    const OperatorUse& u = uses[i];
    std::string n = std::to_string(i);
    state.push_back({{"name", "a" + n}, {"type", "int"}, {"init", int_json(u.a)}});
    state.push_back({{"name", "b" + n}, {"type", "int"}, {"init", int_json(u.b)}});
    state.push_back({{"name", "r" + n}, {"type", "int"}, {"init", int_json(0)}});
    ojson a = {{"op", "var"}, {"name", "a" + n}}, b = {{"op", "var"}, {"name", "b" + n}};
    ojson e = is_unary(u.op) ? ojson{{"op", op_info(u.op).json}, {"arg", a}}
                             : ojson{{"op", op_info(u.op).json}, {"lhs", a}, {"rhs", b}};
    body.push_back({{"do", "assign"}, {"field", "r" + n}, {"value", e}});
  }
  // In a handler (an init cannot fail, so it divides by literals only, §4).
  ojson go = {{"tag", "go"}, {"params", ojson::array()}, {"body", body}};
  return {{"name", name},
          {"params", ojson::array()},
          {"state", state},
          {"init", ojson::array()},
          {"handlers", ojson::array({go})}};
}

bool divides_by_zero(const OperatorUse& u) { return (u.op == Op::Div || u.op == Op::Rem) && u.b == 0; }

// Each process's alive entry by name (none: it exited).
std::map<std::string, ojson> alive_by_name(const ojson& result) {
  std::map<std::string, ojson> out;
  for (const ojson& a : result.value("alive", ojson::array())) out[a.value("name", "")] = a.value("state", ojson());
  return out;
}

}  // namespace

std::optional<std::set<std::string>> operators_computed_otherwise(const Program& p, const RunSettings& run,
                                                                  const AskTarget& ask, const Dialect& as) {
  if (!ask) return std::nullopt;
  std::optional<std::vector<OperatorUse>> uses = uses_of(p, run);
  if (!uses) return std::nullopt;
  std::set<std::string> otherwise;
  if (uses->empty()) return otherwise;
  // The probe program: Probe<j> processes of kPerProcess applications each, then
  // one Zero<i> per division by zero.
  ojson kinds = ojson::array(), system = ojson::array(), given = ojson::array();
  std::vector<std::pair<std::string, size_t>> where(uses->size());  // process, field index
  std::vector<size_t> plain;
  for (size_t i = 0; i < uses->size(); i++)
    if (!divides_by_zero((*uses)[i])) plain.push_back(i);
  std::vector<OperatorUse> ordered;
  for (size_t i : plain) ordered.push_back((*uses)[i]);
  size_t n_plain = ordered.size();
  for (size_t i = 0; i < uses->size(); i++)
    if (divides_by_zero((*uses)[i])) ordered.push_back((*uses)[i]);
  auto add = [&](const std::string& kind, size_t from, size_t to) {
    std::string proc = "p" + std::to_string(kinds.size());
    kinds.push_back(probe_kind(kind, ordered, from, to));
    system.push_back({{"process", {{"name", proc}, {"kind", kind}, {"args", ojson::array()}}}});
    given.push_back({{"to", proc}, {"tag", "go"}, {"args", ojson::array()}});
    for (size_t i = from; i < to; i++) where[i] = {proc, i};
  };
  for (size_t from = 0; from < n_plain; from += kPerProcess)
    add("Probe" + std::to_string(kinds.size()), from, std::min(n_plain, from + kPerProcess));
  for (size_t i = n_plain; i < ordered.size(); i++) add("Zero" + std::to_string(kinds.size()), i, i + 1);
  ojson prog = {{"concord", 1}, {"kinds", kinds}, {"system", system}, {"given", given}};
  Program probe;
  try {
    probe = program_from_json(prog);
    check(probe);
  } catch (const InputError&) {
    return std::nullopt;
  }
  RunSettings settings{0, static_cast<int64_t>(kinds.size()), static_cast<int64_t>(kinds.size())};  // a turn each
  std::optional<ojson> got = ask(probe, settings);
  if (!got || !got->value("ok", false)) return std::nullopt;
  std::map<std::string, ojson> want = alive_by_name(result_to_json(concord::run(probe, settings, {}, nullptr, as)));
  std::map<std::string, ojson> have = alive_by_name(*got);
  for (size_t i = 0; i < ordered.size(); i++) {
    const auto& [proc, field] = where[i];
    std::string r = "r" + std::to_string(field);
    bool w = want.count(proc), h = have.count(proc);
    if (w != h || (w && want[proc].value(r, ojson()) != have[proc].value(r, ojson())))
      otherwise.insert(op_info(ordered[i].op).json);
  }
  return otherwise;
}

namespace {

// The journals' first differing event's index, or their length when none differs.
size_t first_differing(const ojson& oj, const ojson& tj) {
  size_t n = std::max(oj.size(), tj.size());
  for (size_t i = 0; i < n; i++)
    if (i >= oj.size() || i >= tj.size() || oj[i] != tj[i]) return i;
  return n;
}

// The rule of a runtime code a process exits with (§6.5, §6.6); "" for another reason.
std::string code_rule(const std::string& reason) {
  if (reason == "SYSTEM_LIMIT") return "§6.6 limit";
  if (reason == "NOPROC") return "§6.6 noproc";
  if (reason == "NO_HANDLER") return "§6.5 match";
  return "";
}

// How many times `e` (an exit) shows in `j` from `from` on.
size_t exits_like(const ojson& j, size_t from, const ojson& e) {
  size_t n = 0;
  for (size_t k = from; k < j.size(); k++)
    n += j[k].value("ev", "") == "exit" && j[k].value("name", ojson()) == e.value("name", ojson()) &&
         j[k].value("reason", ojson()) == e.value("reason", ojson());
  return n;
}

// Where a value that every operator computed alike came from (probed_value_rule).
std::optional<std::string> origin_rule(const ojson& oj, const ojson& tj) {
  size_t i = first_differing(oj, tj);
  if (i < oj.size() && i < tj.size() && oj[i].value("ev", "") == "deliver" && tj[i].value("ev", "") == "deliver" &&
      oj[i].value("ready", ojson()) != tj[i].value("ready", ojson()))
    return "§8.2 draw";
  for (size_t k = i; k < std::max(oj.size(), tj.size()); k++)
    for (const ojson* j : {&oj, &tj}) {
      const ojson* other = j == &oj ? &tj : &oj;
      if (k >= j->size() || (*j)[k].value("ev", "") != "exit") continue;
      std::string rule = code_rule((*j)[k].value("reason", ""));
      if (!rule.empty() && exits_like(*j, i, (*j)[k]) != exits_like(*other, i, (*j)[k])) return rule;
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> probed_value_rule(const Program& p, const ojson& oracle, const ojson& got,
                                             const std::string& rule, const AskTarget& ask) {
  if (!ask || rule.rfind("§5 ", 0) != 0 || !oracle.value("ok", false) || !got.value("ok", false)) return std::nullopt;
  const ojson& run = oracle["run"];
  RunSettings s{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}), run.value("max_processes", int64_t{1})};
  std::optional<std::set<std::string>> ops = operators_computed_otherwise(p, s, ask);
  if (!ops) return std::nullopt;
  if (!ops->empty()) {
    std::string out = "§5";
    for (const std::string& o : *ops) out += " " + o;
    return out;
  }
  return origin_rule(oracle.value("journal", ojson::array()), got.value("journal", ojson::array()));
}

}  // namespace concord
