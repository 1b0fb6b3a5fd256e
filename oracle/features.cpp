// oracle/features.cpp: the features a program uses (features.hpp), by one walk over
// its declarations and bodies.
#include "features.hpp"

namespace concord {
namespace {

struct FeatureInfo {
  Feature feature;
  const char* name;
  const char* section;
};

constexpr FeatureInfo kFeatures[kFeatureCount] = {
    {Feature::Supervisors, "supervisors", "§7"},
    {Feature::Links, "links", "§16"},
    {Feature::Monitors, "monitors", "§16"},
    {Feature::ExitSignals, "exit_signals", "§16.3"},
    {Feature::TrapExit, "trap_exit", "§16.2"},
    {Feature::Calls, "calls", "§18"},
    {Feature::FailingStarts, "failing_starts", "§19"},
    {Feature::SupervisorApi, "supervisor_api", "§20"},
    {Feature::Significant, "significant", "§21"},
};

const FeatureInfo& info(Feature f) { return kFeatures[static_cast<size_t>(f)]; }

// A `/` or `%` whose divisor is not a non-zero literal may fail with DIV_ZERO.
bool may_divide_by_zero(const Expr& e) {
  if (e.kind == ExprKind::Binary && (e.op == Op::Div || e.op == Op::Rem) &&
      !(e.args[1].kind == ExprKind::Int && e.args[1].value != 0))
    return true;
  for (const Expr& a : e.args)
    if (may_divide_by_zero(a)) return true;
  return false;
}

struct Walk {
  FeatureSet used;
  bool in_init = false;
  bool version2 = false;

  void start_may_fail() {
    if (in_init && version2) used.add(Feature::FailingStarts);
  }

  void exprs(const std::vector<Expr>& es) {
    for (const Expr& e : es)
      if (may_divide_by_zero(e)) start_may_fail();
  }

  void body(const std::vector<Stmt>& b) {
    for (const Stmt& s : b) stmt(s);
  }

  void stmt(const Stmt& s) {
    exprs(s.exprs);
    switch (s.kind) {
      case StmtKind::Assign:
      case StmtKind::Send: break;
      case StmtKind::If:
      case StmtKind::Repeat:
        body(s.body);
        body(s.orelse);
        break;
      case StmtKind::Spawn:
        if (!s.under.empty()) used.add(Feature::Supervisors);
        if (s.significant) used.add(Feature::Significant);
        break;
      case StmtKind::Stop:
      case StmtKind::Fail:
      case StmtKind::Ignore: start_may_fail(); break;
      case StmtKind::Link:
        start_may_fail();  // NOPROC in a process that does not trap exits (§16.2)
        used.add(Feature::Links);
        break;
      case StmtKind::Unlink: used.add(Feature::Links); break;
      case StmtKind::Monitor:
      case StmtKind::Demonitor: used.add(Feature::Monitors); break;
      case StmtKind::TrapExit: used.add(Feature::TrapExit); break;
      case StmtKind::Exit: used.add(Feature::ExitSignals); break;
      case StmtKind::Call:
      case StmtKind::Reply: used.add(Feature::Calls); break;
      case StmtKind::Api:
        used.add(Feature::SupervisorApi);
        used.add(Feature::Supervisors);
        break;
    }
  }

  void decl(const Decl& d) {
    const SupervisorDecl* s = std::get_if<SupervisorDecl>(&d);
    if (!s) return;
    used.add(Feature::Supervisors);
    if (s->auto_shutdown != AutoShutdown::Never) used.add(Feature::Significant);
    for (const Child& c : s->children) {
      if (c.significant) used.add(Feature::Significant);
      decl(c.decl);
    }
  }
};

}  // namespace

const std::vector<Feature>& all_features() {
  static const std::vector<Feature> all = [] {
    std::vector<Feature> v;
    for (const FeatureInfo& f : kFeatures) v.push_back(f.feature);
    return v;
  }();
  return all;
}

const char* feature_name(Feature f) { return info(f).name; }
const char* feature_section(Feature f) { return info(f).section; }

bool parse_feature(const std::string& s, Feature& out) {
  for (const FeatureInfo& f : kFeatures)
    if (s == f.name) {
      out = f.feature;
      return true;
    }
  return false;
}

std::string feature_names() {
  std::string out;
  for (const FeatureInfo& f : kFeatures) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

FeatureSet program_features(const Program& p) {
  Walk w;
  w.version2 = p.version >= 2;
  for (const Kind& k : p.kinds) {
    w.in_init = true;
    for (const Field& f : k.state)
      if (may_divide_by_zero(f.init)) w.start_may_fail();
    w.body(k.init);
    w.in_init = false;
    for (const Handler& h : k.handlers) w.body(h.body);
  }
  for (const Decl& d : p.system) w.decl(d);
  return w.used;
}

}  // namespace concord
