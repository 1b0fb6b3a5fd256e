// targets/js/launcher/js_launcher.hpp: the `js` target behind the protocol (`concord
// backend js`): emit the program as JavaScript and send it, with the request's runs,
// as one frame to a persistent `node` process running the js runtime's host
// (targets/js/README.md), relaying its lines unchanged. The node is started at the
// first request and reused; one that dies, hangs or prints garbage is killed, its
// runs get CRASH, TIMEOUT or BAD_OUTPUT (MEMORY when V8 ran out of heap), and the
// next request starts a fresh one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "targets/common/framed_runtime.hpp"
#include "targets/js/emitter/emit_js.hpp"
#include "targets/launch.hpp"

namespace concord {

struct JsTargetConfig {
  std::function<std::string(const Program&)> emit = [](const Program& p) { return emit_js(p); };
  std::vector<std::string> node = {"node"};  // the interpreter, possibly with flags ($CONCORD_NODE split into words)
  std::string runtime;                       // the directory of host.js and the rest of the runtime
  // V8's old-space limit. The host gives up a run with MEMORY when its heap stays
  // above 3/4 of the limit after a full collection (memory.js), long before V8 would
  // thrash and abort. 0: node's default.
  int64_t heap_mb = 3072;
  double run_timeout = 30;  // per run; run 0 includes loading the program
  double request_timeout = 240;
  // RLIMIT_AS of the node, for what lives outside V8's heap (buffers, code, stacks):
  // a program that allocates without end costs its request, not the machine. 0: none.
  int64_t address_space_bytes = int64_t{8} << 30;
};

// The configuration of `concord backend js`: $CONCORD_NODE (default "node", split into
// words like a shell would) and $CONCORD_JS_RUNTIME (default `default_runtime`, the
// build's copy of targets/js/runtime).
JsTargetConfig js_config_from_env(const std::string& default_runtime);

// The node's command line: the interpreter, our flags, its own words (so that
// CONCORD_NODE='node --max-old-space-size=512' overrides), then host.js.
std::vector<std::string> js_node_command(const JsTargetConfig& cfg);

// The FramedRuntime configuration that runs `cfg`.
FramedRuntimeConfig js_runtime_config(const JsTargetConfig& cfg);

// The js runtime's sources (targets/js/runtime, or its installed copy): what
// `concord mutants` plants faults in. The run directory is the build's copy.
std::string js_runtime_dir();

// `concord backend js`: serves the protocol on stdin/stdout until EOF.
int serve_js(const LaunchOptions& o);

}  // namespace concord
