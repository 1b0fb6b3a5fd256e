// runners/cli/cli.hpp: what the commands of `concord` share: the exit codes of
// --help, the option parser, number and duration parsing, the choice of targets,
// and one entry point per command.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runners/protocol/backends.hpp"

namespace concord {

// kNotClaimed: nothing was run, as the program (every case) uses what the target's
// declaration does not claim (runners/protocol/supports.hpp).
constexpr int kOk = 0, kDisagree = 1, kBadInput = 2, kInternal = 3, kNotClaimed = 4;

struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // --name value
  std::vector<std::string> flags;                            // --name

  bool flag(const std::string& f) const;
  const std::string* option(const std::string& o) const;
  std::vector<std::string> all(const std::string& o) const;  // a repeatable option, in order
};

// argv[2..]: options of `with_value` take a value (--o v or --o=v), `known_flags`
// take none; anything else starting with -- is an InputError.
Args parse_args(int argc, char** argv, const std::vector<std::string>& with_value,
                const std::vector<std::string>& known_flags);

uint64_t parse_u64(const std::string& s, const std::string& what);  // decimal or 0x-hex
int64_t parse_i64(const std::string& s, const std::string& what);   // 0..INT64_MAX
double parse_seconds(const std::string& s, const std::string& what);
// A duration: "90", "90s", "15m", "8h", "1d" (seconds when no unit).
double parse_duration(const std::string& s, const std::string& what);
std::string one_file(const Args& a, const char* cmd);
// --shard "i/N" with 0 <= i < N.
void parse_shard(const std::string& s, uint64_t& index, uint64_t& count);
// A campaign's Ctrl-C and SIGTERM (campaign_stop.cpp): the flag they set, for the
// campaign to finish its cases and stop; a second one ends the process at once, after
// the cleanup of runners/process/cleanup.hpp.
const std::atomic<bool>& install_stop_handlers();
bool is_case_file(const std::string& path);

// The backends that --target names (one, or all), with the user backends of
// --backend / --backends and the --timeout override. Without --backends, the
// project file, concord.json in the working directory or the nearest folder above
// it, declares backends as a --backends FILE would (its ./ and ../ command words
// from its folder); a --backend NAME that it declares too replaces its NAME.
struct Targets {
  std::unique_ptr<Registry> reg;
  std::vector<const BackendSpec*> chosen;
  std::string declared;  // the options that declare user backends, for reproduce lines
  std::string project;   // the project file read, "" when none
};
constexpr const char* kProjectFile = "concord.json";
// The project file: `from` (default: the working directory) or the nearest folder
// above it that holds a concord.json; "" when none does.
std::string find_project_file(const std::string& from = "");
Targets choose_targets(const Args& a, const std::string& target);
// The built-in targets' declared deviations (targets/<name>/deviations.json) set on `r`.
void declare_builtin_deviations(Registry& r);
// What `concord fuzz --profile P` runs without --target: every backend of `all`
// but the built-in targets left out of P's default campaign (targets/targets.hpp).
void keep_default_campaign(Targets& t, const std::string& profile);
// The chosen targets but the oracle, which the commands that compare with it run
// in-process; InputError when none is left.
std::vector<BackendSpec> compared_targets(const Targets& t);

int cmd_check(int argc, char** argv);
int cmd_run(int argc, char** argv);
int cmd_check_trace(int argc, char** argv);
int cmd_backend(int argc, char** argv);
int cmd_backend_check(int argc, char** argv);
int cmd_emit_c(int argc, char** argv);
int cmd_emit_erlang(int argc, char** argv);
int cmd_emit_js(int argc, char** argv);
int cmd_emit_elixir(int argc, char** argv);
int cmd_corpus(int argc, char** argv);
int corpus_free(const Args& a);  // `concord corpus --mode free` (cmd_corpus_free.cpp)
int cmd_gen(int argc, char** argv);
int cmd_fuzz(int argc, char** argv);
int cmd_fuzz_free(int argc, char** argv);
int cmd_shrink(int argc, char** argv);
int cmd_mutants(int argc, char** argv);
int cmd_triage(int argc, char** argv);
int cmd_report(int argc, char** argv);
int cmd_export(int argc, char** argv);
int cmd_buckets(int argc, char** argv);
int cmd_dialects(int argc, char** argv);
int cmd_conformance(int argc, char** argv);

}  // namespace concord
