// runners/campaign/campaign.cpp: workers that take the next case index, generate, run on
// every target, compare; the confirmation, shrinking and storing of divergences.
#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/splitmix.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/process/heap.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/triage/rename_key.hpp"

namespace concord {

uint64_t case_seed(uint64_t campaign_seed, uint64_t index) {
  SplitMix64 g{campaign_seed ^ (index * 0xd1342543de82ef95ULL)};  // distinct streams per index
  g.next();
  return g.next();
}

bool campaign_case_at(uint64_t k, uint64_t cases, uint64_t shard_index, uint64_t shard_count,
                      const std::vector<uint64_t>& only, uint64_t& index) {
  if (!only.empty()) {
    if (k >= only.size()) return false;
    index = only[k];
    return true;
  }
  index = k * shard_count + shard_index;
  return cases == 0 || index < cases;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Flaky cases are all counted, the first ones listed: a target that is flaky all
// night must not fill the report.
constexpr uint64_t kFlakyListed = 20;

// Seconds between two returns of the free heap to the system (heap.hpp). One costs
// 0.1-27 ms, median 5 (measured in a 90 s campaign on every target), and holds each
// arena's lock meanwhile; a large program's results free tens of MiB.
constexpr double kTrimEvery = 5.0;

// What the workers share, behind one lock.
struct Shared {
  Shared(const CampaignConfig& c, const gen::Profile& p) : cfg(c), profile(p), start(Clock::now()) {}
  const CampaignConfig& cfg;
  const gen::Profile& profile;
  Clock::time_point start;
  std::atomic<uint64_t> next{0};  // the next position among this shard's cases
  std::atomic<bool> stop{false};
  std::mutex mu;
  CampaignReport report;
  std::set<std::string> known;                         // signatures in the corpus before the campaign
  std::set<std::string> claimed;                       // signatures found by this campaign
  std::map<std::string, std::string> merged_into;      // signature -> the bucket it joined (rename_key)
  RenamedBuckets renamed;                              // shrunk programs up to renaming -> their bucket
  std::vector<std::map<std::string, double>> seconds;  // per worker
  int shrinking = 0;

  bool interrupted() const { return cfg.interrupted && cfg.interrupted->load(); }
  bool done() const { return stop.load() || interrupted() || (cfg.seconds > 0 && since(start) >= cfg.seconds); }
  bool case_at(uint64_t k, uint64_t& index) const {
    return campaign_case_at(k, cfg.cases, cfg.shard_index, cfg.shard_count, cfg.only_cases, index);
  }
};

std::string reproduce_line(const CampaignConfig& cfg, uint64_t index) {
  return cfg.reproduce + " --case " + std::to_string(index);
}

// Did the target answer a run itself: a result, or a definite error that is not
// the harness's BAD_OUTPUT?
bool answered_itself(const std::vector<Answer>& answers) {
  return std::any_of(answers.begin(), answers.end(),
                     [](const Answer& a) { return a.ok() || (is_definite(a.code()) && a.code() != "BAD_OUTPUT"); });
}

bool has_failure(const std::vector<Divergence>& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const Divergence& d) { return is_failure_kind(d.kind); });
}

bool all_failures(const std::vector<Divergence>& ds) {
  return !ds.empty() && std::all_of(ds.begin(), ds.end(), [](const Divergence& d) { return is_failure_kind(d.kind); });
}

// The rerun that confirms a divergence (campaign.hpp, "Failures"): the targets
// that failed get fresh backend processes, which must pass the health check
// (`healthy` names those that did; `broken` is set, and nothing rerun, when one
// did not), and a hang gets twice the time.
struct Rerun {
  DiffOutcome outcome;
  std::vector<std::string> healthy;
  bool broken = false;
};

Rerun rerun(Differ& differ, const Program& p, const std::vector<RunSettings>& runs, const std::vector<Divergence>& ds,
            const std::string& signature) {
  Rerun r;
  for (const Divergence& d : ds) {
    if (!is_failure_kind(d.kind)) continue;
    differ.restart(d.target);
    if (!differ.health_check(d.target)) {
      r.broken = true;
      return r;
    }
    r.healthy.push_back(d.target);
  }
  HangLimits before = differ.hang_limits();
  if (has_failure(ds)) differ.set_hang_limits(kConfirmHangs);
  r.outcome = differ.run(p, runs, signature_targets(signature));
  differ.set_hang_limits(before);
  return r;
}

// Shrinks a confirmed divergence with this worker's differ: a candidate is
// interesting when the targets of the signature show the same signature on it,
// before failures are located (DiffOutcome::raw_signature: a candidate costs one
// request per target, not a bisection more); the shrunk case's failure is located
// after.
ShrinkResult shrink_divergence(Shared& sh, Differ& differ, const Program& p, const std::vector<RunSettings>& runs,
                               const std::string& signature) {
  std::vector<std::string> targets = signature_targets(signature);
  ShrinkOptions opt;
  opt.jobs = 1;  // the other workers keep the other cores busy
  opt.max_seconds = sh.cfg.shrink_seconds;
  opt.make_test = [&](int) -> InterestingFn {
    return [&](const ShrinkCase& c) {
      if (sh.interrupted()) return false;  // Ctrl-C: keep what is shrunk so far
      Program cand = program_from_json(c.program);
      check(cand);
      DiffOutcome o = differ.run(cand, c.runs, targets, false);
      // the same signature, or its operators narrowed (attribution.hpp refines); never
      // shrink into a known deviation
      return signature_refines(o.signature, signature) && !all_explained(o.divergences);
    };
  };
  HangLimits before = differ.hang_limits();
  // A candidate that still hangs costs this much: short limits, but only to shrink a
  // hang. Any other divergence keeps the campaign's, under which a target that
  // compiles each program slowly (elixir on a loaded machine) is not taken for hung.
  bool hangs = std::any_of(targets.begin(), targets.end(),
                           [&](const std::string& t) { return is_hang(signature_kind(signature, t)); });
  if (hangs) differ.set_hang_limits(kShrinkHangs);
  struct Restore {
    Differ& d;
    HangLimits h;
    ~Restore() { d.set_hang_limits(h); }
  } restore{differ, before};
  return shrink(ShrinkCase{program_to_json(p), runs}, opt);
}

// A shrunk failure, judged with short timeouts, must still fail on fresh backends
// with the confirmation's timeouts (a candidate merely slower than kShrinkHangs
// passes for a hang): its outcome there, or nullopt.
std::optional<DiffOutcome> still_fails(Differ& differ, const ShrinkCase& c, const std::vector<Divergence>& ds,
                                       const std::string& raw_signature) {
  Program p = program_from_json(c.program);
  check(p);
  Rerun r = rerun(differ, p, c.runs, ds, raw_signature);
  if (r.broken || r.outcome.raw_signature != raw_signature) return std::nullopt;
  return r.outcome;
}

void store_finding(Shared& sh, Finding& f, const ShrinkCase& c) {
  Program p = program_from_json(c.program);
  check(p);
  NewCase nc;
  nc.about = "found by concord fuzz (seed " + std::to_string(sh.cfg.seed) + ", case " + std::to_string(f.case_index) +
             ", profile " + sh.cfg.profile + "); " + (f.shrunk ? "shrunk" : "not shrunk") +
             "; the first difference: " + f.divergences[0].target + " at " + f.divergences[0].kind +
             (f.divergences[0].rule.empty() ? "" : " (" + f.divergences[0].rule + ")");
  nc.program = c.program;
  for (const RunSettings& r : c.runs) nc.runs.push_back(CaseRun{r, oracle_answer(p, r).json});
  nc.signature = f.signature;
  nc.detail = f.detail;
  nc.found = ojson{{"campaign_seed", sh.cfg.seed},
                   {"case", f.case_index},
                   {"program_seed", f.program_seed},
                   {"profile", sh.cfg.profile},
                   {"generator_version", gen::kGeneratorVersion},
                   {"seeds_per_program", sh.cfg.seeds_per_program},
                   {"reproduce", f.reproduce}};
  try {
    Stored s = store_case(sh.cfg.corpus_dir, nc);
    f.corpus_file = s.path;
    f.stored = s.written;
  } catch (const WriteError& e) {  // a full disk: keep the finding in the report, go on
    f.store_error = e.what();
  }
}

// A new finding whose shrunk program equals a stored finding's up to renaming is
// that finding's bucket: its hits move there, it is listed in the finding's
// `merged`, and it is neither stored nor counted as a signature. Called with the lock.
bool merge_renamed(Shared& sh, const Finding& f, const ShrinkCase& kept) {
  std::string bucket = sh.renamed.join(f.signature, program_from_json(kept.program));
  if (bucket == f.signature) return false;
  sh.merged_into[f.signature] = bucket;
  sh.report.hits[bucket] += sh.report.hits[f.signature];
  sh.report.hits.erase(f.signature);
  sh.report.totals.signatures--;
  for (Finding& first : sh.report.findings)
    if (first.signature == bucket && first.kind == Finding::Kind::kNew) first.merged.push_back(f.signature);
  return true;
}

// A finding whose shrunk case shows fewer operators (§5 mul add -> §5 mul) takes
// the shrunk case's signature: later cases of the found one count there. When
// another finding has that signature already, it is that finding's bucket (true).
// Called with the lock.
bool narrow(Shared& sh, Finding& f, const std::string& narrowed) {
  sh.merged_into[f.signature] = narrowed;
  sh.report.hits[narrowed] += sh.report.hits[f.signature];
  sh.report.hits.erase(f.signature);
  f.signature = narrowed;
  if (sh.known.count(narrowed)) {  // the corpus has it: a known divergence after all
    sh.report.totals.signatures--;
    f.kind = Finding::Kind::kKnown;
    sh.report.findings.push_back(std::move(f));
    return true;
  }
  if (sh.claimed.insert(narrowed).second) return false;
  sh.report.totals.signatures--;
  return true;  // a bucket of this campaign already (its hits counted there)
}

// The targets of `o` whose answers to a case that agreed or was explained change on
// a fresh backend (campaign.hpp): each answer again, compared byte for byte, or, for a
// run the target's deviations explained, explained again.
std::vector<Divergence> answers_that_change(const std::vector<BackendSpec>& specs, const Program& p,
                                            const std::vector<RunSettings>& runs, const DiffOutcome& o) {
  std::vector<Divergence> out;
  ojson program = program_to_json(p);
  for (const TargetAnswers& t : o.targets) {
    if (!answered_itself(t.answers)) continue;
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const BackendSpec& s) { return s.name == t.target; });
    if (spec == specs.end()) continue;
    // A backend of its own, started for this request and gone after it: the
    // worker's stays as it was.
    Backend fresh(*spec);
    std::vector<Answer> now_all = fresh.request(program, runs);
    for (size_t i = 0; i < t.answers.size() && i < now_all.size(); i++) {
      const Answer &used = t.answers[i], &now = now_all[i];
      if (used.line == now.line || (!now.ok() && !is_definite(now.code()))) continue;  // no verdict: no change
      if (t.deviations && used.line != o.oracle[i].line && now.line != o.oracle[i].line &&
          !explaining(*t.deviations, p, runs[i], now).empty())
        continue;  // both explained: within the declared freedom
      Comparison c = compare_answers(t.target + " (this backend)", used, t.target + " (a fresh one)", now);
      out.push_back(Divergence{t.target, i, "stateful",
                               "  the answer depends on earlier requests: asked again of a fresh backend, it "
                               "changed\n" +
                                   c.report,
                               "", "", "", ""});
      break;
    }
  }
  return out;
}

// Asks a sampled case again of fresh backends (campaign.hpp): counted, and a target
// whose answer changed is a finding. Called without the lock.
void check_fresh(Shared& sh, const Program& p, const std::vector<RunSettings>& runs, const DiffOutcome& o,
                 uint64_t index) {
  std::vector<Divergence> changed = answers_that_change(sh.cfg.targets, p, runs, o);
  std::lock_guard<std::mutex> lock(sh.mu);
  for (const TargetAnswers& t : o.targets)
    if (answered_itself(t.answers)) sh.report.fresh_checked[t.target]++;
  for (Divergence& d : changed) {
    sh.report.stateful[d.target]++;
    Finding f;
    f.case_index = index;
    f.program_seed = case_seed(sh.cfg.seed, index);
    f.found_after = since(sh.start);
    f.signature = d.target + ":stateful";
    f.detail = f.signature;
    f.divergences = {std::move(d)};
    f.reproduce = reproduce_line(sh.cfg, index);
    f.note =
        "not stored: a case replays on a fresh backend, where this does not show (runners/PROTOCOL.md: an "
        "answer depends on its request alone)";
    sh.report.totals.divergent_cases++;
    if (sh.report.hits[f.signature]++ > 0) continue;
    sh.report.totals.signatures++;
    sh.report.findings.push_back(std::move(f));
  }
}

// One case: generate, run, compare; a divergence is confirmed, classified, and a
// new one shrunk and stored.
void run_case(Shared& sh, Differ& differ, Coverage& cov, uint64_t index, std::map<std::string, double>& secs) {
  uint64_t pseed = case_seed(sh.cfg.seed, index);
  auto t0 = Clock::now();
  Program p = gen::generate_program(pseed, sh.profile);
  std::vector<RunSettings> runs = gen::generate_runs(pseed, sh.profile, sh.cfg.seeds_per_program);
  secs["generate"] += since(t0);
  DiffOutcome o = differ.run(p, runs, {}, false);  // located when confirmed, below
  cov.add_program(p);
  for (size_t i = 0; i < o.oracle.size(); i++) cov.add_result(o.oracle[i].json, &o.oracle_sizes[i]);

  std::unique_lock<std::mutex> lock(sh.mu);
  sh.report.totals.programs++;
  sh.report.totals.runs += runs.size();
  for (const std::string& t : o.no_verdict) sh.report.no_verdict[t]++;
  for (const std::string& t : o.not_claimed) sh.report.totals.not_claimed[t]++;
  for (const TargetAnswers& t : o.targets) {
    if (answered_itself(t.answers)) {
      sh.report.answered[t.target]++;
    } else if (!sh.report.first_error.count(t.target) && !t.answers.empty()) {
      sh.report.first_error[t.target] = t.answers[0].line;
    }
  }
  if (o.divergences.empty() || all_explained(o.divergences)) {
    if (sh.cfg.fresh_every > 0 && index % sh.cfg.fresh_every == 0) {
      lock.unlock();
      check_fresh(sh, p, runs, o, index);
      lock.lock();
    }
    if (o.divergences.empty()) return;
  }

  Finding f;
  f.case_index = index;
  f.program_seed = pseed;
  f.found_after = since(sh.start);
  f.divergences = o.divergences;
  f.signature = o.signature;
  f.detail = o.detail;
  f.reproduce = reproduce_line(sh.cfg, index);

  // Rerun on the diverging targets: a divergence that does not repeat is flaky; a
  // failure that does not happen again on a fresh backend is no verdict. The rerun
  // locates an error or crash (failing_turn.hpp): its signature is the finding's.
  lock.unlock();
  Rerun again = rerun(differ, p, runs, o.divergences, o.signature);
  lock.lock();
  for (const std::string& t : again.healthy) sh.report.answered[t]++;  // it answered the health check
  if (again.broken || again.outcome.raw_signature != o.signature) {
    if (all_failures(o.divergences)) {
      for (const Divergence& d : o.divergences) {
        sh.report.unconfirmed[d.target]++;
        sh.report.no_verdict[d.target]++;
      }
      return;
    }
    sh.report.totals.divergent_cases++;
    f.kind = Finding::Kind::kFlaky;
    sh.report.totals.flaky++;
    if (sh.report.totals.flaky <= kFlakyListed) sh.report.findings.push_back(std::move(f));
    return;
  }
  sh.report.totals.divergent_cases++;
  f.signature = again.outcome.signature;
  f.divergences = again.outcome.divergences;
  std::string bucket = f.signature;  // the bucket it joined, if any (narrowed, then merged)
  for (auto m = sh.merged_into.find(bucket); m != sh.merged_into.end(); m = sh.merged_into.find(bucket))
    bucket = m->second;
  sh.report.hits[bucket]++;
  sh.report.detail_hits[f.detail]++;
  if (all_explained(again.outcome.divergences)) {  // a known deviation: counted and listed once per signature
    f.kind = Finding::Kind::kDeviation;
    sh.report.totals.deviations++;
    for (const Divergence& d : again.outcome.divergences) sh.report.deviation_hits[d.target + ": " + d.deviation]++;
    if (sh.report.hits[f.signature] == 1) sh.report.findings.push_back(std::move(f));
    return;
  }
  // Known by its signature, its detail (a corpus from before signatures named rules)
  // or its failure before it was located (from before failures were).
  if (sh.known.count(f.signature) || sh.known.count(f.detail) || sh.known.count(again.outcome.raw_signature)) {
    f.kind = Finding::Kind::kKnown;
    if (sh.report.hits[f.signature] == 1) sh.report.findings.push_back(std::move(f));
    return;
  }
  if (!sh.claimed.insert(f.signature).second) return;  // a duplicate of one found in this campaign
  sh.report.totals.signatures++;
  if (sh.cfg.stop_at_first) sh.stop = true;

  // New: shrink (without the lock: the other workers go on) and store.
  sh.shrinking++;
  lock.unlock();
  ShrinkCase kept{program_to_json(p), runs};
  std::string narrowed;  // the shrunk case's signature when its operators narrowed the found one's, or its
                         // failure was located elsewhere (failing_turn.hpp)
  std::string raw = again.outcome.raw_signature;
  if (sh.cfg.shrink) {
    try {
      ShrinkResult r = shrink_divergence(sh, differ, p, runs, raw);
      kept = r.shrunk;
      f.shrink = r.stats;
      f.shrunk = true;
    } catch (const std::invalid_argument&) {
      // the divergence did not show a third time: keep the case as found
    }
    std::optional<DiffOutcome> shrunk;
    if (f.shrunk && has_failure(f.divergences)) {
      shrunk = still_fails(differ, kept, f.divergences, raw);
      if (!shrunk) {
        kept = ShrinkCase{program_to_json(p), runs};
        f.shrunk = false;
        f.note = "the shrunk case did not fail again with the confirmation's timeouts: stored as found";
      }
    } else if (f.shrunk) {
      Program q = program_from_json(kept.program);
      check(q);
      shrunk = differ.run(q, kept.runs, signature_targets(f.signature));
    }
    // The signature and detail of the case stored: the shrunk one's.
    if (shrunk && signature_refines(shrunk->raw_signature, raw)) {
      f.detail = shrunk->detail;
      narrowed = shrunk->signature;
      for (Divergence& d : f.divergences)
        for (const Divergence& now : shrunk->divergences)
          if (now.target == d.target) d.rule = now.rule;
    }
  }
  lock.lock();
  sh.shrinking--;
  if (!narrowed.empty() && narrowed != f.signature && narrow(sh, f, narrowed)) return;
  if (merge_renamed(sh, f, kept)) return;
  if (!sh.cfg.corpus_dir.empty()) store_finding(sh, f, kept);
  sh.report.findings.push_back(std::move(f));
}

void worker(Shared& sh, int id) {
  Differ differ(sh.cfg.targets);
  differ.set_hang_limits(kDetectHangs);
  Coverage cov;
  std::map<std::string, double> secs;
  for (;;) {
    if (sh.done()) break;
    uint64_t index;
    if (!sh.case_at(sh.next++, index)) break;
    run_case(sh, differ, cov, index, secs);
    std::lock_guard<std::mutex> lock(sh.mu);
    for (const auto& [t, s] : differ.seconds()) sh.seconds[id][t] = s;
    sh.seconds[id]["generate"] = secs["generate"];
  }
  std::lock_guard<std::mutex> lock(sh.mu);
  sh.report.coverage.merge(cov);
}

// Which operator of an expression computed a value otherwise cannot be told from
// the results (attribution.hpp refines): a new bucket whose operators another new
// bucket's narrow (§5 bnot rem, §5 rem) is that bucket, listed in its `merged`
// and its hits counted there; its case stays in the corpus.
void merge_narrowed(CampaignReport& rep) {
  std::vector<Finding*> fresh;
  for (Finding& f : rep.findings)
    if (f.kind == Finding::Kind::kNew) fresh.push_back(&f);
  std::sort(fresh.begin(), fresh.end(),
            [](const Finding* a, const Finding* b) { return a->signature.size() < b->signature.size(); });
  std::set<const Finding*> gone;
  for (Finding* wide : fresh)
    for (Finding* narrow : fresh) {
      if (narrow == wide || gone.count(narrow) || narrow->signature == wide->signature ||
          !signature_refines(narrow->signature, wide->signature))
        continue;
      rep.hits[narrow->signature] += rep.hits[wide->signature];
      rep.hits.erase(wide->signature);
      narrow->merged.push_back(wide->signature);
      narrow->merged.insert(narrow->merged.end(), wide->merged.begin(), wide->merged.end());
      gone.insert(wide);
      break;
    }
  rep.totals.signatures -= gone.size();
  std::set<std::string> names;
  for (const Finding* f : gone) names.insert(f->signature);
  rep.findings.erase(
      std::remove_if(rep.findings.begin(), rep.findings.end(),
                     [&](const Finding& f) { return f.kind == Finding::Kind::kNew && names.count(f.signature) > 0; }),
      rep.findings.end());
}

CampaignProgress snapshot(Shared& sh) {
  std::lock_guard<std::mutex> lock(sh.mu);
  CampaignProgress p = sh.report.totals;
  p.elapsed = since(sh.start);
  p.seconds.clear();
  for (const auto& w : sh.seconds)
    for (const auto& [t, s] : w) p.seconds[t] += s;
  p.shrinking = sh.shrinking > 0;
  return p;
}

}  // namespace

CampaignReport run_campaign(const CampaignConfig& cfg,
                            const std::function<void(const CampaignProgress&)>& on_progress) {
  Shared sh(cfg, gen::profile_named(cfg.profile));
  sh.known.insert(cfg.known_signatures.begin(), cfg.known_signatures.end());
  int jobs = std::max(1, cfg.jobs);
  sh.seconds.resize(static_cast<size_t>(jobs));
  std::vector<std::thread> threads;
  std::atomic<int> running{jobs};
  std::exception_ptr failure;
  std::mutex failure_mu;
  for (int i = 0; i < jobs; i++)
    threads.emplace_back([&, i] {
      try {
        worker(sh, i);
      } catch (...) {  // a bug in concord: stop the campaign, keep what was found, rethrow below
        std::lock_guard<std::mutex> lock(failure_mu);
        if (!failure) failure = std::current_exception();
        sh.stop = true;
      }
      running--;
    });
  auto last = Clock::now(), last_trim = last;
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (on_progress && since(last) >= 1.0) {
      on_progress(snapshot(sh));
      last = Clock::now();
    }
    // The heap a large program's results left free goes back to the system: without
    // this, RSS rose with the largest programs met and stayed (heap.hpp).
    if (since(last_trim) >= kTrimEvery) {
      release_free_heap();
      last_trim = Clock::now();
    }
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  CampaignProgress final_totals = snapshot(sh);
  CampaignReport rep = std::move(sh.report);
  rep.totals = final_totals;
  rep.interrupted = sh.interrupted();
  merge_narrowed(rep);
  std::sort(rep.findings.begin(), rep.findings.end(),
            [](const Finding& a, const Finding& b) { return a.case_index < b.case_index; });
  return rep;
}

}  // namespace concord
