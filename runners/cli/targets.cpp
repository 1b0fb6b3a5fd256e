// runners/cli/targets.cpp: the registry of backends a command runs on, from
// --target, --backend, --backends and --timeout, and the project file concord.json.
#include <algorithm>
#include <filesystem>

#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"
#include "targets/targets.hpp"

namespace concord {

void declare_builtin_deviations(Registry& r) {
  for (const TargetEntry& e : target_list()) r.set_deviations(e.name, builtin_deviations(e));
}

std::string find_project_file(const std::string& from) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::absolute(from.empty() ? fs::current_path(ec) : fs::path(from), ec);
  for (; !dir.empty(); dir = dir.parent_path()) {
    fs::path f = dir / kProjectFile;
    if (fs::is_regular_file(f, ec)) return f.string();
    if (dir == dir.root_path()) break;
  }
  return "";
}

Targets choose_targets(const Args& a, const std::string& target) {
  Targets t{std::make_unique<Registry>(self_exe(), builtin_targets()), {}, "", ""};
  declare_builtin_deviations(*t.reg);
  if (a.all("--backends").empty()) {  // the project's declarations, but those --backend declares again
    t.project = find_project_file();
    if (!t.project.empty()) {
      std::vector<std::string> again;
      for (const std::string& b : a.all("--backend")) again.push_back(b.substr(0, b.find('=')));
      t.reg->add_project_file(t.project, again);
    }
  }
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
      throw InputError("--target",
                       "unknown target '" + name + "' (known: " + known + "all" +
                           (t.project.empty() ? "; no " + std::string(kProjectFile) + " found upward from here"
                                              : "; project file " + t.project) +
                           ")");
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
