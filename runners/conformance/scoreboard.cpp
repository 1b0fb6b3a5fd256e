// runners/conformance/scoreboard.cpp: the conformance table of scoreboard.hpp.
#include "runners/conformance/scoreboard.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/process/files.hpp"
#include "runners/protocol/load.hpp"
#include "runners/protocol/supports.hpp"

namespace concord {

namespace fs = std::filesystem;

std::vector<ScoreRow> score_rows() {
  std::vector<ScoreRow> rows = {{"§1-§13", "version 1", {}, {}}, {"§14-§15, §17, §22-§23", "version 2", {}, {}}};
  for (Feature f : all_features()) rows.push_back({feature_section(f), feature_name(f), {}, {}});
  return rows;
}

std::vector<size_t> rows_of(const Program& p) {
  std::vector<size_t> out = {p.version == 2 ? size_t{1} : size_t{0}};
  FeatureSet used = program_features(p);
  const std::vector<Feature>& all = all_features();
  for (size_t i = 0; i < all.size(); i++)
    if (used.has(all[i])) out.push_back(2 + i);
  return out;
}

namespace {

enum class Verdict { Pass, Deviation, Fail, Skip };

// One program: where it comes from and how it is run again.
struct Item {
  std::string source;     // the case file, or "PROFILE #i"
  std::string reproduce;  // the command
  std::string case_file;  // a hand case's file
  bool hand = false;
};

struct Scorer {
  const ScoreSettings& cfg;
  Differ differ;
  Scoreboard board;
  std::vector<std::string> names;                    // the targets', board.targets' order
  const std::vector<ScoreRow> kRows = score_rows();  // the rows' names, made once

  Scorer(const ScoreSettings& s, const std::vector<BackendSpec>& targets) : cfg(s), differ(targets) {
    board.settings = s;
    for (const BackendSpec& t : targets) {
      TargetScore ts;
      ts.target = t.name;
      ts.claims = describe(t.supports);
      ts.rows = score_rows();
      ts.total = {"", "all", {}, {}};
      board.targets.push_back(ts);
      names.push_back(t.name);
    }
  }

  static void count(Tally& t, Verdict v) {
    if (v == Verdict::Pass || v == Verdict::Deviation) t.pass++;
    if (v == Verdict::Deviation) t.deviation++;
    if (v == Verdict::Fail) t.fail++;
    if (v == Verdict::Skip) t.skip++;
  }

  // Runs one program on every target and tallies it. `store`: stores a generated
  // program that failed as a case and gives its file (called on its first failure).
  void judge(const Program& p, const std::vector<RunSettings>& runs, const Item& item,
             const std::function<std::string(const DiffOutcome&)>& store) {
    DiffOutcome o = differ.run(p, runs);
    std::vector<size_t> rows = rows_of(p);
    std::string row_names;
    for (size_t r : rows) row_names += (row_names.empty() ? "" : ", ") + kRows[r].what;
    std::string case_file = item.case_file;
    for (size_t t = 0; t < names.size(); t++) {
      const std::string& name = names[t];
      Verdict v = Verdict::Pass;
      std::string bucket;
      if (std::count(o.not_claimed.begin(), o.not_claimed.end(), name)) {
        v = Verdict::Skip;
      } else if (std::count(o.no_verdict.begin(), o.no_verdict.end(), name)) {
        v = Verdict::Fail;
        bucket = "no verdict (a timeout or crash that is no failure of the program's)";
      }
      for (const Divergence& d : o.divergences) {
        if (d.target != name || v == Verdict::Skip) continue;
        if (!d.deviation.empty()) {
          v = Verdict::Deviation;
        } else {
          v = Verdict::Fail;
          bucket = bucket_of(d);
        }
      }
      TargetScore& ts = board.targets[t];
      for (size_t r : rows) count(item.hand ? ts.rows[r].hand : ts.rows[r].generated, v);
      count(item.hand ? ts.total.hand : ts.total.generated, v);
      if (v != Verdict::Fail) continue;
      if (case_file.empty() && store) case_file = store(o);
      ts.failures.push_back(
          {item.source, item.reproduce + " --target " + name + cfg.declared, bucket, row_names, case_file, ""});
    }
  }
};

}  // namespace

Scoreboard score(const ScoreSettings& cfg, const std::vector<BackendSpec>& targets, const std::atomic<bool>* stop,
                 const std::function<void(const std::string&)>& progress) {
  auto start = std::chrono::steady_clock::now();
  Scorer s(cfg, targets);
  s.differ.set_hang_limits(kDetectHangs);
  auto stopping = [&] { return stop && stop->load(); };
  int done = 0;
  auto tick = [&] {
    if (++done % 25 == 0 && progress) progress(std::to_string(done) + " programs judged");
  };

  // A backend that cannot answer a trivial program would fail every program, each
  // slowly (restarted, located): said once, at the start.
  for (const BackendSpec& t : targets)
    if (!s.differ.health_check(t.name))
      throw InputError("--target", "backend " + t.name +
                                       " does not answer a trivial program (is its command right, "
                                       "from this folder?): concord backend-check " +
                                       t.name + " says more");
  // Every case is read before anything runs: an unreadable one is bad input, found at once.
  std::vector<Case> cases;
  for (const std::string& dir : cfg.corpus_dirs)
    for (const std::string& f : find_cases(dir)) cases.push_back(load_case(f));
  for (const Case& c : cases) {
    if (stopping()) break;
    std::vector<RunSettings> runs;
    for (const CaseRun& r : c.runs) runs.push_back(r.settings);
    Item item{c.path, "concord run " + shell_quote(c.path), c.path, true};
    s.judge(c.program, runs, item, {});
    s.board.hand_cases++;
    tick();
  }

  for (const std::string& profile : cfg.profiles) {
    const gen::Profile& prof = gen::profile_named(profile);
    for (int i = 0; i < cfg.programs && !stopping(); i++) {
      uint64_t pseed = case_seed(cfg.seed, static_cast<uint64_t>(i));
      Program p = gen::generate_program(pseed, prof);
      std::vector<RunSettings> runs = gen::generate_runs(pseed, prof, cfg.runs);
      Item item{profile + " #" + std::to_string(i),
                "concord fuzz --seed " + std::to_string(cfg.seed) + " --profile " + profile + " --seeds-per-program " +
                    std::to_string(cfg.runs) + " --case " + std::to_string(i),
                "", false};
      auto store = [&](const DiffOutcome& o) -> std::string {
        if (cfg.out.empty()) return "";
        NewCase nc;
        nc.about = "found by concord conformance (seed " + std::to_string(cfg.seed) + ", profile " + profile +
                   ", program " + std::to_string(i) + "); not shrunk: concord shrink it";
        nc.program = program_to_json(p);
        for (size_t r = 0; r < runs.size(); r++) nc.runs.push_back(CaseRun{runs[r], o.oracle[r].json});
        nc.signature = o.signature;
        nc.detail = o.detail;
        nc.found = ojson{{"campaign_seed", cfg.seed},
                         {"case", i},
                         {"program_seed", pseed},
                         {"profile", profile},
                         {"generator_version", gen::kGeneratorVersion},
                         {"seeds_per_program", cfg.runs},
                         {"reproduce", item.reproduce}};
        try {
          return store_case((fs::path(cfg.out) / "cases").string(), nc).path;
        } catch (const WriteError&) {
          return "";  // a full disk: the failure is still counted and listed
        }
      };
      s.judge(p, runs, item, store);
      s.board.generated_programs++;
      tick();
    }
  }
  s.board.stopped = stopping();
  s.board.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s.board;
}

}  // namespace concord
