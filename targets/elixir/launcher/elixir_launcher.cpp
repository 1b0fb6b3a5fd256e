// targets/elixir/launcher/elixir_launcher.cpp: `concord backend elixir`: the erlang
// target's node, given Elixir.
#include "elixir_launcher.hpp"
#include "targets/common/build_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "runners/protocol/backends.hpp"
#include "runners/protocol/serve.hpp"
#include "targets/common/install_paths.hpp"
#include "targets/elixir/emitter/emit_elixir.hpp"

namespace concord {
namespace fs = std::filesystem;

namespace {

// The first `name` on $PATH that is a regular file, or "".
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return "";
}

// The elixir runtime's ebin, with what it must hold.
std::string checked_runtime(const std::string& ebin) {
  for (const char* beam : {"concord_elixir.beam", "Elixir.Concord.Ops.beam"})
    if (!fs::exists(fs::path(ebin) / beam))
      throw std::runtime_error("no " + std::string(beam) + " in " + ebin +
                               " (built by the concord_elixir_rt target, which needs erlc and elixirc; "
                               "$CONCORD_ELIXIR_EBIN overrides the directory)");
  return ebin;
}

}  // namespace

std::string find_elixir_ebin() {
  const char* named = std::getenv("CONCORD_ELIXIR");
  std::string launcher = named && *named ? std::string(named) : on_path("elixir");
  if (launcher.empty())
    throw std::runtime_error(
        "no `elixir` on PATH: the elixir target needs Elixir 1.14 (Debian package elixir, installed by "
        "scripts/setup.sh; $CONCORD_ELIXIR names the launcher)");
  std::error_code ec;
  fs::path real = fs::canonical(launcher, ec);
  if (ec) throw std::runtime_error("the elixir launcher " + launcher + " cannot be found: " + ec.message());
  fs::path ebin = real.parent_path().parent_path() / "lib" / "elixir" / "ebin";
  if (!fs::exists(ebin / "Elixir.Code.beam"))
    throw std::runtime_error("no Elixir.Code.beam in " + ebin.string() + " (Elixir's compiler, beside the launcher " +
                             real.string() + ")");
  return ebin.string();
}

ErlangTargetConfig elixir_config_from_env(const std::string& erlang_ebin, const std::string& elixir_ebin) {
  ErlangTargetConfig cfg = erlang_config_from_env(erlang_ebin);
  cfg.name = "elixir";
  cfg.emit = [](const Program& p) { return emit_elixir(p); };
  cfg.emit_free = [](const Program& p) { return emit_elixir_free(p); };  // SPEC §25, README "Free runs"
  cfg.node_target = "concord_elixir";
  const char* own = std::getenv("CONCORD_ELIXIR_EBIN");
  std::string runtime = own && *own ? own : elixir_ebin;
  cfg.code_paths = [runtime] { return std::vector<std::string>{find_elixir_ebin(), checked_runtime(runtime)}; };
  return cfg;
}

const char* elixir_deviations() {
  return
#include "elixir_deviations.inc"
      ;
}

std::string elixir_runtime_dir() { return runtime_path("elixir/runtime", build_paths::elixir_runtime_src); }

int serve_elixir(const LaunchOptions& o) {
  ErlangTargetConfig cfg = elixir_config_from_env(runtime_path("erlang/ebin", build_paths::erlang_ebin),
                                                  runtime_path("elixir/ebin", build_paths::elixir_ebin));
  if (o.run_timeout) cfg.run_timeout = *o.run_timeout;
  return serve_beam(cfg);
}

}  // namespace concord
