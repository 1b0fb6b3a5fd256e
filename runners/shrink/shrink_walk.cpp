// runners/shrink/shrink_walk.cpp: the shared edits of the shrinker's passes, and the
// measures of a program it reports (program_size, process_count).
#include "runners/shrink/shrink_walk.hpp"

#include <algorithm>

#include "runners/shrink/shrink.hpp"

namespace concord {

std::vector<std::string> processes_in(const Decl& d) {
  std::vector<std::string> out;
  walk::decls_in(d, [&](const Decl& x) {
    if (auto* pd = std::get_if<ProcessDecl>(&x)) out.push_back(pd->name);
    return false;
  });
  return out;
}

std::vector<std::string> declared_processes(const Program& p) {
  std::vector<std::string> out;
  for (const Decl& d : p.system)
    for (std::string& n : processes_in(d)) out.push_back(std::move(n));
  return out;
}

void drop_givens_to(Program& p, const std::vector<std::string>& names) {
  std::erase_if(p.given, [&](const Given& g) { return std::find(names.begin(), names.end(), g.to) != names.end(); });
}

size_t program_size(const Program& p) {
  size_t n = p.kinds.size() + p.given.size();
  for (const Kind& k : p.kinds) {
    n += k.params.size() + k.state.size() + k.handlers.size();
    for (const Handler& h : k.handlers) n += h.params.size();
  }
  auto count = [&](auto&&...) {
    n++;
    return false;  // go on: visit every node
  };
  visit_decls(p, count);
  visit_stmts(p, count);
  visit_exprs(p, count);
  return n;
}

size_t process_count(const Program& p) {
  size_t n = declared_processes(p).size();
  visit_stmts(p, [&](const std::vector<Stmt>& body, size_t i) {
    if (body[i].kind == StmtKind::Spawn) n++;
    return false;
  });
  return n;
}

}  // namespace concord
