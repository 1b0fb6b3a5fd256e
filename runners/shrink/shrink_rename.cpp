// runners/shrink/shrink_rename.cpp: the pass `names`: one name at a time renamed to
// a short readable one, so that a shrunk program reads `kind A`, processes a, b,
// tags m, n and variables x, y rather than the generator's
// `Abcdefghijklmnopqrstuvwxyz_01234` or `stop_`. A candidate renames one name and
// every use of it; the driver keeps it, as any candidate, only when it is valid
// (SPEC §4.1: keywords, kinds unique case-insensitively), lighter (the new name is
// shorter) and still shows the divergence.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "oracle/check.hpp"
#include "runners/shrink/shrink_passes.hpp"
#include "runners/shrink/shrink_walk.hpp"

namespace concord {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The i-th name of a sequence that starts with the letters `first` and then adds
// digits: "x", "y", "z", "u", ..., "x2", "y2", ...
std::string nth_name(const std::string& letters, size_t i) {
  std::string name(1, letters[i % letters.size()]);
  if (i >= letters.size()) name += std::to_string(i / letters.size() + 1);
  return name;
}

enum class Role { Kind, Declared, Tag, Field, KindParam, HandlerParam };

struct Rename {
  Role role;
  size_t kind = 0, handler = 0;  // Field, KindParam: the kind; HandlerParam: the kind and its handler
  std::string from, to;
};

constexpr const char* kKindLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr const char* kDeclaredLetters = "abcdefghijkl";
constexpr const char* kTagLetters = "mnopqrstuvw";
constexpr const char* kVariableLetters = "xyzuvwijk";
constexpr size_t kUnranked = 1000;  // a name of no sequence, or far along one

// A name's place in its sequence, kUnranked when it is not in the first
// kUnranked names.
size_t rank_of(const std::string& name, const std::string& letters) {
  size_t at = letters.find(name.empty() ? '\0' : name[0]);
  if (at == std::string::npos) return kUnranked;
  for (size_t i = at; i < kUnranked; i += letters.size())
    if (nth_name(letters, i) == name) return i;
  return kUnranked;
}

// The first name of `letters`' sequence that is none of `used` (compared by
// `key`) and is valid: the rename, when that name is shorter than `from`, or as
// long and earlier in the sequence (b becomes a once a is free).
template <class Key, class Valid>
bool shorter_name(const std::string& from, const std::string& letters, const std::set<std::string>& used, Key key,
                  Valid valid, std::string& to) {
  size_t from_rank = rank_of(from, letters);
  for (size_t i = 0;; i++) {
    std::string name = nth_name(letters, i);
    if (name.size() > from.size() || (name.size() == from.size() && i >= from_rank)) return false;
    if (!used.count(key(name)) && valid(name)) {
      to = name;
      return true;
    }
  }
}

template <class F>
void each_decl_name(const Program& p, F&& f) {
  visit_decls(p, [&](const Decl& d) {
    if (auto* pd = std::get_if<ProcessDecl>(&d)) f(pd->name);
    if (auto* sd = std::get_if<SupervisorDecl>(&d)) f(sd->name);
    return false;
  });
}

// The tags of the program in order of first appearance: handlers, sends and calls,
// given messages. Version 2's exit and down are the messages of links and monitors
// (§16.4): never renamed.
std::vector<std::string> tags_of(const Program& p) {
  std::vector<std::string> tags;
  auto add = [&](const std::string& t) {
    if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
  };
  for (const Kind& k : p.kinds)
    for (const Handler& h : k.handlers) add(h.tag);
  visit_stmts(p, [&](const std::vector<Stmt>& body, size_t i) {
    if (body[i].kind == StmtKind::Send || body[i].kind == StmtKind::Call) add(body[i].name);
    return false;
  });
  for (const Given& g : p.given) add(g.tag);
  std::erase_if(tags, [&](const std::string& t) { return p.version >= 2 && (t == "exit" || t == "down"); });
  return tags;
}

std::set<std::string> variables_of(const Kind& k) {
  std::set<std::string> names;
  for (const Param& a : k.params) names.insert(a.name);
  for (const Field& f : k.state) names.insert(f.name);
  for (const Handler& h : k.handlers)
    for (const Param& a : h.params) names.insert(a.name);
  return names;
}

// Every rename the pass offers, in a fixed order: kinds, declared processes and
// supervisors, tags, then each kind's parameters, fields and handler parameters.
std::vector<Rename> renames(const Program& p) {
  std::vector<Rename> out;
  int v = p.version;
  auto lower_valid = [v](const std::string& s) { return is_lower_name(s, v); };
  auto same = [](const std::string& s) { return s; };

  std::set<std::string> kinds;
  for (const Kind& k : p.kinds) kinds.insert(lower(k.name));
  for (const Kind& k : p.kinds) {
    Rename r{Role::Kind, 0, 0, k.name, ""};
    if (shorter_name(k.name, kKindLetters, kinds, lower, is_kind_name, r.to)) out.push_back(r);
  }

  std::set<std::string> declared;
  each_decl_name(p, [&](const std::string& n) { declared.insert(n); });
  each_decl_name(p, [&](const std::string& n) {
    Rename r{Role::Declared, 0, 0, n, ""};
    if (shorter_name(n, kDeclaredLetters, declared, same, lower_valid, r.to)) out.push_back(r);
  });

  std::vector<std::string> tags = tags_of(p);
  std::set<std::string> tag_set(tags.begin(), tags.end());
  for (const std::string& t : tags) {
    Rename r{Role::Tag, 0, 0, t, ""};
    if (shorter_name(t, kTagLetters, tag_set, same, lower_valid, r.to)) out.push_back(r);
  }

  for (size_t k = 0; k < p.kinds.size(); k++) {
    const Kind& kind = p.kinds[k];
    std::set<std::string> vars = variables_of(kind);
    auto var = [&](Role role, size_t h, const std::string& n) {
      Rename r{role, k, h, n, ""};
      if (shorter_name(n, kVariableLetters, vars, same, lower_valid, r.to)) out.push_back(r);
    };
    for (const Param& a : kind.params) var(Role::KindParam, 0, a.name);
    for (const Field& f : kind.state) var(Role::Field, 0, f.name);
    for (size_t h = 0; h < kind.handlers.size(); h++)
      for (const Param& a : kind.handlers[h].params) var(Role::HandlerParam, h, a.name);
  }
  return out;
}

// Every expression of a kind (state initialisers, then its code). f(expr).
template <class F>
void each_kind_expr(Kind& k, F&& f) {
  auto in = [&](Expr& e, Place) {
    f(e);
    return false;
  };
  for (Field& field : k.state) walk::exprs_in(field.init, Place::Init, in);
  visit_kind_stmts(k, [&](std::vector<Stmt>& body, size_t i) {
    for (Expr& e : body[i].exprs) walk::exprs_in(e, Place::Code, in);
    return false;
  });
}

// A spawned process's name (`kind-N`, SPEC §6.6) of the renamed kind, renamed.
void rename_spawned(std::string& name, const std::string& from, const std::string& to) {
  size_t dash = name.rfind('-');
  if (dash != std::string::npos && name.compare(0, dash, from) == 0 && dash == from.size())
    name = to + name.substr(dash);
}

void apply(Program& p, const Rename& r) {
  switch (r.role) {
    case Role::Kind: {
      std::string from = lower(r.from), to = lower(r.to);
      for (Kind& k : p.kinds)
        if (k.name == r.from) k.name = r.to;
      visit_decls(p, [&](Decl& d) {
        if (auto* pd = std::get_if<ProcessDecl>(&d); pd && pd->kind == r.from) pd->kind = r.to;
        return false;
      });
      visit_stmts(p, [&](std::vector<Stmt>& body, size_t i) {
        if (body[i].kind == StmtKind::Spawn && body[i].name == r.from) body[i].name = r.to;
        return false;
      });
      visit_exprs(p, [&](Expr& e, Place) {
        if (e.kind == ExprKind::Addr) rename_spawned(e.name, from, to);
        return false;
      });
      for (Given& g : p.given) rename_spawned(g.to, from, to);
      return;
    }
    case Role::Declared:
      visit_decls(p, [&](Decl& d) {
        if (auto* pd = std::get_if<ProcessDecl>(&d); pd && pd->name == r.from) pd->name = r.to;
        if (auto* sd = std::get_if<SupervisorDecl>(&d); sd && sd->name == r.from) sd->name = r.to;
        return false;
      });
      visit_exprs(p, [&](Expr& e, Place) {
        if (e.kind == ExprKind::Addr && e.name == r.from) e.name = r.to;
        return false;
      });
      visit_stmts(p, [&](std::vector<Stmt>& body, size_t i) {
        Stmt& s = body[i];
        if (s.under == r.from) s.under = r.to;
        if (s.kind == StmtKind::Api && s.name == r.from) s.name = r.to;
        return false;
      });
      for (Given& g : p.given)
        if (g.to == r.from) g.to = r.to;
      return;
    case Role::Tag:
      for (Kind& k : p.kinds)
        for (Handler& h : k.handlers)
          if (h.tag == r.from) h.tag = r.to;
      visit_stmts(p, [&](std::vector<Stmt>& body, size_t i) {
        Stmt& s = body[i];
        if ((s.kind == StmtKind::Send || s.kind == StmtKind::Call) && s.name == r.from) s.name = r.to;
        return false;
      });
      for (Given& g : p.given)
        if (g.tag == r.from) g.tag = r.to;
      return;
    case Role::KindParam:
    case Role::Field: {
      Kind& k = p.kinds[r.kind];
      Scope scope = r.role == Role::Field ? Scope::Field : Scope::Param;
      if (r.role == Role::Field) {
        for (Field& f : k.state)
          if (f.name == r.from) f.name = r.to;
        visit_kind_stmts(k, [&](std::vector<Stmt>& body, size_t i) {
          Stmt& s = body[i];
          if (s.kind == StmtKind::Assign && s.name == r.from) s.name = r.to;
          if (s.bind == r.from) s.bind = r.to;
          return false;
        });
      } else {
        for (Param& a : k.params)
          if (a.name == r.from) a.name = r.to;
      }
      each_kind_expr(k, [&](Expr& e) {
        if (e.kind == ExprKind::Var && e.scope == scope && e.name == r.from) e.name = r.to;
      });
      return;
    }
    case Role::HandlerParam: {
      Handler& h = p.kinds[r.kind].handlers[r.handler];
      for (Param& a : h.params)
        if (a.name == r.from) a.name = r.to;
      auto in = [&](Expr& e, Place) {
        if (e.kind == ExprKind::Var && e.scope == Scope::Arg && e.name == r.from) e.name = r.to;
        return false;
      };
      walk::stmts_in(h.body, [&](std::vector<Stmt>& body, size_t i) {
        for (Expr& e : body[i].exprs) walk::exprs_in(e, Place::Code, in);
        return false;
      });
      return;
    }
  }
}

}  // namespace

size_t name_rank(const Program& p) {
  size_t sum = 0;
  for (const Kind& k : p.kinds) {
    sum += rank_of(k.name, kKindLetters);
    for (const std::string& v : variables_of(k)) sum += rank_of(v, kVariableLetters);
  }
  each_decl_name(p, [&](const std::string& n) { sum += rank_of(n, kDeclaredLetters); });
  for (const std::string& t : tags_of(p)) sum += rank_of(t, kTagLetters);
  return sum;
}

bool rename_name(ShrinkState& s, size_t n) {
  std::vector<Rename> all = renames(s.program);
  if (n >= all.size()) return false;
  apply(s.program, all[n]);
  return true;
}

}  // namespace concord
