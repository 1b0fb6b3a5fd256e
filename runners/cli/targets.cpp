// runners/cli/targets.cpp: the registry of backends a command runs on, from
// --target, --backend, --backends and --timeout.
#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

Targets choose_targets(const Args& a, const std::string& target) {
  Targets t{std::make_unique<Registry>(self_exe()), {}, ""};
  for (const std::string& f : a.all("--backends")) {
    t.reg->add_file(f);
    t.declared += " --backends " + shell_quote(f);
  }
  for (const std::string& b : a.all("--backend")) {
    t.reg->add_option(b);
    t.declared += " --backend " + shell_quote(b);
  }
  if (const std::string* s = a.option("--timeout")) {
    t.reg->set_timeout(parse_seconds(*s, "--timeout"));
    t.declared += " --timeout " + shell_quote(*s);
  }
  if (target == "all") {
    for (const BackendSpec& s : t.reg->all()) t.chosen.push_back(&s);
  } else if (const BackendSpec* s = t.reg->find(target)) {
    t.chosen.push_back(s);
  } else {
    std::string known;
    for (const BackendSpec& s : t.reg->all()) known += s.name + ", ";
    throw InputError("", "unknown target '" + target + "' (known: " + known + "all)");
  }
  return t;
}

}  // namespace concord
