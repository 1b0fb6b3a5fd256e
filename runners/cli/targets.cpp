// runners/cli/targets.cpp: the registry of backends a command runs on, from
// --target, --backend, --backends and --timeout.
#include <algorithm>

#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"
#include "targets/targets.hpp"

namespace concord {

void declare_builtin_deviations(Registry& r) {
  for (const TargetEntry& e : target_list()) r.set_deviations(e.name, builtin_deviations(e));
}

Targets choose_targets(const Args& a, const std::string& target) {
  Targets t{std::make_unique<Registry>(self_exe(), builtin_targets()), {}, ""};
  declare_builtin_deviations(*t.reg);
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
    return t;
  }
  size_t start = 0;  // NAME, or NAME,NAME,...
  while (start <= target.size()) {
    size_t comma = std::min(target.find(',', start), target.size());
    std::string name = target.substr(start, comma - start);
    if (const BackendSpec* s = t.reg->find(name)) {
      t.chosen.push_back(s);
    } else {
      std::string known;
      for (const BackendSpec& s : t.reg->all()) known += s.name + ", ";
      throw InputError("--target", "unknown target '" + name + "' (known: " + known + "all)");
    }
    start = comma + 1;
  }
  return t;
}

void keep_default_campaign(Targets& t, const std::string& profile) {
  std::vector<std::string> keep = default_campaign_targets(profile);
  std::erase_if(t.chosen, [&](const BackendSpec* s) {
    return t.reg->is_builtin(s->name) && s->name != "oracle" &&
           std::find(keep.begin(), keep.end(), s->name) == keep.end();
  });
  bool others = std::any_of(t.chosen.begin(), t.chosen.end(), [](const BackendSpec* s) { return s->name != "oracle"; });
  int version = gen::profile_named(profile).version;
  if (!others && version > 1)
    throw InputError("--profile", "profile " + profile + " makes version " + std::to_string(version) +
                                      " programs, which no built-in target implements yet (SPEC §14): name the "
                                      "targets to compare with --target (each answers UNSUPPORTED) or --backend");
}

std::vector<BackendSpec> compared_targets(const Targets& t) {
  std::vector<BackendSpec> out;
  for (const BackendSpec* s : t.chosen)
    if (s->name != "oracle") out.push_back(*s);
  if (out.empty()) throw InputError("--target", "nothing to compare with the oracle");
  return out;
}

}  // namespace concord
