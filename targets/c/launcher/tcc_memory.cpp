// targets/c/launcher/tcc_memory.cpp: compiling with libtcc in memory, and the entry
// into the embedded runtime's main() (targets/c/launcher/tcc_memory.hpp).
#include "tcc_memory.hpp"

#include <cstring>
#include <filesystem>
#include <mutex>

#ifdef CONCORD_HAVE_LIBTCC
#include <libtcc.h>

// The embedded runtime (concord_rt_embedded): rt_main.c's main() under another name,
// which runs the program `concord_rt_program` points to; and the runtime's functions
// that emitted code calls (concord_rt.h, "effects"). Only their addresses are taken
// here, so their C signatures need not be spelt out.
extern "C" {
const void* concord_rt_program = nullptr;
int concord_rt_main(void);
void cr_send();
void cr_spawn();
void cr_stop();
void cr_fail();
void cr_div_zero();
// version 2 (SPEC §14-§23)
void cr_send2();
void cr_spawn2();
void cr_stop_reason();
void cr_ignore();
void cr_link();
void cr_unlink();
void cr_monitor();
void cr_demonitor();
void cr_trap_exit();
void cr_exit();
void cr_call();
void cr_reply();
void cr_api();
}
#endif

namespace concord {

#ifdef CONCORD_HAVE_LIBTCC

bool tcc_memory_available() {
  static const bool ok = std::filesystem::exists(std::filesystem::path(CONCORD_TCC_DIR) / "include" / "stddef.h");
  return ok;
}

std::unique_ptr<TccProgram> TccProgram::compile(const std::string& c_text, const std::string& rt_include,
                                                const std::vector<std::pair<std::string, std::string>>& defines,
                                                std::string& error) {
  static std::mutex mu;  // libtcc 0.9.27 keeps compiler state in globals
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<TccProgram> p(new TccProgram);
  TCCState* s = tcc_new();
  if (!s) {
    error = "libtcc: tcc_new failed";
    return nullptr;
  }
  p->state_ = s;
  tcc_set_error_func(s, &error, [](void* out, const char* msg) {
    auto& e = *static_cast<std::string*>(out);
    if (e.size() < 4000) e += std::string(e.empty() ? "" : "\n") + msg;
  });
  tcc_set_lib_path(s, CONCORD_TCC_DIR);
  // No libc or libtcc1.a to link: the program calls the runtime, and tcc's own
  // helpers for structure copies come from the launcher's libc below.
  tcc_set_options(s, "-nostdlib");
  tcc_add_include_path(s, rt_include.c_str());
  for (const auto& [name, value] : defines) tcc_define_symbol(s, name.c_str(), value.c_str());
  tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
  if (tcc_compile_string(s, c_text.c_str()) != 0) {
    if (error.empty()) error = "libtcc: compile failed";
    return nullptr;
  }
  const std::pair<const char*, void*> symbols[] = {
      {"cr_send", reinterpret_cast<void*>(&cr_send)},
      {"cr_spawn", reinterpret_cast<void*>(&cr_spawn)},
      {"cr_stop", reinterpret_cast<void*>(&cr_stop)},
      {"cr_fail", reinterpret_cast<void*>(&cr_fail)},
      {"cr_div_zero", reinterpret_cast<void*>(&cr_div_zero)},
      {"memset", reinterpret_cast<void*>(&std::memset)},
      {"memcpy", reinterpret_cast<void*>(&std::memcpy)},
      {"memmove", reinterpret_cast<void*>(&std::memmove)},
      {"cr_send2", reinterpret_cast<void*>(&cr_send2)},
      {"cr_spawn2", reinterpret_cast<void*>(&cr_spawn2)},
      {"cr_stop_reason", reinterpret_cast<void*>(&cr_stop_reason)},
      {"cr_ignore", reinterpret_cast<void*>(&cr_ignore)},
      {"cr_link", reinterpret_cast<void*>(&cr_link)},
      {"cr_unlink", reinterpret_cast<void*>(&cr_unlink)},
      {"cr_monitor", reinterpret_cast<void*>(&cr_monitor)},
      {"cr_demonitor", reinterpret_cast<void*>(&cr_demonitor)},
      {"cr_trap_exit", reinterpret_cast<void*>(&cr_trap_exit)},
      {"cr_exit", reinterpret_cast<void*>(&cr_exit)},
      {"cr_call", reinterpret_cast<void*>(&cr_call)},
      {"cr_reply", reinterpret_cast<void*>(&cr_reply)},
      {"cr_api", reinterpret_cast<void*>(&cr_api)},
  };
  for (const auto& [name, address] : symbols) tcc_add_symbol(s, name, address);
  if (tcc_relocate(s, TCC_RELOCATE_AUTO) < 0) {
    if (error.empty()) error = "libtcc: relocation failed";
    return nullptr;
  }
  p->program_ = tcc_get_symbol(s, "cr_the_program");
  if (!p->program_) {
    error = "libtcc: the program defines no cr_the_program";
    return nullptr;
  }
  return p;
}

TccProgram::~TccProgram() {
  if (state_) tcc_delete(static_cast<TCCState*>(state_));
}

int TccProgram::run_main() const {
  concord_rt_program = program_;
  return concord_rt_main();
}

#else

bool tcc_memory_available() { return false; }

std::unique_ptr<TccProgram> TccProgram::compile(const std::string&, const std::string&,
                                                const std::vector<std::pair<std::string, std::string>>&,
                                                std::string& error) {
  error = "built without libtcc";
  return nullptr;
}

TccProgram::~TccProgram() = default;

int TccProgram::run_main() const { return 1; }

#endif

}  // namespace concord
