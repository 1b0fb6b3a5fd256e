// oracle/dialect.cpp: the catalogue of alternatives (dialect.hpp). Each entry says
// which rule it replaces and what it does instead, as the function that consults it
// does (supervision.cpp for the DynamicSupervisor ones).
#include "dialect.hpp"

#include <algorithm>

#include <stdexcept>

#include "error.hpp"
#include "program.hpp"
#include "state.hpp"

namespace concord {

const std::vector<Alternative>& alternatives() {
  static const std::vector<Alternative> all = [] {
    std::vector<Alternative> out;
    for (auto* area : {&elixir_alternatives, &message_alternatives, &supervision_alternatives, &signal_alternatives,
                       &call_alternatives})
      for (const Alternative& x : area()) out.push_back(x);
    for (size_t i = 0; i < out.size(); i++)
      if (static_cast<size_t>(out[i].alt) != i)
        throw std::logic_error(std::string("dialect catalogue out of order at ") + out[i].id);
    if (out.size() != kAlternatives) throw std::logic_error("dialect catalogue: an alternative has no entry");
    return out;
  }();
  return all;
}

bool alt_on(const World& w, Alt a, int32_t slot) {
  if (!w.dialect.has(a)) return false;
  switch (alternative(a).scope) {
    case AltScope::Everywhere: return true;
    case AltScope::DynamicSupervisors: return slot >= 0 && is_dynamic_supervisor(*w.sups[slot].decl);
  }
  return false;
}

void took(World& w, Alt a) {
  w.taken.set(static_cast<size_t>(a));
  w.changes++;
}

bool took_if(World& w, Alt a, int32_t slot) {
  if (!alt_on(w, a, slot)) return false;
  took(w, a);
  return true;
}

const Alternative& alternative(Alt a) { return alternatives()[static_cast<size_t>(a)]; }

std::optional<Alt> alternative_named(std::string_view id) {
  for (const Alternative& a : alternatives())
    if (id == a.id) return a.alt;
  return std::nullopt;
}

const char* scope_text(AltScope s) {
  switch (s) {
    case AltScope::Everywhere: return "every program";
    case AltScope::DynamicSupervisors:
      return "supervisors with no declared children, one_for_one, auto_shutdown never (run as DynamicSupervisor)";
  }
  return "";
}

bool is_dynamic_supervisor(const SupervisorDecl& s) {
  return s.children.empty() && s.strategy == Strategy::OneForOne && s.auto_shutdown == AutoShutdown::Never;
}

Dialect dialect_named(const std::string& ids, const std::string& where) {
  Dialect d;
  for (size_t from = 0; from <= ids.size();) {
    size_t comma = std::min(ids.find(',', from), ids.size());
    std::string id = ids.substr(from, comma - from);
    std::optional<Alt> a = alternative_named(id);
    if (!a) throw InputError(where, "no oracle dialect '" + id + "' (concord dialects lists them)");
    d.with(*a);
    from = comma + 1;
  }
  return d;
}

std::string dialect_text(const AltSet& s) {
  std::string out;
  for (const Alternative& a : alternatives())
    if (s.test(static_cast<size_t>(a.alt))) out += (out.empty() ? "" : " + ") + std::string(a.id);
  return out.empty() ? "SPEC" : out;
}

}  // namespace concord
