// generators/supervision.hpp: random systems (SPEC §3, §7): roots that are
// declared processes or supervisor trees with every strategy, restart type and
// intensity 0..3, nested at most kMaxSupervisorDepth deep. A system is generated
// in three steps: its shape (kinds chosen, names left empty), then names
// (name_system, pre-order, unique across processes and supervisors), then the
// constant arguments of each declared process (system_args).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "generators/expressions.hpp"
#include "generators/statements.hpp"

namespace concord::gen {

constexpr int kMaxSupervisorDepth = 3;  // supervisors within supervisors (the limit is 64)
constexpr int kMaxChildren = 3;         // static children per supervisor
constexpr int kMaxRoots = 4;

/// A strategy. Shrinks toward one_for_one.
inline rc::Gen<Strategy> strategy() {
  return rc::gen::element(Strategy::OneForOne, Strategy::OneForAll, Strategy::RestForOne);
}

/// An intensity (MaxR) in 0..3. Shrinks toward 0.
inline rc::Gen<int64_t> intensity() { return rc::gen::inRange<int64_t>(0, 4); }

/// A declared process of one of `kinds` (non-empty), unnamed, without arguments.
/// Shrinks toward the first kind.
inline rc::Gen<Decl> process_shape(const std::vector<std::string>& kinds) {
  return rc::gen::map(rc::gen::elementOf(kinds), [](const std::string& k) {
    ProcessDecl d;
    d.kind = k;
    return Decl{std::move(d)};
  });
}

/// A supervisor, unnamed, with 0..kMaxChildren children (processes, or supervisors
/// while depth allows). Shrinks by removing children, toward process children,
/// permanent, one_for_one, intensity 0.
inline rc::Gen<Decl> supervisor_shape(const std::vector<std::string>& kinds, int depth) {
  rc::Gen<Decl> child_decl =
      depth > 1 ? weighted<Decl>({{3, process_shape(kinds)},
                                  {1, rc::gen::lazy([kinds, depth] { return supervisor_shape(kinds, depth - 1); })}})
                : process_shape(kinds);
  rc::Gen<Child> child = rc::gen::apply(
      [](Restart r, Decl d) {
        return Child{r, std::move(d)};
      },
      restart_type(), child_decl);
  return rc::gen::apply(
      [](Strategy st, int64_t maxr, std::vector<Child> cs) {
        SupervisorDecl s;
        s.strategy = st;
        s.intensity = maxr;
        s.children = std::move(cs);
        return Decl{std::move(s)};
      },
      strategy(), intensity(), rc::gen::scale(0.7, list_of(kMaxChildren, child)));
}

/// Names every declared process and supervisor of `sys` in pre-order, from
/// process_pool() and supervisor_pool(), all distinct.
inline void name_system(std::vector<Decl>& sys) {
  std::set<std::string> used;
  size_t np = 0, ns = 0;
  auto walk = [&](auto& self, Decl& d) -> void {
    if (auto* p = std::get_if<ProcessDecl>(&d)) {
      p->name = fresh_name(process_pool(), np++, used);
      return;
    }
    SupervisorDecl& s = std::get<SupervisorDecl>(d);
    s.name = fresh_name(supervisor_pool(), ns++, used);
    for (Child& c : s.children) self(self, c.decl);
  };
  for (Decl& d : sys) walk(walk, d);
}

// Every declared process of a system, in pre-order (pointers into `sys`).
inline void collect_processes(const Decl& d, std::vector<const ProcessDecl*>& out) {
  if (auto* p = std::get_if<ProcessDecl>(&d)) {
    out.push_back(p);
    return;
  }
  for (const Child& c : std::get<SupervisorDecl>(d).children) collect_processes(c.decl, out);
}
inline void collect_processes(const std::vector<Decl>& sys, std::vector<const ProcessDecl*>& out) {
  for (const Decl& d : sys) collect_processes(d, out);
}

// Every supervisor's name, in pre-order.
inline void collect_supervisors(const Decl& d, std::vector<std::string>& out) {
  if (auto* s = std::get_if<SupervisorDecl>(&d)) {
    out.push_back(s->name);
    for (const Child& c : s->children) collect_supervisors(c.decl, out);
  }
}
inline void collect_supervisors(const std::vector<Decl>& sys, std::vector<std::string>& out) {
  for (const Decl& d : sys) collect_supervisors(d, out);
}

/// `sys` with constant arguments for every declared process, typed by its kind's
/// parameters (`kinds` names them all), addrs from `addrs`. Shrinks the arguments.
inline rc::Gen<std::vector<Decl>> system_args(std::vector<Decl> sys, std::vector<KindShape> kinds,
                                              std::vector<std::string> addrs) {
  return rc::gen::exec([sys, kinds, addrs] {
    std::vector<Decl> out = sys;
    auto walk = [&](auto& self, Decl& d) -> void {
      if (auto* p = std::get_if<ProcessDecl>(&d)) {
        for (const KindShape& k : kinds)
          if (k.name == p->kind)
            for (Type t : k.params) p->args.push_back(*constant(addrs, t));
        return;
      }
      for (Child& c : std::get<SupervisorDecl>(d).children) self(self, c.decl);
    };
    for (Decl& d : out) walk(walk, d);
    return out;
  });
}

/// The addr literal names of a program: its declared processes, then the first
/// three spawned names of each kind ("worker-1"...) and one far-off spawned name.
inline std::vector<std::string> addr_names(const std::vector<Decl>& sys, const std::vector<KindShape>& kinds) {
  std::vector<std::string> out;
  std::vector<const ProcessDecl*> procs;
  collect_processes(sys, procs);
  for (const ProcessDecl* p : procs) out.push_back(p->name);
  for (const KindShape& k : kinds) {
    std::string base;
    for (char c : k.name) base += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (const char* n : {"1", "2", "3"}) out.push_back(base + "-" + n);
  }
  if (!kinds.empty()) {
    std::string base;
    for (char c : kinds[0].name) base += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    out.push_back(base + "-9999999999999999999");  // 19 digits: the longest spawned name check() accepts
  }
  return out;
}

/// A named system of 1..kMaxRoots roots over `kinds` (non-empty), without process
/// arguments yet. Shrinks by removing roots and children, toward process roots.
inline rc::Gen<std::vector<Decl>> system_shape(const std::vector<std::string>& kinds) {
  rc::Gen<Decl> root = weighted<Decl>({{2, process_shape(kinds)}, {2, supervisor_shape(kinds, kMaxSupervisorDepth)}});
  return rc::gen::map(list_of1(kMaxRoots, root), [](std::vector<Decl> sys) {
    name_system(sys);
    return sys;
  });
}

}  // namespace concord::gen
