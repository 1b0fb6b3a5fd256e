// targets/c/launcher/c_launcher.cpp: compile-and-run for the c target. The compiled program is
// a harness-supervised subprocess like any backend: its faults become TIMEOUT,
// CRASH or BAD_OUTPUT lines through collect_answers().
#include "c_launcher.hpp"
#include "targets/common/build_paths.hpp"

#include <boost/process/search_path.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "oracle/interpreter.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/backends.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/common/install_paths.hpp"
#include "targets/common/unsupported.hpp"

namespace concord {
namespace {

std::string first_lines(const std::string& text, int lines) {
  size_t end = 0;
  for (int i = 0; i < lines && end < text.size(); i++) {
    size_t nl = text.find('\n', end);
    end = nl == std::string::npos ? text.size() : nl + 1;
  }
  std::string head = text.substr(0, end);
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  return head.size() > 2000 ? head.substr(0, 2000) + "..." : head;
}

}  // namespace

bool CTarget::compile_process(const std::string& c_text, Build& b, std::string& error) {
  b.dir = std::make_unique<TempDir>("concord-c");
  std::ofstream(b.dir->path() + "/prog.c", std::ios::binary) << c_text;
  Command cc{cfg_.cc, {}, b.dir->path(), {}};
  for (std::string w :
       {"-I" + cfg_.rt_include, std::string("prog.c"), cfg_.rt_lib, std::string("-o"), std::string("prog")})
    cc.argv.push_back(w);
  for (const std::string& w : cfg_.link_flags) cc.argv.push_back(w);
  try {
    CommandResult r = run_command(cc, "", cfg_.compile_timeout);
    if (r.timed_out) {
      error = "cc failed: no result within " + std::to_string(cfg_.compile_timeout) + " s";
      return false;
    }
    if (r.status.signaled || r.status.code != 0) {
      error = "cc failed: " + first_lines(r.err + r.out, 12) + " (" + r.status.describe() + ")";
      return false;
    }
  } catch (const SubprocessError& e) {
    error = std::string("cc failed: ") + e.what();
    return false;
  }
  b.binary = b.dir->path() + "/prog";
  return true;
}

CTarget::CTarget(CTargetConfig cfg) : cfg_(std::move(cfg)) {
  if (cfg_.in_memory) forks_ = std::make_unique<ForkServer>(ForkServerSetup{cfg_.rt_include, cfg_.defines});
}

const CTarget::Build* CTarget::build(std::string c_text, std::string& error) {
  size_t hash = std::hash<std::string>{}(c_text);
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->hash == hash && it->c_text == c_text) {
      cache_.splice(cache_.begin(), cache_, it);
      return &cache_.front();
    }
  Build b;
  if (!compile_process(c_text, b, error)) return nullptr;
  b.c_text = std::move(c_text);
  b.hash = hash;
  cache_.push_front(std::move(b));
  while (cache_.size() > cfg_.cache_size) cache_.pop_back();
  return &cache_.front();
}

void CTarget::run(const Program& p, const Build* b, const std::string& c_text, const std::vector<RunRequest>& runs,
                  const Emit& emit) {
  std::vector<RunSettings> good;
  std::vector<size_t> index;  // good run -> its place in `runs`
  std::string input;
  for (size_t i = 0; i < runs.size(); i++)
    if (runs[i].bad.empty()) {
      const RunSettings& s = runs[i].settings;
      good.push_back(s);
      index.push_back(i);
      input += std::to_string(s.seed) + " " + std::to_string(s.turns) + " " + std::to_string(s.max_processes) + "\n";
    }
  size_t next = 0;  // the next run of `runs` to answer
  auto answer_bad_until = [&](size_t end) {
    for (; next < end; next++) emit(error_line("BAD_REQUEST", runs[next].bad));
  };
  if (!good.empty()) {
    Limits limits{static_cast<int64_t>(std::ceil(cfg_.request_timeout)) + 1, cfg_.address_space_bytes};
    Deadline request_deadline = deadline_after(cfg_.request_timeout);
    std::vector<size_t> bounds;
    for (const RunSettings& s : good) bounds.push_back(answer_bytes_bound(p, s, cfg_.mode));
    try {
      if (!b) {
        std::unique_ptr<ForkedProgram> prog = forks_->start(c_text, input, limits, request_deadline);
        bool healthy = collect_answers(
            *prog, "c: compiled program", good, cfg_.run_timeout, request_deadline, bounds, [&](size_t k, Answer a) {
              answer_bad_until(index[k]);
              emit(prog->compile_error()
                       ? error_line("INTERNAL", "cc failed: " + first_lines(*prog->compile_error(), 12) + " (libtcc)")
                       : a.line + "\n");
              next++;
            });
        if (healthy)
          prog->finish(deadline_after(1.0));
        else
          prog->kill();  // hung, or talking nonsense: not worth a second
      } else {
        Subprocess prog(Command{{b->binary}, cfg_.env, b->dir->path(), limits});
        prog.write(input, request_deadline);  // small; a failure shows up as EOF below
        prog.close_stdin();
        collect_answers(
            prog, "c: compiled program", good, cfg_.run_timeout, request_deadline, bounds,
            [&](size_t k, Answer a) {
              answer_bad_until(index[k]);
              emit(a.line + "\n");
              next++;
            },
            cfg_.mode);
        prog.wait_until(deadline_after(1.0));  // then ~Subprocess kills what is left
      }
    } catch (const SubprocessError& e) {
      for (; next < runs.size(); next++)
        emit(runs[next].bad.empty() ? error_line("INTERNAL", std::string("c: ") + e.what())
                                    : error_line("BAD_REQUEST", runs[next].bad));
    }
  }
  answer_bad_until(runs.size());
}

void CTarget::answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit) {
  std::string error;
  const Build* b = nullptr;
  std::string code = "INTERNAL";
  std::string c_text;
  try {
    c_text = cfg_.emit(p);
    if (!cfg_.in_memory) b = build(c_text, error);
  } catch (const Unsupported& e) {  // e.g. a version 2 program: not implemented yet (SPEC §10)
    code = "UNSUPPORTED";
    error = e.what();
  } catch (const std::exception& e) {
    error = std::string("emit_c: ") + e.what();
  }
  if (!error.empty() || (!b && !cfg_.in_memory)) {
    for (const RunRequest& r : runs) emit(r.bad.empty() ? error_line(code, error) : error_line("BAD_REQUEST", r.bad));
    return;
  }
  run(p, b, c_text, runs, emit);
}

std::string c_runtime_dir() { return runtime_path("c/runtime", build_paths::c_runtime_include); }

std::string default_c_compiler() {
  const char* cc = std::getenv("CONCORD_CC");
  if (cc && *cc) return cc;
#ifndef CONCORD_RT_SANITIZED
  if (!boost::process::search_path("tcc").empty()) return "tcc";
#endif
  return CONCORD_DEFAULT_CC;
}

CTargetConfig c_config_from_env() {
  CTargetConfig cfg;
  cfg.emit = [](const Program& prog) { return emit_c(prog); };
  cfg.rt_include = c_runtime_dir();
  const char* cc = std::getenv("CONCORD_CC");
  const char* rt_lib = std::getenv("CONCORD_RT_LIB");  // e.g. the sanitized runtime, for `ctest -L sanitize`
  cfg.in_memory = tcc_memory_available() && !(cc && *cc) && !(rt_lib && *rt_lib);
  cfg.cc = split_command(default_c_compiler());
#ifdef CONCORD_FAULT_CC_FLAG
  cfg.cc.push_back(CONCORD_FAULT_CC_FLAG);  // a build with a planted fault (CMake's CONCORD_FAULT)
  cfg.defines.emplace_back(std::string(CONCORD_FAULT_CC_FLAG).substr(2), "1");  // the same, for libtcc
#endif
  cfg.rt_lib = rt_lib && *rt_lib ? rt_lib : runtime_path("c/lib/libconcord_rt.a", build_paths::c_runtime_lib);
#ifdef CONCORD_RT_SANITIZED
  cfg.address_space_bytes = 0;  // ASan reserves terabytes of address space
#endif
  for (const std::string& w : cfg.cc)
    if (w.rfind("-fsanitize", 0) == 0) cfg.address_space_bytes = 0;  // likewise for a sanitizing $CONCORD_CC
  return cfg;
}

CTargetConfig c_free_config_from_env(int threads) {
  CTargetConfig cfg = c_config_from_env();
  cfg.mode = RunMode::Free;
  cfg.in_memory = false;
  cfg.defines.clear();
  const char* lib = std::getenv("CONCORD_RT_FREE_LIB");
  cfg.rt_lib = lib && *lib ? lib : runtime_path("c/lib/libconcord_rt_free.a", build_paths::c_runtime_free_lib);
  cfg.link_flags = {"-lpthread"};
  std::string file = lib && *lib ? std::string(lib) : "";
  file = file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1);
  if (file.find("tsan") != std::string::npos) {  // the ThreadSanitizer build (libconcord_rt_free_tsan*.a)
    cfg.cc = {"cc", "-g", "-fsanitize=thread"};
    cfg.address_space_bytes = 0;                                          // TSan maps its shadow memory over terabytes
    cfg.env.emplace_back("TSAN_OPTIONS", "halt_on_error=1 exitcode=66");  // a report is the run's CRASH
  }
  if (threads > 0) cfg.env.emplace_back("CONCORD_THREADS", std::to_string(threads));
  return cfg;
}

int serve_c(const LaunchOptions& o) {
  CTargetConfig cfg = c_config_from_env();
  CTargetConfig free_cfg = c_free_config_from_env(o.threads.value_or(0));
  if (o.run_timeout) cfg.run_timeout = free_cfg.run_timeout = *o.run_timeout;
  CTarget c(cfg);
  std::unique_ptr<CTarget> free;  // made at the first free request
  serve(
      std::cin, std::cout,
      [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) { c.answer(prog, runs, emit); },
      [&](const Program& prog, const std::vector<RunRequest>& runs, const Emit& emit) {
        if (!free) free = std::make_unique<CTarget>(free_cfg);
        free->answer(prog, runs, emit);
      });
  return 0;
}

}  // namespace concord
