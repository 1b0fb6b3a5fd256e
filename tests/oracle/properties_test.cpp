// tests/oracle/properties_test.cpp: properties of the generators (generators/) and
// of the oracle over generated programs: validity, JSON and text round trips,
// determinism, the scheduler against an independent SplitMix64, invariants of a
// result, and the nesting limits of SPEC §4.13. Reproduce a failure with the
// RC_PARAMS="reproduce=..." line RapidCheck prints, e.g.
//   RC_PARAMS="reproduce=..." build/tests/oracle_properties_test --gtest_filter=OracleRun.*
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generators/expressions.hpp"
#include "generators/profile.hpp"
#include "generators/programs.hpp"
#include "generators/settings.hpp"
#include "generators/statements.hpp"
#include "generators/supervision.hpp"
#include "generators/v2_server.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/limits.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"
#include "tests/oracle/check_error.hpp"

namespace concord {
namespace {

// --- helpers -------------------------------------------------------------------

Program checked(Program p) {
  check(p);
  return p;
}

ojson result_of(const Program& p, const RunSettings& s) { return result_to_json(run(p, s)); }

// Independent measures of a program's size (SPEC §4.8, §4.13).
int expr_depth(const Expr& e) {
  int d = 0;
  for (const Expr& a : e.args) d = std::max(d, expr_depth(a));
  return d + 1;
}
int64_t body_weight(const std::vector<Stmt>& b);
int64_t stmt_weight(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::If: return 1 + body_weight(s.body) + body_weight(s.orelse);
    case StmtKind::Repeat: return 1 + s.count * body_weight(s.body);
    default: return 1;
  }
}
int64_t body_weight(const std::vector<Stmt>& b) {
  int64_t w = 0;
  for (const Stmt& s : b) w += stmt_weight(s);
  return w;
}
int body_depth(const std::vector<Stmt>& b) {
  int d = 0;
  for (const Stmt& s : b) d = std::max(d, 1 + std::max(body_depth(s.body), body_depth(s.orelse)));
  return d;
}
int max_expr_depth(const std::vector<Stmt>& b) {
  int d = 0;
  for (const Stmt& s : b) {
    for (const Expr& e : s.exprs) d = std::max(d, expr_depth(e));
    d = std::max({d, max_expr_depth(s.body), max_expr_depth(s.orelse)});
  }
  return d;
}
bool has_kind(const std::vector<Stmt>& b, std::initializer_list<StmtKind> kinds) {
  for (const Stmt& s : b) {
    if (std::find(kinds.begin(), kinds.end(), s.kind) != kinds.end()) return true;
    if (has_kind(s.body, kinds) || has_kind(s.orelse, kinds)) return true;
  }
  return false;
}
int decl_depth(const Decl& d) {
  auto* s = std::get_if<SupervisorDecl>(&d);
  if (!s) return 0;
  int deepest = 0;
  for (const Child& c : s->children) deepest = std::max(deepest, decl_depth(c.decl));
  return deepest + 1;
}
void supervisor_names(const Decl& d, std::vector<std::string>& out) {
  auto* s = std::get_if<SupervisorDecl>(&d);
  if (!s) return;
  out.push_back(s->name);
  for (const Child& c : s->children) supervisor_names(c.decl, out);
}
void fail_codes(const std::vector<Stmt>& b, std::set<std::string>& out) {
  for (const Stmt& s : b) {
    if (s.kind == StmtKind::Fail) out.insert(s.name);
    fail_codes(s.body, out);
    fail_codes(s.orelse, out);
  }
}

// SplitMix64 of SPEC §8.3, written again here so the test does not trust the oracle's.
struct SpecSplitMix {
  uint64_t state;
  uint64_t next() {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

// ============================================================================
// The generators
// ============================================================================

TEST(GenNames, PoolsHoldValidDistinctNames) {
  std::set<std::string> lower;
  for (const std::string& k : gen::kind_pool()) {
    EXPECT_TRUE(is_kind_name(k)) << k;
    std::string l;
    for (char c : k) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_TRUE(lower.insert(l).second) << "kinds must differ case-insensitively: " << k;
  }
  for (const auto* pool :
       {&gen::var_pool(), &gen::tag_pool(), &gen::stray_tag_pool(), &gen::process_pool(), &gen::supervisor_pool()})
    for (const std::string& n : *pool) EXPECT_TRUE(is_lower_name(n)) << n;
  for (const std::string& c : gen::code_pool()) {
    EXPECT_TRUE(is_code_name(c)) << c;
    for (const char* rt : {"NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC"}) EXPECT_NE(c, rt);
  }
  std::set<std::string> declared;
  for (const auto* pool : {&gen::process_pool(), &gen::supervisor_pool()})
    for (const std::string& n : *pool) EXPECT_TRUE(declared.insert(n).second) << "pools overlap: " << n;
  for (const std::string& t : gen::stray_tag_pool())
    EXPECT_EQ(std::count(gen::tag_pool().begin(), gen::tag_pool().end(), t), 0) << t;
}

RC_GTEST_PROP(GenNames, FreshNamesAreDistinctAndValid, ()) {
  const auto& pool = *rc::gen::element(&gen::process_pool(), &gen::supervisor_pool(), &gen::var_pool());
  size_t n = *rc::gen::inRange<size_t>(0, 200);
  std::set<std::string> used;
  for (size_t i = 0; i < n; i++) {
    std::string name = gen::fresh_name(*pool, i, used);
    RC_ASSERT(is_lower_name(name));
  }
  RC_ASSERT(used.size() == n);
}

RC_GTEST_PROP(GenPrograms, AreValid, ()) {
  Program p = *gen::program();
  std::string err = check_error(p);
  if (!err.empty()) RC_FAIL("check() rejects a generated program: " + err);
}

// Under every named profile (generators/profile.hpp), programs stay within the
// profile's bounds.
RC_GTEST_PROP(GenPrograms, StayWithinTheirBounds, ()) {
  const gen::Profile& prof = gen::profile_named(*rc::gen::elementOf(gen::profile_names()));
  RC_TAG(prof.name);
  Program p = *gen::program(prof);
  // Version 2's server (generators/v2_server.hpp) is one kind and one root (its
  // supervisor) beyond the profile's bounds, and at most one of each.
  size_t servers = static_cast<size_t>(
      std::count_if(p.kinds.begin(), p.kinds.end(), [](const Kind& k) { return k.name == gen::v2::kServerKind; }));
  RC_ASSERT(servers <= (prof.version >= 2 ? 1u : 0u));
  RC_ASSERT(p.kinds.size() >= 1u + servers);
  RC_ASSERT(p.kinds.size() <= static_cast<size_t>(prof.max_kinds) + servers);
  RC_ASSERT(!p.system.empty());
  RC_ASSERT(p.system.size() <= static_cast<size_t>(prof.max_roots) + servers);
  RC_ASSERT(!p.given.empty());
  RC_ASSERT(p.given.size() <= static_cast<size_t>(prof.max_given));
  // Version 2 (generators/v2.hpp) adds to each kind a reason field and exit and down
  // handlers, inserts statements into bodies, ends some init bodies with a start
  // that fails or is ignored (maybe under an `if`).
  bool v2 = prof.version >= 2;
  size_t extra_stmts = v2 ? static_cast<size_t>(std::max(prof.max_v2_stmts + 1, prof.max_v2_init_stmts + 2)) : 0;
  for (const Kind& k : p.kinds) {
    RC_ASSERT(k.params.size() <= static_cast<size_t>(prof.max_params));
    RC_ASSERT(k.state.size() <= static_cast<size_t>(prof.max_params) + (v2 ? 1 : 0));
    RC_ASSERT(k.handlers.size() <= static_cast<size_t>(prof.max_handlers) + (v2 ? 2 : 0));
    RC_ASSERT(!has_kind(k.init, {StmtKind::Spawn}));
    if (!v2) RC_ASSERT(!has_kind(k.init, {StmtKind::Stop, StmtKind::Fail}));
    std::vector<const std::vector<Stmt>*> bodies{&k.init};
    for (const Handler& h : k.handlers) bodies.push_back(&h.body);
    for (const auto* b : bodies) {
      RC_ASSERT(b->size() <= static_cast<size_t>(prof.max_body_length) + extra_stmts);
      RC_ASSERT(body_depth(*b) <= std::max(prof.max_stmt_depth, v2 ? 2 : 0));
      RC_ASSERT(max_expr_depth(*b) <= prof.max_expr_depth);
      // Far below kMaxWeight: runs stay fast. Scale programs are heavy by design
      // (generators/scale.hpp): tens of thousands of spawns in one handler.
      if (!prof.scale) RC_ASSERT(body_weight(*b) <= 2000);
    }
    for (const Field& f : k.state) RC_ASSERT(expr_depth(f.init) <= prof.max_expr_depth);
  }
  for (const Decl& d : p.system) RC_ASSERT(decl_depth(d) <= prof.max_supervisor_depth);
}

// An independent type checker for the expression generator's output.
bool type_of(const Expr& e, const gen::ExprScope& sc, Type& out, std::string& why) {
  switch (e.kind) {
    case ExprKind::Int: out = Type::Int; return true;
    case ExprKind::Self: out = Type::Addr; return true;
    case ExprKind::Reason:
      out = Type::Reason;
      return is_reason_literal(e.name) || (why = "not a reason: " + e.name, false);
    case ExprKind::Addr:
      out = Type::Addr;
      if (std::count(sc.addrs.begin(), sc.addrs.end(), e.name) == 0) return why = "unknown addr @" + e.name, false;
      return true;
    case ExprKind::Var:
      for (const gen::Var& v : sc.vars)
        if (v.name == e.name) return out = v.type, true;
      return why = "unknown variable " + e.name, false;
    case ExprKind::Unary: {
      Type a;
      if (!type_of(e.args[0], sc, a, why)) return false;
      out = Type::Int;
      return a == Type::Int || (why = "unary on addr", false);
    }
    case ExprKind::Binary: {
      Type a, b;
      if (!type_of(e.args[0], sc, a, why) || !type_of(e.args[1], sc, b, why)) return false;
      out = Type::Int;
      if (e.op == Op::Eq || e.op == Op::Ne) return a == b || (why = "compares int with addr", false);
      if (a != Type::Int || b != Type::Int) return why = "arithmetic on addr", false;
      if (sc.init && (e.op == Op::Div || e.op == Op::Rem) && !(e.args[1].kind == ExprKind::Int && e.args[1].value != 0))
        return why = "divisor in init is not a non-zero literal", false;
      return true;
    }
  }
  return false;
}

RC_GTEST_PROP(GenExpressions, HaveTheRequestedTypeAndDepth, ()) {
  gen::ExprScope sc;
  sc.profile = gen::profile_ref(gen::profile_named(*rc::gen::elementOf(gen::profile_names())));
  auto names = *gen::distinct_names(gen::var_pool(), *rc::gen::inRange<size_t>(0, 6));
  for (const std::string& n : names) sc.vars.push_back({n, *gen::type()});
  sc.addrs = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(gen::process_pool()));
  if (!sc.addrs.empty() && *rc::gen::arbitrary<bool>()) sc.unknown = {sc.addrs.back()};
  sc.init = *rc::gen::arbitrary<bool>();
  Type want = *gen::type();
  int depth = *rc::gen::inRange(1, 9);
  Expr e = *gen::expr(sc, want, depth);
  Type got;
  std::string why;
  if (!type_of(e, sc, got, why)) RC_FAIL(why + ": " + print_expr(e));
  RC_ASSERT(got == want);
  RC_ASSERT(expr_depth(e) <= depth);
}

RC_GTEST_PROP(GenSettings, AreInRange, ()) {
  const gen::Profile& prof = gen::profile_named(*rc::gen::elementOf(gen::profile_names()));
  RunSettings s = *gen::run_settings(prof);
  RC_ASSERT(s.turns >= prof.min_turns);
  RC_ASSERT(s.turns <= prof.max_turns);
  RC_ASSERT(s.max_processes >= prof.min_processes);
  RC_ASSERT(s.max_processes <= prof.max_processes);
  check_settings(s);  // throws on a setting out of range
}

// The generators must make the oracle do everything: every runtime failure code, a
// program's own codes, every supervisor decision, drops, both outcomes. A fixed
// sample keeps this deterministic.
TEST(GenPrograms, CoverTheBehaviours) {
  std::map<std::string, int> seen;
  int busy = 0;
  const int n = 400;
  for (int i = 0; i < n; i++) {
    rc::Random random(static_cast<uint64_t>(i) * 7919 + 1);
    Program p = gen::program()(random.split(), 20 + i % 81).value();
    RunSettings s = gen::run_settings()(random.split(), 100).value();
    check(p);
    for (const Kind& k : p.kinds)
      for (const Handler& h : k.handlers)
        if (has_kind(h.body, {StmtKind::Spawn})) seen["spawn statement"]++;
    for (const Decl& d : p.system)
      if (auto* sd = std::get_if<SupervisorDecl>(&d)) seen[std::string("strategy ") + strategy_name(sd->strategy)]++;
    ojson r = result_of(p, s);
    seen["outcome " + r["outcome"].get<std::string>()]++;
    if (r["turns"].get<int64_t>() > 0) busy++;
    for (const ojson& f : r["failures"]) {
      std::string c = f["code"].get<std::string>();
      bool runtime = c == "NO_HANDLER" || c == "DIV_ZERO" || c == "SYSTEM_LIMIT" || c == "NOPROC";
      seen[runtime ? "failure " + c : "failure (program code)"]++;
    }
    for (const ojson& d : r["decisions"]) seen["decision " + d["action"].get<std::string>()]++;
    for (const ojson& e : r["journal"])
      if (e["ev"] == "drop") seen["drop"]++;
    for (const ojson& pr : r["processes"])
      if (pr["name"].get<std::string>().find('-') != std::string::npos) seen["spawned process"]++;
  }
  for (const char* what : {"failure NO_HANDLER", "failure DIV_ZERO", "failure SYSTEM_LIMIT", "failure NOPROC",
                           "failure (program code)", "decision restart", "decision keep", "decision remove",
                           "decision give_up", "drop", "outcome quiescent", "outcome turn_limit", "spawned process",
                           "spawn statement", "strategy one_for_one", "strategy one_for_all", "strategy rest_for_one"})
    EXPECT_GT(seen[what], 0) << "no generated program of " << n << " shows: " << what;
  EXPECT_GT(busy, n / 2) << "most runs should deliver something";
  for (const auto& [what, count] : seen) std::cout << "  " << what << ": " << count << "\n";
}

// ============================================================================
// The oracle: readers, printer, interpreter
// ============================================================================

RC_GTEST_PROP(OracleRoundTrip, JsonGivesBackTheProgram, ()) {
  Program p = *gen::program();
  std::string text = program_to_json(p).dump();
  Program q = program_from_json_text(text);
  RC_ASSERT(q == p);
  RC_ASSERT(program_to_json(q).dump() == text);
  RC_ASSERT(check_error(q).empty());
}

RC_GTEST_PROP(OracleRoundTrip, TextGivesBackTheProgram, ()) {
  Program p = *gen::program();
  std::string text = print_program(p);
  Program q = parse_program(text);
  RC_ASSERT(q == p);
  RC_ASSERT(print_program(q) == text);  // printing is a fixed point
  RC_ASSERT(check_error(q).empty());
}

RC_GTEST_PROP(OracleRoundTrip, ReadBackProgramsRunTheSame, ()) {
  Program p = *gen::program();
  RunSettings s = *gen::run_settings();
  std::string expect = result_line(run(checked(p), s));
  RC_ASSERT(result_line(run(checked(program_from_json_text(program_to_json(p).dump())), s)) == expect);
  RC_ASSERT(result_line(run(checked(parse_program(print_program(p))), s)) == expect);
}

RC_GTEST_PROP(OracleRun, IsDeterministic, ()) {
  Program p = checked(*gen::program());
  RunSettings s = *gen::run_settings();
  RC_ASSERT(result_line(run(p, s)) == result_line(run(p, s)));
}

RC_GTEST_PROP(OracleRun, DeliversOncePerTurn, ()) {
  Program p = checked(*gen::program());
  RunSettings s = *gen::run_settings();
  ojson r = result_of(p, s);
  int64_t turns = r["turns"].get<int64_t>();
  int64_t delivered = 0;
  for (const ojson& e : r["journal"]) {
    if (e["ev"] != "deliver") continue;
    delivered++;
    RC_ASSERT(e["turn"].get<int64_t>() == delivered);  // turn numbers 1..turns, in order
    RC_ASSERT(e["ready"].get<int64_t>() >= 1);
  }
  RC_ASSERT(delivered == turns);
}

// N processes of one kind whose handler does nothing, each given m_i messages: the
// ready list is known at every turn, so the receivers must be exactly those an
// independent SplitMix64 picks (SPEC §8.2 step 4), until the limit or quiescence.
RC_GTEST_PROP(OracleRun, SchedulerFollowsSplitMix64, ()) {
  int n = *rc::gen::inRange(1, 9);
  bool all_stay_ready = *rc::gen::arbitrary<bool>();
  int64_t limit = *rc::gen::inRange<int64_t>(0, 80);
  std::vector<int> mail;
  for (int i = 0; i < n; i++) mail.push_back(all_stay_ready ? static_cast<int>(limit) + 1 : *rc::gen::inRange(0, 8));
  uint64_t seed = *gen::seed();

  Program p;
  Kind k;
  k.name = "W";
  Handler h;
  h.tag = "m";
  k.handlers.push_back(h);
  p.kinds.push_back(k);
  for (int i = 0; i < n; i++) {
    ProcessDecl d;
    d.name = "w" + std::to_string(i);
    d.kind = "W";
    p.system.push_back(d);
  }
  for (int round = 0; round < *std::max_element(mail.begin(), mail.end()); round++)
    for (int i = 0; i < n; i++)
      if (round < mail[i]) p.given.push_back(Given{"w" + std::to_string(i), "m", {}, "", -1});
  check(p);
  ojson r = result_of(p, RunSettings{seed, limit, 100});

  SpecSplitMix g{seed};
  std::vector<std::string> expect_to;
  std::vector<int64_t> expect_ready;
  std::string expect_outcome;
  for (int64_t turns = 0;; turns++) {
    if (turns == limit) {
      expect_outcome = "turn_limit";
      break;
    }
    std::vector<int> ready;
    for (int i = 0; i < n; i++)
      if (mail[i] > 0) ready.push_back(i);
    if (ready.empty()) {
      expect_outcome = "quiescent";
      break;
    }
    int pick = ready[g.next() % ready.size()];
    mail[pick]--;
    expect_to.push_back("w" + std::to_string(pick));
    expect_ready.push_back(static_cast<int64_t>(ready.size()));
  }
  std::vector<std::string> got_to;
  std::vector<int64_t> got_ready;
  for (const ojson& e : r["journal"])
    if (e["ev"] == "deliver") {
      got_to.push_back(e["to"].get<std::string>());
      got_ready.push_back(e["ready"].get<int64_t>());
    }
  RC_ASSERT(got_to == expect_to);
  RC_ASSERT(got_ready == expect_ready);
  RC_ASSERT(r["outcome"].get<std::string>() == expect_outcome);
  RC_ASSERT(r["turns"].get<int64_t>() == static_cast<int64_t>(expect_to.size()));
}

TEST(OracleRun, SpecSplitMixMatchesTheSpecExample) {
  SpecSplitMix g{0};
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(g.next(), 0x06c45d188009454fULL);
}

RC_GTEST_PROP(OracleRun, ResultsKeepTheirInvariants, ()) {
  Program p = checked(*gen::program());
  RunSettings s = *gen::run_settings();
  ojson r = result_of(p, s);

  // run, outcome, turns (§8.2: the limit is checked before readiness).
  RC_ASSERT(r["run"]["seed"].get<uint64_t>() == s.seed);
  RC_ASSERT(r["run"]["turns"].get<int64_t>() == s.turns);
  RC_ASSERT(r["run"]["max_processes"].get<int64_t>() == s.max_processes);
  int64_t turns = r["turns"].get<int64_t>();
  std::string outcome = r["outcome"].get<std::string>();
  RC_ASSERT(outcome == "quiescent" || outcome == "turn_limit");
  RC_ASSERT(turns >= 0);
  RC_ASSERT(turns <= s.turns);
  RC_ASSERT((outcome == "turn_limit") == (turns == s.turns));

  // The journal: turns never go back; nothing at turn 0 but starts and drops.
  int64_t last = 0;
  std::vector<ojson> failure_exits, decision_events;
  for (const ojson& e : r["journal"]) {
    int64_t t = e["turn"].get<int64_t>();
    RC_ASSERT(t >= last);
    RC_ASSERT(t <= turns);
    last = t;
    std::string ev = e["ev"].get<std::string>();
    if (t == 0) RC_ASSERT(ev == "start" || ev == "drop");
    if (ev == "exit") {
      std::string reason = e["reason"].get<std::string>();
      if (reason != "normal" && reason != "shutdown")
        failure_exits.push_back({{"process", e["name"]}, {"code", reason}, {"turn", e["turn"]}});
    }
    if (ev == "decision")
      decision_events.push_back(
          {{"process", e["process"]}, {"supervisor", e["supervisor"]}, {"action", e["action"]}, {"turn", e["turn"]}});
  }

  // failures: one per exit with a failure code, in order; codes come from the
  // runtime or from the program's fail statements.
  std::set<std::string> codes{"NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC"};
  for (const Kind& k : p.kinds)
    for (const Handler& h : k.handlers) fail_codes(h.body, codes);
  RC_ASSERT(r["failures"].size() == failure_exits.size());
  for (size_t i = 0; i < failure_exits.size(); i++) {
    RC_ASSERT(r["failures"][i] == failure_exits[i]);
    RC_ASSERT(codes.count(failure_exits[i]["code"].get<std::string>()) == 1u);
  }
  RC_ASSERT(r["decisions"].size() == decision_events.size());
  for (size_t i = 0; i < decision_events.size(); i++) RC_ASSERT(r["decisions"][i] == decision_events[i]);

  // processes by id, distinct names; alive ⊆ processes, by id order.
  std::vector<std::string> names;
  for (size_t i = 0; i < r["processes"].size(); i++) {
    RC_ASSERT(r["processes"][i]["id"].get<size_t>() == i);
    names.push_back(r["processes"][i]["name"].get<std::string>());
  }
  RC_ASSERT(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  size_t next = 0;
  for (const ojson& a : r["alive"]) {
    std::string name = a["name"].get<std::string>();
    auto it = std::find(names.begin() + static_cast<std::ptrdiff_t>(next), names.end(), name);
    RC_ASSERT(it != names.end());  // a process, listed in id order
    next = static_cast<size_t>(it - names.begin()) + 1;
  }

  // supervisors: every declared one, in pre-order.
  std::vector<std::string> sups;
  for (const Decl& d : p.system) supervisor_names(d, sups);
  RC_ASSERT(r["supervisors"].size() == sups.size());
  for (size_t i = 0; i < sups.size(); i++) RC_ASSERT(r["supervisors"][i]["name"].get<std::string>() == sups[i]);
}

// ============================================================================
// The nesting limits (SPEC §4.13, §11): a program exactly at the limit is valid
// and both readers give it back; one level past it, both reject it.
// ============================================================================

// An int expression exactly `depth` deep over the int variable x: a random path
// of unary and binary operators, the other operand of a binary one a leaf.
rc::Gen<Expr> expr_of_depth(int depth) {
  return rc::gen::exec([depth] {
    Expr e = *rc::gen::element(gen::var_expr("x"), gen::int_expr(5), gen::int_expr(-5));
    for (int d = 1; d < depth; d++) {
      if (*rc::gen::arbitrary<bool>()) {
        e = gen::unary_expr(*rc::gen::elementOf(gen::unary_ops()), std::move(e));
      } else {
        Op op = *rc::gen::elementOf(gen::binary_ops());
        Expr leaf = gen::int_expr(*rc::gen::element<int64_t>(1, 2, -3));
        e = *rc::gen::arbitrary<bool>() ? gen::binary_expr(op, std::move(e), leaf)
                                        : gen::binary_expr(op, leaf, std::move(e));
      }
    }
    return e;
  });
}

// kind K(x: int) { state f: int = 0; on t() { <statements nested stmt_depth deep,
// the innermost `f = <expr>` or `if <expr> {}`> } }, <expr> expr_depth deep, and a
// supervisor tree sup_depth deep holding one process of K.
rc::Gen<Program> nested_program(int stmt_depth, int expr_depth, int sup_depth) {
  return rc::gen::exec([=] {
    Expr e = *expr_of_depth(expr_depth);
    // The innermost statements: `f = <expr>` or `if <expr> {}`, and maybe an empty
    // `repeat 1 {}` beside it (an empty block at the deepest level).
    std::vector<Stmt> innermost;
    if (*rc::gen::arbitrary<bool>()) {
      innermost.push_back(gen::make_stmt(StmtKind::Assign, "f"));
    } else {
      innermost.push_back(gen::make_stmt(StmtKind::If));
    }
    innermost.back().exprs.push_back(e);
    if (*rc::gen::arbitrary<bool>()) {
      innermost.push_back(gen::make_stmt(StmtKind::Repeat));
      innermost.back().count = 1;
    }
    std::vector<Stmt> body = std::move(innermost);
    for (int d = 1; d < stmt_depth; d++) {
      int how =
          *rc::gen::inRange(0, 4);  // 0, 2: then-branch; 1: else-branch (an else-if if it holds one if); 3: repeat
      Stmt outer = gen::make_stmt(how == 3 ? StmtKind::Repeat : StmtKind::If);
      if (how == 3)
        outer.count = 1;
      else
        outer.exprs.push_back(gen::var_expr("x"));
      (how == 1 ? outer.orelse : outer.body) = std::move(body);
      body = {std::move(outer)};
    }
    Program p;
    Kind k;
    k.name = "K";
    k.params.push_back(Param{"x", Type::Int, ""});
    Field f;
    f.name = "f";
    f.init = gen::int_expr(0);
    k.state.push_back(f);
    Handler h;
    h.tag = "t";
    h.body = std::move(body);
    k.handlers.push_back(std::move(h));
    p.kinds.push_back(std::move(k));
    ProcessDecl w;
    w.name = "w";
    w.kind = "K";
    w.args.push_back(gen::int_expr(1));
    Decl d = w;
    for (int i = sup_depth; i >= 1; i--) {
      SupervisorDecl s;
      s.name = "s" + std::to_string(i);
      s.children.push_back(Child{Restart::Permanent, std::move(d)});
      d = std::move(s);
    }
    p.system.push_back(std::move(d));
    return p;
  });
}

RC_GTEST_PROP(OracleLimits, ProgramsAtTheNestingLimitsAreValidAndRoundTrip, ()) {
  // Each dimension anywhere up to its limit, often exactly at it.
  auto upto = [](int limit) {
    return gen::weighted<int>({{1, rc::gen::inRange(1, limit + 1)}, {1, rc::gen::just(limit)}});
  };
  int sd = *upto(kMaxDepth), ed = *upto(kMaxDepth), pd = *upto(kMaxDepth);
  Program p = *nested_program(sd, ed, pd);
  std::string err = check_error(p);
  if (!err.empty()) RC_FAIL("check() rejects a program within the limits: " + err);
  std::string json = program_to_json(p).dump();
  std::string text = print_program(p);
  Program from_json, from_text;
  try {
    from_json = program_from_json_text(json);
  } catch (const InputError& e) {
    RC_FAIL(std::string("the JSON reader rejects a valid program: ") + e.what() + "\n" + text);
  }
  try {
    from_text = parse_program(text);
  } catch (const InputError& e) {
    RC_FAIL(std::string("the text reader rejects a valid program: ") + e.what() + "\n" + text);
  }
  RC_ASSERT(from_json == p);
  RC_ASSERT(from_text == p);
}

// Where a reader or check() stops a program (empty: it accepts it).
std::string rejection(const std::string& input, bool json) {
  try {
    Program p = json ? program_from_json_text(input) : parse_program(input);
    check(p);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

RC_GTEST_PROP(OracleLimits, ProgramsPastTheNestingLimitsAreRejectedByBothReaders, ()) {
  int past = *rc::gen::inRange(0, 3);  // which dimension goes one level too deep
  int sd = past == 0 ? kMaxDepth + 1 : *rc::gen::inRange(1, kMaxDepth + 1);
  int ed = past == 1 ? kMaxDepth + 1 : *rc::gen::inRange(1, kMaxDepth + 1);
  int pd = past == 2 ? kMaxDepth + 1 : *rc::gen::inRange(1, kMaxDepth + 1);
  Program p = *nested_program(sd, ed, pd);
  std::string text = print_program(p);
  RC_LOG() << "statements " << sd << ", expression " << ed << ", supervisors " << pd << "\n";
  RC_ASSERT(!rejection(program_to_json(p).dump(), true).empty());
  RC_ASSERT(!rejection(text, false).empty());
}

// check() itself enforces the nesting limits, whatever built the program.
RC_GTEST_PROP(OracleLimits, CheckRejectsProgramsPastTheNestingLimits, ()) {
  int past = *rc::gen::inRange(0, 3);
  int sd = past == 0 ? kMaxDepth + 1 : 1, ed = past == 1 ? kMaxDepth + 1 : 1, pd = past == 2 ? kMaxDepth + 1 : 1;
  Program p = *nested_program(sd, ed, pd);
  RC_ASSERT(!check_error(p).empty());
}

}  // namespace
}  // namespace concord
