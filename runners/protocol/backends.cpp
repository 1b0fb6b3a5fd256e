// runners/protocol/backends.cpp: backend names, command splitting and the config file.
#include "backends.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "oracle/error.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

bool good_name(const std::string& n) {
  if (n.empty() || n.size() > 32 || n == "all") return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

double seconds_at(const ojson& j, const std::string& where) {
  if (!j.is_number() || !(j.get<double>() > 0) || !std::isfinite(j.get<double>()))
    throw InputError(where, "expected a positive number of seconds");
  return j.get<double>();
}

int64_t count_at(const ojson& j, const std::string& where) {
  if (!j.is_number_unsigned()) throw InputError(where, "expected a non-negative integer");
  return static_cast<int64_t>(std::min<uint64_t>(j.get<uint64_t>(), INT64_MAX));
}

BackendSpec spec_from_json(const std::string& name, const ojson& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where, "a backend is an object with a \"command\"");
  BackendSpec s;
  s.name = name;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const ojson& v = it.value();
    std::string at = where + "/" + k;
    if (k == "command") {
      if (v.is_string()) {
        s.command = split_command(v.get<std::string>());
      } else if (v.is_array() && !v.empty() &&
                 std::all_of(v.begin(), v.end(), [](const ojson& w) { return w.is_string(); })) {
        for (const ojson& w : v) s.command.push_back(w.get<std::string>());
      } else {
        throw InputError(at, "expected a non-empty array of strings (or one command line)");
      }
    } else if (k == "run_timeout") {
      s.run_timeout = seconds_at(v, at);
      s.timeouts_given = true;
    } else if (k == "request_timeout") {
      s.request_timeout = seconds_at(v, at);
      s.timeouts_given = true;
    } else if (k == "cpu_seconds") {
      s.limits.cpu_seconds = count_at(v, at);
    } else if (k == "address_space_bytes") {
      s.limits.address_space_bytes = count_at(v, at);
    } else if (k == "deviations") {
      s.deviations = parse_deviations(v, at);
    } else if (k == "supports") {
      s.supports = parse_supports(v, at);
    } else if (k == "env") {
      if (!v.is_object()) throw InputError(at, "expected an object of strings");
      for (auto e = v.begin(); e != v.end(); ++e) {
        if (!e.value().is_string()) throw InputError(at + "/" + e.key(), "expected a string");
        s.env.emplace_back(e.key(), e.value().get<std::string>());
      }
    } else {
      throw InputError(at, "unknown key '" + k + "'");
    }
  }
  if (s.command.empty()) throw InputError(where, "a backend needs a \"command\"");
  return s;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-=:,+@", c);
  });
  if (plain) return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> split_command(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); i++) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::exchange(w, {}));
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i < line.size() && line[i] != '\n') w += line[i];
    } else if (c == '\'') {
      size_t end = line.find('\'', i + 1);
      if (end == std::string::npos) throw InputError("", "unterminated ' in command: " + line);
      w.append(line, i + 1, end - i - 1);
      i = end;
    } else if (c == '"') {
      for (i++;; i++) {
        if (i >= line.size()) throw InputError("", "unterminated \" in command: " + line);
        if (line[i] == '"') break;
        if (line[i] == '\\' && i + 1 < line.size() &&
            std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos)
          i++;
        w += line[i];
      }
    } else {
      w += c;
    }
  }
  if (in_word) words.push_back(w);
  if (words.empty()) throw InputError("", "empty command");
  return words;
}

std::string self_exe() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the concord executable (/proc/self/exe): " + ec.message());
  return p.string();
}

Registry::Registry(const std::string& concord_exe, const std::vector<std::string>& targets) {
  BackendSpec oracle;
  oracle.name = "oracle";
  oracle.command = {concord_exe, "backend", "oracle"};
  specs_.push_back(oracle);
  for (const std::string& name : targets) {
    BackendSpec t;
    t.name = name;
    t.command = {concord_exe, "backend", name};
    // Built-ins time themselves well inside these (their own run timeouts are 30 s),
    // so that a hung program costs an answer, not the backend: the first run of a
    // program also includes compiling it (c) or starting a node and compiling the
    // module (erlang).
    t.run_timeout = 60;
    t.request_timeout = 300;
    specs_.push_back(t);
  }
  builtins_ = specs_.size();
}

void Registry::add(BackendSpec spec) {
  if (!good_name(spec.name))
    throw InputError("", "bad backend name '" + spec.name + "' (1..32 of A-Z a-z 0-9 _ - ., not 'all')");
  if (find(spec.name))
    throw InputError("", "backend '" + spec.name + "' is declared twice" +
                             (is_builtin(spec.name) ? std::string(" (it is built in)") : std::string()));
  if (spec.command.empty()) throw InputError("", "backend '" + spec.name + "' has no command");
  specs_.push_back(std::move(spec));
}

void Registry::add_option(const std::string& name_eq_command) {
  size_t eq = name_eq_command.find('=');
  if (eq == std::string::npos) throw InputError("", "--backend expects NAME=COMMAND, got '" + name_eq_command + "'");
  BackendSpec s;
  s.name = name_eq_command.substr(0, eq);
  s.command = split_command(name_eq_command.substr(eq + 1));
  add(std::move(s));
}

void Registry::add_file(const std::string& path) { add_project_file(path, {}, false); }

void Registry::add_project_file(const std::string& path, const std::vector<std::string>& except) {
  add_project_file(path, except, true);
}

void Registry::add_project_file(const std::string& path, const std::vector<std::string>& except, bool project) {
  ojson j = read_json_file(path);
  std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  try {
    if (!j.is_object() || j.size() != 1 || !j.contains("backends") || !j["backends"].is_object())
      throw InputError("/", "expected {\"backends\":{NAME:{\"command\":[...]},...}}");
    for (auto it = j["backends"].begin(); it != j["backends"].end(); ++it) {
      BackendSpec s = spec_from_json(it.key(), it.value(), "/backends/" + it.key());
      if (std::find(except.begin(), except.end(), s.name) != except.end()) continue;
      if (project)
        for (std::string& w : s.command)
          if (w.starts_with("./") || w.starts_with("../")) w = (folder / w).lexically_normal().string();
      add(std::move(s));
    }
  } catch (const InputError& e) {
    throw InputError(path + (e.where.empty() ? "" : ": " + e.where), e.what_is_wrong);
  }
}

void Registry::set_deviations(const std::string& name, std::vector<Deviation> ds) {
  for (BackendSpec& s : specs_)
    if (s.name == name) s.deviations = std::move(ds);
}

void Registry::set_timeout(double seconds) {
  for (BackendSpec& s : specs_) {
    s.run_timeout = s.request_timeout = seconds;
    s.timeouts_given = true;
  }
}

const BackendSpec* Registry::find(const std::string& name) const {
  for (const BackendSpec& s : specs_)
    if (s.name == name) return &s;
  return nullptr;
}

bool Registry::is_builtin(const std::string& name) const {
  for (size_t i = 0; i < builtins_; i++)
    if (specs_[i].name == name) return true;
  return false;
}

}  // namespace concord
