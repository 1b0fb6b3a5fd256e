// generators/supervision.hpp: random systems (SPEC §3, §7): roots that are
// declared processes or supervisor trees with every strategy, restart type and
// intensity 0..max, nested as deep as the profile says. A system is generated
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

/// A strategy. Shrinks toward one_for_one.
inline rc::Gen<Strategy> strategy() {
  return rc::gen::element(Strategy::OneForOne, Strategy::OneForAll, Strategy::RestForOne);
}

/// An intensity (MaxR): 0 (the first restart gives up), or 1..max_intensity, as
/// the profile weighs them. Shrinks toward 0.
inline rc::Gen<int64_t> intensity(const Profile& pr = default_profile()) {
  return weighted<int64_t>(
      {{pr.w_intensity_zero, rc::gen::just<int64_t>(0)},
       {pr.max_intensity > 0 ? pr.w_intensity_positive : 0, rc::gen::inRange<int64_t>(1, pr.max_intensity + 1)}});
}

/// A declared process of one of `kinds` (non-empty), unnamed, without arguments.
/// Shrinks toward the first kind.
inline rc::Gen<Decl> process_shape(const std::vector<std::string>& kinds) {
  return rc::gen::map(rc::gen::elementOf(kinds), [](const std::string& k) {
    ProcessDecl d;
    d.kind = k;
    return Decl{std::move(d)};
  });
}

/// A supervisor, unnamed, with 0..max_children children (processes, or
/// supervisors while depth allows). Shrinks by removing children, toward process
/// children, permanent, one_for_one, intensity 0.
inline rc::Gen<Decl> supervisor_shape(const std::vector<std::string>& kinds, int depth, ProfileRef pr) {
  rc::Gen<Decl> child_decl = depth > 1 ? weighted<Decl>({{pr->w_child_process, process_shape(kinds)},
                                                         {pr->w_child_supervisor, rc::gen::lazy([kinds, depth, pr] {
                                                            return supervisor_shape(kinds, depth - 1, pr);
                                                          })}})
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
      strategy(), intensity(*pr), list_of(pr->max_children, child));
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
                                              std::vector<std::string> addrs, ProfileRef pr = default_profile_ref()) {
  return rc::gen::exec([sys, kinds, addrs, pr] {
    std::vector<Decl> out = sys;
    auto walk = [&](auto& self, Decl& d) -> void {
      if (auto* p = std::get_if<ProcessDecl>(&d)) {
        for (const KindShape& k : kinds)
          if (k.name == p->kind)
            for (Type t : k.params) p->args.push_back(*constant(addrs, t, *pr));
        return;
      }
      for (Child& c : std::get<SupervisorDecl>(d).children) self(self, c.decl);
    };
    for (Decl& d : out) walk(walk, d);
    return out;
  });
}

inline std::string lower_case(const std::string& kind) {
  std::string out;
  for (char c : kind) out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

/// Spawned names no run reaches (19 digits: the longest spawned name check()
/// accepts), one per kind: a message to one is always dropped.
inline std::vector<std::string> unknown_names(const std::vector<KindShape>& kinds) {
  std::vector<std::string> out;
  for (const KindShape& k : kinds) out.push_back(lower_case(k.name) + "-9999999999999999999");
  return out;
}

/// The addr literal names of a program: its declared processes, then the first
/// three spawned names of each kind ("worker-1"...), then unknown_names().
inline std::vector<std::string> addr_names(const std::vector<Decl>& sys, const std::vector<KindShape>& kinds) {
  std::vector<std::string> out;
  std::vector<const ProcessDecl*> procs;
  collect_processes(sys, procs);
  for (const ProcessDecl* p : procs) out.push_back(p->name);
  for (const KindShape& k : kinds)
    for (const char* n : {"1", "2", "3"}) out.push_back(lower_case(k.name) + "-" + n);
  for (const std::string& n : unknown_names(kinds)) out.push_back(n);
  return out;
}

/// A named system of 1..max_roots roots over `kinds` (non-empty), without process
/// arguments yet. Shrinks by removing roots and children, toward process roots.
inline rc::Gen<std::vector<Decl>> system_shape(const std::vector<std::string>& kinds,
                                               ProfileRef pr = default_profile_ref()) {
  rc::Gen<Decl> root = weighted<Decl>({{pr->w_root_process, process_shape(kinds)},
                                       {pr->w_root_supervisor, supervisor_shape(kinds, pr->max_supervisor_depth, pr)}});
  return rc::gen::map(list_of1(pr->max_roots, root), [](std::vector<Decl> sys) {
    name_system(sys);
    return sys;
  });
}

}  // namespace concord::gen
