// generators/programs.hpp: random valid programs (SPEC §3, §4): kinds with
// parameters, state fields, init and handlers; a system of declared processes and
// supervisor trees (supervision.hpp); given messages, most of which some handler
// matches, so runs do something. program(profile) draws every size and choice
// from a Profile (profile.hpp); program() uses the default one. check() accepts
// every program generated here, under every profile (properties in
// tests/oracle/properties_test.cpp and profiles_test.cpp hold the generators to it).
//
// A program is generated in dependent steps, each its own generator: kind headers
// (names, parameters, fields, handler signatures), the system, then the code of
// every kind and the given messages, which may refer to everything before.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "generators/expressions.hpp"
#include "generators/generate.hpp"  // showValue(Program)
#include "generators/scale.hpp"
#include "generators/statements.hpp"
#include "generators/supervision.hpp"
#include "generators/v2.hpp"
#include "oracle/text.hpp"

namespace concord::gen {

/// Up to `max` typed names taken in order from `names`. Shrinks by dropping
/// entries (later names move up), toward int.
inline rc::Gen<std::vector<Param>> params_named(std::vector<std::string> names, int max) {
  return rc::gen::map(rc::gen::resize(max, rc::gen::container<std::vector<Type>>(type())),
                      [names](std::vector<Type> ts) {
                        std::vector<Param> out;
                        for (size_t i = 0; i < ts.size() && i < names.size(); i++)
                          out.push_back(Param{names[i], ts[i], ""});
                        return out;
                      });
}

/// A handler header with tag `tag`: 0..max_params parameters named from `names`
/// (rotated), body left empty. Shrinks toward no parameters.
inline rc::Gen<Handler> handler_header(std::string tag, std::vector<std::string> names, int max_params) {
  return rc::gen::mapcat(distinct_names(names, names.size()), [tag, max_params](std::vector<std::string> ns) {
    return rc::gen::map(params_named(ns, max_params), [tag](std::vector<Param> ps) {
      Handler h;
      h.tag = tag;
      h.params = std::move(ps);
      return h;
    });
  });
}

/// A kind header named `name`: 0..max_params parameters, 0..max_params state
/// fields (initialisers left 0), 0..max_handlers handlers with distinct tags, all
/// names distinct within the kind (SPEC §4.2). Shrinks toward fewer parameters,
/// fields and handlers and the pools' first names.
inline rc::Gen<Kind> kind_header(std::string name, ProfileRef pr = default_profile_ref()) {
  const int max_params = pr->max_params, max_handlers = pr->max_handlers;
  return rc::gen::mapcat(
      distinct_names(var_pool(), var_pool().size()), [name, max_params, max_handlers](std::vector<std::string> vars) {
        std::vector<std::string> kind_vars(vars.begin(), vars.begin() + 2 * max_params);
        std::vector<std::string> handler_vars(vars.begin() + 2 * max_params, vars.end());
        rc::Gen<std::vector<Handler>> handlers = rc::gen::mapcat(
            distinct_names(tag_pool(), max_handlers),
            [handler_vars, max_params, max_handlers](std::vector<std::string> tags) {
              return rc::gen::map(rc::gen::resize(max_handlers, rc::gen::container<std::vector<Handler>>(
                                                                    handler_header("", handler_vars, max_params))),
                                  [tags](std::vector<Handler> hs) {
                                    for (size_t i = 0; i < hs.size(); i++) hs[i].tag = tags[i];
                                    return hs;
                                  });
            });
        return rc::gen::apply(
            [name, kind_vars](std::vector<Type> params, std::vector<Type> fields, std::vector<Handler> hs) {
              Kind k;
              k.name = name;
              size_t next = 0;
              for (Type t : params) k.params.push_back(Param{kind_vars[next++], t, ""});
              for (Type t : fields) {
                Field f;
                f.name = kind_vars[next++];
                f.type = t;
                f.init = t == Type::Int ? int_expr(0) : self_expr();
                k.state.push_back(std::move(f));
              }
              k.handlers = std::move(hs);
              return k;
            },
            rc::gen::resize(max_params, rc::gen::container<std::vector<Type>>(type())),
            rc::gen::resize(max_params, rc::gen::container<std::vector<Type>>(type())), handlers);
      });
}

/// 1..max_kinds kind headers with distinct names. Shrinks toward one kind.
inline rc::Gen<std::vector<Kind>> kind_headers(ProfileRef pr = default_profile_ref()) {
  return rc::gen::mapcat(distinct_names(kind_pool(), pr->max_kinds), [pr](std::vector<std::string> names) {
    return rc::gen::mapcat(rc::gen::inRange(1, pr->max_kinds + 1), [names, pr](int n) {
      return rc::gen::exec([names, n, pr] {
        std::vector<Kind> out;
        for (int i = 0; i < n; i++) out.push_back(*kind_header(names[i], pr));
        return out;
      });
    });
  });
}

inline std::vector<KindShape> shapes_of(const std::vector<Kind>& kinds) {
  std::vector<KindShape> out;
  for (const Kind& k : kinds) {
    KindShape s{k.name, {}};
    for (const Param& p : k.params) s.params.push_back(p.type);
    out.push_back(std::move(s));
  }
  return out;
}

/// What the code of every kind may refer to, from the kind headers and the system.
inline ProgramFacts facts_of(const std::vector<Kind>& kinds, const std::vector<Decl>& sys,
                             ProfileRef pr = default_profile_ref()) {
  ProgramFacts f;
  f.profile = std::move(pr);
  f.kinds = shapes_of(kinds);
  f.addrs = addr_names(sys, f.kinds);
  f.unknown = unknown_names(f.kinds);
  collect_supervisors(sys, f.supervisors);
  for (const Kind& k : kinds)
    for (const Handler& h : k.handlers) {
      Signature s{h.tag, {}};
      for (const Param& p : h.params) s.types.push_back(p.type);
      bool seen = false;
      for (const Signature& o : f.sigs) seen = seen || (o.tag == s.tag && o.types == s.types);
      if (!seen) f.sigs.push_back(std::move(s));
    }
  return f;
}

inline std::vector<Var> vars_of(const std::vector<Param>& ps) {
  std::vector<Var> out;
  for (const Param& p : ps) out.push_back(Var{p.name, p.type});
  return out;
}

/// The code of a kind whose header is `k`: state initialisers over the parameters,
/// an init body, handler bodies (SPEC §4.2 scopes), some of them failing midway
/// after a send (handler_body). Shrinks each piece: initialisers toward leaves,
/// bodies toward fewer statements.
inline rc::Gen<Kind> kind_code(Kind header, std::shared_ptr<const ProgramFacts> facts) {
  return rc::gen::exec([header, facts] {
    const Profile& pr = *facts->profile;
    Kind k = header;
    std::vector<Var> fields;
    for (const Field& f : k.state) fields.push_back(Var{f.name, f.type});
    ExprScope init_exprs{vars_of(k.params), facts->addrs, true, facts->profile, facts->unknown};
    for (Field& f : k.state) f.init = *expr(init_exprs, f.type);
    ExprScope code_exprs = init_exprs;
    code_exprs.vars.insert(code_exprs.vars.end(), fields.begin(), fields.end());
    std::vector<Signature> own;
    for (const Handler& h : k.handlers) {
      Signature s{h.tag, {}};
      for (const Param& p : h.params) s.types.push_back(p.type);
      own.push_back(std::move(s));
    }
    k.init = *body(StmtScope{code_exprs, fields, facts, own}, pr.max_stmt_depth, pr.max_body_length);
    for (Handler& h : k.handlers) {
      ExprScope hs = code_exprs;
      hs.init = false;
      for (const Var& v : vars_of(h.params)) hs.vars.push_back(v);
      h.body = *handler_body(StmtScope{hs, fields, facts, own});
    }
    return k;
  });
}

/// One given message to a declared process of `procs` (or to any addr name: a
/// spawned form is dropped at start), usually matching a handler of the
/// receiver's kind, as the profile weighs it. Shrinks toward the first process and
/// a matching message.
inline rc::Gen<Given> given_message(std::vector<std::pair<std::string, Kind>> procs,
                                    std::shared_ptr<const ProgramFacts> facts) {
  return rc::gen::exec([procs, facts] {
    const Profile& pr = *facts->profile;
    Given g;
    std::vector<Signature> sigs = facts->sigs;
    bool to_process = !procs.empty() && *chance(pr.w_given_to_process, pr.w_given_to_any_name);
    if (to_process) {
      const auto& [name, kind] = procs[*uniform<size_t>(0, procs.size())];
      g.to = name;
      if (!kind.handlers.empty() &&
          *chance(pr.w_given_own_handler, pr.w_given_any_signature)) {  // matching the receiver's own handlers
        sigs.clear();
        for (const Handler& h : kind.handlers) {
          Signature s{h.tag, {}};
          for (const Param& p : h.params) s.types.push_back(p.type);
          sigs.push_back(std::move(s));
        }
      }
    } else {
      g.to = *rc::gen::elementOf(facts->addrs);
    }
    MessageShape m = *message_shape(sigs, pr);
    g.tag = m.first;
    for (Type t : m.second) g.args.push_back(*constant(facts->addrs, t, pr));
    return g;
  });
}

/// 1..max_given given messages. Shrinks toward one message.
inline rc::Gen<std::vector<Given>> given_messages(const std::vector<Kind>& kinds, const std::vector<Decl>& sys,
                                                  std::shared_ptr<const ProgramFacts> facts) {
  std::vector<const ProcessDecl*> decls;
  collect_processes(sys, decls);
  std::vector<std::pair<std::string, Kind>> procs;
  for (const ProcessDecl* d : decls)
    for (const Kind& k : kinds)
      if (k.name == d->kind) procs.emplace_back(d->name, k);
  return list_of1(facts->profile->max_given, given_message(procs, facts));
}

/// A valid program (see the banner) drawn as `profile` says, or a scale program
/// (scale.hpp) for a scale profile. Shrinks kinds first (fewer kinds), then the
/// system, then the code of the kinds and the given messages.
inline rc::Gen<Program> program(const Profile& profile) {
  ProfileRef pr = profile_ref(profile);
  if (profile.scale) return scale_program(pr);
  return rc::gen::mapcat(kind_headers(pr), [pr](std::vector<Kind> kinds) {
    std::vector<std::string> kind_names;
    for (const Kind& k : kinds) kind_names.push_back(k.name);
    return rc::gen::mapcat(system_shape(kind_names, pr), [kinds, pr](std::vector<Decl> shape) {
      std::vector<KindShape> shapes = shapes_of(kinds);
      auto facts = std::make_shared<const ProgramFacts>(facts_of(kinds, shape, pr));
      return rc::gen::exec([kinds, shape, shapes, facts] {
        Program p;
        p.system = *system_args(shape, shapes, facts->addrs, facts->profile);
        for (const Kind& k : kinds) p.kinds.push_back(*kind_code(k, facts));
        p.given = *given_messages(kinds, shape, facts);
        if (facts->profile->version >= 2) v2::program(p, *facts);  // SPEC §14-§23
        return p;
      });
    });
  });
}

/// A valid program of the default profile. Shrinks as program(profile).
inline rc::Gen<Program> program() { return program(default_profile()); }

}  // namespace concord::gen
