// runners/protocol/backends.hpp: the registry of backends by name. Built-ins: `oracle` and
// the targets of targets/targets.hpp, each the concord binary itself (`concord
// backend NAME`); user backends from `--backend NAME=COMMAND` and from a
// `--backends FILE` (runners/PROTOCOL.md, "Declaring a backend").
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"

namespace concord {

// Splits a command line into words as a POSIX shell would, without running one:
// blanks separate words; '...' is literal; "..." keeps \" \\ \$ \` escapes; a
// backslash outside quotes escapes the next character. No expansion of any kind.
// Throws InputError on an unterminated quote or an empty command.
std::vector<std::string> split_command(const std::string& line);
// The other way: one word quoted so that a shell (and split_command) reads it back
// as it is; plain words are left bare, for readable reproduce lines.
std::string shell_quote(const std::string& s);

// The running executable (/proc/self/exe), for the built-ins.
std::string self_exe();

class Registry {
 public:
  // `targets`: the built-in targets to register after the oracle, each served by
  // `concord_exe backend NAME` (targets/targets.hpp has the list).
  Registry(const std::string& concord_exe, const std::vector<std::string>& targets);

  void add(BackendSpec spec);                           // InputError: bad or taken name, no command
  void add_option(const std::string& name_eq_command);  // --backend NAME=COMMAND
  void add_file(const std::string& path);               // --backends FILE
  // A project file, concord.json (runners/cli/targets.cpp): as a --backends FILE,
  // but a command word that begins with ./ or ../ is a path from the file's folder,
  // and the backends named in `except` (declared again on the command line) are left out.
  void add_project_file(const std::string& path, const std::vector<std::string>& except);
  void set_timeout(double seconds);  // --timeout: every backend's run and request timeouts
  void set_deviations(const std::string& name, std::vector<Deviation> ds);  // a built-in's, from its folder

  const BackendSpec* find(const std::string& name) const;
  const std::vector<BackendSpec>& all() const { return specs_; }  // built-ins first, then in declaration order
  bool is_builtin(const std::string& name) const;

 private:
  void add_project_file(const std::string& path, const std::vector<std::string>& except, bool project);

  std::vector<BackendSpec> specs_;
  size_t builtins_ = 0;
};

}  // namespace concord
