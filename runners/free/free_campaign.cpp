// runners/free/free_campaign.cpp: workers that take the next case, run it K times free
// on every target and check every trace; the shrinking and storing of what breaks a
// guarantee (free_campaign.hpp).
#include "free_campaign.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/free/trace.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/free/free_case.hpp"
#include "runners/process/heap.hpp"

namespace concord {

int free_reruns(int violating, int of, int k) {
  if (of <= 0 || violating >= of) return k;
  double rate = std::max(1, violating) / static_cast<double>(of);
  int r = static_cast<int>(std::ceil(std::log(0.05) / std::log(1.0 - rate)));  // P(not seen in r) <= 5%
  return std::clamp(r, k, kRaceRuns);
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// How long a free run may take before it counts as hung: as a conducted campaign
// (differ.hpp kDetectHangs), from the oracle's time on the conducted run.
// A free run takes real time the oracle's run does not: each termination of a worker
// that traps and is blocked (in a call, a spawn under a supervisor) waits out its
// shutdown time (200 ms, SPEC §16.6), and races make more of them than a conducted run
// (one links program measured: 8 s free, 1.3 s conducted). Hence the 30 s floor.
RequestLimits limits_for(double oracle_seconds, int runs, double stretch) {
  double run = (30 + 100 * oracle_seconds) * stretch;
  return RequestLimits{run, run * (runs + 1)};
}

struct Shared {
  Shared(const FreeCampaignConfig& c, const gen::Profile& p) : cfg(c), profile(p), start(Clock::now()) {}
  const FreeCampaignConfig& cfg;
  const gen::Profile& profile;
  Clock::time_point start;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  FreeCampaignReport report;
  std::set<std::string> known, claimed;
  // Signatures whose finding is a race that could not be shrunk (not seen again in
  // kRaceRuns runs): a later program that shows it may try again, kRaceRetries times.
  std::map<std::string, int> unshrunk;
  int shrinking = 0;

  bool interrupted() const { return cfg.interrupted && cfg.interrupted->load(); }
  bool done() const { return stop.load() || interrupted() || (cfg.seconds > 0 && since(start) >= cfg.seconds); }
  bool case_at(uint64_t k, uint64_t& index) const {
    return campaign_case_at(k, cfg.cases, cfg.shard_index, cfg.shard_count, cfg.only_cases, index);
  }
};

// One target's free runs of one program: the traces, checked.
struct Checked {
  std::vector<Answer> answers;
  std::vector<TraceVerdict> verdicts;  // per answer (empty for an error answer)
  size_t first_violation = SIZE_MAX;   // index of the first inadmissible trace
  int violating = 0;
  std::set<std::string> distinct;
  double seconds = 0;
};

Checked run_free(Backend& b, const Program& p, const RunSettings& r, int runs, RequestLimits limits) {
  Checked c;
  auto t0 = Clock::now();
  c.answers =
      b.request(program_to_json(p), std::vector<RunSettings>(static_cast<size_t>(runs), r), limits, RunMode::Free);
  c.seconds = since(t0);
  c.verdicts.resize(c.answers.size());
  for (size_t k = 0; k < c.answers.size(); k++) {
    const Answer& a = c.answers[k];
    if (!a.ok()) continue;
    c.distinct.insert(trace_identity(a.json));
    try {
      c.verdicts[k] = check_trace(p, a.json);
    } catch (const InputError& e) {  // a malformed trace breaks the trace format, a finding like any violation
      c.verdicts[k].admissible = false;
      c.verdicts[k].violations.push_back({"malformed trace", e.what(), {e.where}});
    } catch (const std::runtime_error& e) {  // too costly to replay: no verdict
      c.verdicts[k].undecided.push_back(e.what());
    }
    if (!c.verdicts[k].admissible) {
      c.violating++;
      if (c.first_violation == SIZE_MAX) c.first_violation = k;
    }
  }
  return c;
}

std::string guarantee_of(const std::string& signature) {
  size_t at = signature.find(":free:");
  return at == std::string::npos ? signature : signature.substr(at + 6);
}

// The error answer worth a finding: definite ones, and indefinite ones the caller
// confirms on a fresh backend. UNSUPPORTED is what a target does not do: none.
bool failure_code(const std::string& code) {
  return code == "INTERNAL" || code == "BAD_OUTPUT" || code == "TIMEOUT" || code == "CRASH";
}
std::string failure_name(const std::string& code) {
  return code == "TIMEOUT" ? "hang" : code == "CRASH" ? "crash" : "error " + code;
}

class Worker {
 public:
  Worker(Shared& sh) : sh_(sh) {
    for (const BackendSpec& s : sh.cfg.targets) backends_.push_back(std::make_unique<Backend>(s));
  }

  void run() {
    for (uint64_t k = sh_.next++;; k = sh_.next++) {
      uint64_t index = 0;
      if (sh_.done() || !sh_.case_at(k, index)) return;
      one_case(index);
    }
  }

 private:
  void one_case(uint64_t index) {
    uint64_t seed = case_seed(sh_.cfg.seed, index);
    Program p = gen::generate_program(seed, sh_.profile);
    RunSettings r = gen::generate_runs(seed, sh_.profile, 1).at(0);
    // The conducted run's time on the oracle sets how long a free run may take.
    auto t0 = Clock::now();
    std::string oracle = answer_line(p, r);
    double oracle_seconds = since(t0);
    if (oracle.rfind("{\"ok\":true", 0) != 0) return;  // past the oracle's limits: no verdict on such a program
    int runs = std::max(1, sh_.cfg.runs);
    for (auto& b : backends_) {
      const std::string& target = b->spec().name;
      Checked c = run_free(*b, p, r, runs, limits_for(oracle_seconds, runs, 1));
      std::string code, message;  // the first failure answer, if any
      for (const Answer& a : c.answers)
        if (!a.ok() && failure_code(a.code()) && code.empty()) {
          code = a.code();
          message = a.json.value("message", "");
        }
      {
        std::lock_guard<std::mutex> lock(sh_.mu);
        FreeTargetStats& st = sh_.report.targets[target];
        st.programs++;
        st.traces += c.answers.size();
        st.seconds += c.seconds;
        st.distinct += c.distinct.size();
        st.free_programs += c.distinct.size() > 1;
        for (size_t k = 0; k < c.answers.size(); k++) {
          if (!c.answers[k].ok()) {
            st.errors[c.answers[k].code()]++;
            continue;
          }
          if (c.verdicts[k].admissible)
            st.admissible++;
          else
            st.not_admissible++;
        }
        sh_.report.totals.traces += c.answers.size();
      }
      if (c.first_violation != SIZE_MAX) {
        const Violation& v = c.verdicts[c.first_violation].violations.at(0);
        finding(index, seed, p, r, target, *b, v, c.answers[c.first_violation].json, c.violating, runs);
      } else if (!code.empty()) {
        failure(index, seed, p, r, target, *b, code, message, oracle_seconds, runs);
      }
    }
    std::lock_guard<std::mutex> lock(sh_.mu);
    sh_.report.totals.programs++;
  }

  // A TIMEOUT or CRASH counts when a fresh backend shows it again, with twice the
  // time (a loaded machine makes a target slow; a person or the OOM killer kills it).
  void failure(uint64_t index, uint64_t seed, const Program& p, const RunSettings& r, const std::string& target,
               Backend& b, const std::string& code, const std::string& message, double oracle_seconds, int runs) {
    if (code == "TIMEOUT" || code == "CRASH") {
      b.restart();
      // A backend that cannot even start is broken for every program: no verdict on this one.
      bool repeated = false;
      if (b.warm_up()) {
        Checked again = run_free(b, p, r, runs, limits_for(oracle_seconds, runs, 2));
        repeated =
            std::any_of(again.answers.begin(), again.answers.end(), [&](const Answer& a) { return a.code() == code; });
      }
      if (!repeated) {
        std::lock_guard<std::mutex> lock(sh_.mu);
        sh_.report.targets[target].no_verdict++;
        return;
      }
    }
    Violation v{failure_name(code), message.empty() ? code : message, {}};
    record(index, seed, p, r, target, v, ojson(), 1, 1, runs, false, b);
  }

  void finding(uint64_t index, uint64_t seed, const Program& p, const RunSettings& r, const std::string& target,
               Backend& b, const Violation& v, const ojson& trace, int violating, int runs) {
    record(index, seed, p, r, target, v, trace, violating, runs, runs, true, b);
  }

  void record(uint64_t index, uint64_t seed, const Program& p, const RunSettings& r, const std::string& target,
              const Violation& v, const ojson& witness, int violating, int of, int runs, bool shrinkable, Backend& b) {
    FreeFinding f;
    f.case_index = index;
    f.program_seed = seed;
    f.target = target;
    f.signature = target + ":free:" + v.guarantee;
    f.violation = v;
    f.witness = witness;
    f.program = program_to_json(p);
    f.settings = r;
    f.violating = violating;
    f.of = of;
    f.reruns = free_reruns(violating, of, runs);
    f.reproduce = sh_.cfg.reproduce + " --case " + std::to_string(index);
    f.found_after = since(sh_.start);
    bool fresh, retry = false;
    {
      std::lock_guard<std::mutex> lock(sh_.mu);
      sh_.report.totals.violations++;
      if (sh_.report.hits[f.signature]++ == 0) sh_.report.totals.signatures++;
      fresh = !sh_.known.count(f.signature) && sh_.claimed.insert(f.signature).second;
      auto u = sh_.unshrunk.find(f.signature);
      if (!fresh && u != sh_.unshrunk.end() && u->second < kRaceRetries && sh_.cfg.shrink && shrinkable) {
        u->second++;
        fresh = retry = true;
      }
      if (!fresh) {
        if (sh_.known.count(f.signature) && sh_.claimed.insert(f.signature).second) {
          f.kind = FreeFinding::Kind::kKnown;
          sh_.report.findings.push_back(std::move(f));
        }
        return;
      }
      if (sh_.cfg.shrink && shrinkable) sh_.shrinking++;
    }
    if (sh_.cfg.shrink && shrinkable) {
      shrink(f, b);
      std::lock_guard<std::mutex> lock(sh_.mu);
      sh_.shrinking--;
    }
    if (retry && !f.shrunk) return;  // the finding kept stays as it was
    store(f);                        // a retry that shrank replaces the unshrunk case (one file per signature)
    std::lock_guard<std::mutex> lock(sh_.mu);
    bool race_unshrunk = sh_.cfg.shrink && shrinkable && !f.shrunk && f.violating < f.of;
    if (race_unshrunk)
      sh_.unshrunk.emplace(f.signature, 0);
    else
      sh_.unshrunk.erase(f.signature);
    // A race not shrunk does not stop a campaign that stops at its first finding: the
    // next program that shows it may show it more often.
    if (sh_.cfg.stop_at_first && !race_unshrunk) sh_.stop = true;
    auto& all = sh_.report.findings;
    if (retry)
      all.erase(
          std::remove_if(all.begin(), all.end(), [&](const FreeFinding& x) { return x.signature == f.signature; }),
          all.end());
    all.push_back(std::move(f));
  }

  // A candidate keeps the violation when any of R free runs breaks the same guarantee.
  void shrink(FreeFinding& f, Backend& b) {
    std::string g = guarantee_of(f.signature);
    int reruns = f.reruns;
    auto shows = [&](const ShrinkCase& c, ojson* witness, Violation* v) {
      Program cand = program_from_json(c.program);
      check(cand);
      auto t0 = Clock::now();
      std::string oracle = answer_line(cand, c.runs.at(0));
      if (oracle.rfind("{\"ok\":true", 0) != 0) return false;  // past the oracle's limits
      Checked k = run_free(b, cand, c.runs.at(0), reruns, limits_for(since(t0), reruns, 1));
      for (size_t i = 0; i < k.verdicts.size(); i++)
        if (!k.verdicts[i].admissible && k.verdicts[i].violations.at(0).guarantee == g) {
          if (witness) *witness = k.answers[i].json;
          if (v) *v = k.verdicts[i].violations[0];
          return true;
        }
      return false;
    };
    ShrinkOptions opt;
    opt.jobs = 1;
    opt.max_seconds = sh_.cfg.shrink_seconds;
    opt.make_test = [&](int) -> InterestingFn {
      return [&](const ShrinkCase& c) { return !sh_.interrupted() && shows(c, nullptr, nullptr); };
    };
    ShrinkCase start{f.program, {f.settings}};
    if (f.violating < f.of) {
      // A race: K runs are too few to know its rate, and a rate guessed high makes R
      // too small to see it again. Measure it on kRaceRuns runs of the program first.
      Program p = program_from_json(f.program);
      check(p);
      auto t0 = Clock::now();
      answer_line(p, f.settings);
      Checked m = run_free(b, p, f.settings, kRaceRuns, limits_for(since(t0), kRaceRuns, 1));
      int seen = 0;
      for (const TraceVerdict& v : m.verdicts)
        seen += !v.admissible && !v.violations.empty() && v.violations[0].guarantee == g;
      if (seen == 0) {
        f.note = "not shrunk: a race not seen again in " + std::to_string(kRaceRuns) + " runs of the program";
        return;
      }
      reruns = f.reruns = free_reruns(seen, kRaceRuns, sh_.cfg.runs);
    }
    try {
      ShrinkResult res = concord::shrink(start, opt);
      ojson witness;
      Violation v;
      if (shows(res.shrunk, &witness, &v)) {  // the shrunk case's own witness
        f.program = res.shrunk.program;
        f.settings = res.shrunk.runs.at(0);
        f.witness = witness;
        f.violation = v;
        f.shrunk = true;
        f.shrink = res.stats;
      } else {
        f.note = "the shrunk program did not break " + g + " again in " + std::to_string(reruns) +
                 " runs; the program is kept as found";
      }
    } catch (const std::invalid_argument&) {  // the start did not show it again in R runs
      f.note = "not shrunk: the program did not break " + g + " again in " + std::to_string(reruns) + " runs";
    }
  }

  void store(FreeFinding& f) {
    if (sh_.cfg.corpus_dir.empty()) return;
    FreeCase c;
    c.about = "free runs of " + f.target + " break " + guarantee_of(f.signature) + ": " + f.violation.text;
    c.program = f.program;
    c.settings = f.settings;
    c.free_runs = f.reruns;
    c.signature = f.signature;
    c.violation = f.violation.guarantee + ": " + f.violation.text;
    c.witness = f.witness;
    c.found = {{"campaign_seed", sh_.cfg.seed},
               {"case", f.case_index},
               {"program_seed", f.program_seed},
               {"profile", sh_.cfg.profile},
               {"generator_version", gen::kGeneratorVersion},
               {"free_runs_per_program", sh_.cfg.runs},
               {"violating_runs", f.violating},
               {"reproduce", f.reproduce}};
    try {
      FreeStored s = store_free_case(sh_.cfg.corpus_dir, c);
      f.corpus_file = s.path;
      f.stored = s.written;
    } catch (const std::exception& e) {
      f.store_error = e.what();
    }
  }

  Shared& sh_;
  std::vector<std::unique_ptr<Backend>> backends_;
};

FreeCampaignProgress snapshot(Shared& sh) {
  std::lock_guard<std::mutex> lock(sh.mu);
  FreeCampaignProgress p = sh.report.totals;
  p.elapsed = since(sh.start);
  p.shrinking = sh.shrinking > 0;
  return p;
}

}  // namespace

FreeCampaignReport run_free_campaign(const FreeCampaignConfig& cfg,
                                     const std::function<void(const FreeCampaignProgress&)>& on_progress) {
  Shared sh(cfg, gen::profile_named(cfg.profile));
  if (!cfg.corpus_dir.empty())
    for (const std::string& s : free_case_signatures(cfg.corpus_dir)) sh.known.insert(s);
  int jobs = std::max(1, cfg.jobs);
  std::vector<std::thread> threads;
  std::atomic<int> running{jobs};
  std::exception_ptr failure;
  std::mutex failure_mu;
  for (int i = 0; i < jobs; i++)
    threads.emplace_back([&] {
      try {
        Worker(sh).run();
      } catch (...) {  // a bug in concord: stop, keep what was found, rethrow below
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
    if (since(last_trim) >= 5.0) {  // as a conducted campaign: give the free heap back (heap.hpp)
      release_free_heap();
      last_trim = Clock::now();
    }
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  FreeCampaignProgress final_totals = snapshot(sh);
  FreeCampaignReport rep = std::move(sh.report);
  rep.totals = final_totals;
  rep.interrupted = sh.interrupted();
  std::sort(rep.findings.begin(), rep.findings.end(),
            [](const FreeFinding& a, const FreeFinding& b) { return a.case_index < b.case_index; });
  return rep;
}

}  // namespace concord
