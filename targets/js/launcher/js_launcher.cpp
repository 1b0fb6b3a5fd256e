// targets/js/launcher/js_launcher.cpp: `concord backend js`: the js target's node,
// a FramedRuntime (targets/common/framed_runtime.hpp) running targets/js/runtime/host.js.
#include "js_launcher.hpp"
#include "targets/common/build_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "runners/protocol/backends.hpp"
#include "targets/common/install_paths.hpp"

namespace concord {

JsTargetConfig js_config_from_env(const std::string& default_runtime) {
  JsTargetConfig cfg;
  if (const char* node = std::getenv("CONCORD_NODE"); node && *node) cfg.node = split_command(node);
  const char* runtime = std::getenv("CONCORD_JS_RUNTIME");
  cfg.runtime = runtime && *runtime ? runtime : default_runtime;
  return cfg;
}

std::vector<std::string> js_node_command(const JsTargetConfig& cfg) {
  std::vector<std::string> argv = {cfg.node.at(0)};
  // --expose-gc: the host collects before it decides that a run is out of memory.
  argv.push_back("--expose-gc");
  if (cfg.heap_mb > 0) argv.push_back("--max-old-space-size=" + std::to_string(cfg.heap_mb));
  argv.insert(argv.end(), cfg.node.begin() + 1, cfg.node.end());
  // Absolute: the node runs in its own temporary directory.
  argv.push_back((std::filesystem::absolute(cfg.runtime) / "host.js").string());
  return argv;
}

FramedRuntimeConfig js_runtime_config(const JsTargetConfig& cfg) {
  FramedRuntimeConfig f;
  f.target = "js";
  f.who = "node";
  f.emit = cfg.emit;
  f.run_timeout = cfg.run_timeout;
  f.request_timeout = cfg.request_timeout;
  // V8's last words when its heap is full, and when the address space ran out.
  f.memory_markers = {"JavaScript heap out of memory", "Fatal process out of memory", "Cannot allocate"};
  f.start_hint = "$CONCORD_NODE names the interpreter, default node";
  f.ready_line = "concord ready";  // the runtime says it is up before its first frame
  f.command = [cfg](const std::string& tmpdir) {
    // Checked here because node itself would only print "Cannot find module" on stderr.
    if (!std::filesystem::exists(std::filesystem::path(cfg.runtime) / "host.js"))
      throw std::runtime_error("no host.js in " + cfg.runtime +
                               " (the build copies targets/js/runtime there; $CONCORD_JS_RUNTIME overrides the "
                               "directory)");
    return Command{js_node_command(cfg), {{"TMPDIR", tmpdir}}, tmpdir, Limits{0, cfg.address_space_bytes}};
  };
  return f;
}

std::string js_runtime_dir() { return runtime_path("js/runtime-src", build_paths::js_runtime_src); }

int serve_js(const LaunchOptions& o) {
  JsTargetConfig cfg = js_config_from_env(runtime_path("js/runtime", build_paths::js_runtime));
  if (o.run_timeout) cfg.run_timeout = *o.run_timeout;
  FramedRuntime node(js_runtime_config(cfg));
  serve(std::cin, std::cout, [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
    node.answer(prog, runs, emit);
  });
  return 0;
}

}  // namespace concord
