// targets/common/build_paths.hpp: where this build put things, as absolute paths
// (the fallbacks of install_paths.hpp's runtime_path, and what the tests run).
// They are defined in one file CMake generates into the build tree
// (build_paths.cpp.in), not passed as -D flags: ccache hashes a -D value as it is,
// so a path in a flag made every file built with it miss the cache in a clone at
// another path (CI's); now only the generated file does.
#pragma once

namespace concord::build_paths {

extern const char source_dir[];          // the source tree
extern const char concord_binary[];      // the concord executable of this build
extern const char spec_md[];             // spec/SPEC.md
extern const char c_runtime_include[];   // targets/c/runtime (sources and headers)
extern const char c_runtime_lib[];       // libconcord_rt.a
extern const char c_runtime_free_lib[];  // libconcord_rt_free.a (free runs, SPEC §25)
extern const char erlang_ebin[];         // <build>/targets/erlang/ebin
extern const char erlang_runtime_src[];  // targets/erlang/runtime
extern const char elixir_ebin[];         // <build>/targets/elixir/ebin
extern const char elixir_runtime_src[];  // targets/elixir/runtime
extern const char js_runtime[];          // <build>/targets/js/runtime (the copy host.js runs from)
extern const char js_runtime_src[];      // targets/js/runtime

}  // namespace concord::build_paths
