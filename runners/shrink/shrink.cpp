// runners/shrink/shrink.cpp: the shrinker's driver. It checks that the start is
// interesting, then runs the passes (shrink_passes.hpp) in their order, round after
// round, until a round keeps nothing. Candidates are read back and checked like
// any program, weighed, and tested in batches, one per worker thread; of a batch
// the first interesting candidate in the pass's order is kept, and the pass goes on
// from its position on the new case.
#include "runners/shrink/shrink.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/shrink/shrink_passes.hpp"
#include "runners/shrink/shrink_walk.hpp"

namespace concord {
namespace {

// The workers: one thread each, with its own test made on that thread by
// make_test(worker) (one call at a time) and kept for the whole shrink, so a test
// may own backend processes. The test is destroyed on its thread too.
class Workers {
 public:
  Workers(int jobs, const std::function<InterestingFn(int)>& make_test)
      : verdicts_(static_cast<size_t>(jobs)), errors_(static_cast<size_t>(jobs)) {
    for (int w = 0; w < jobs; w++) threads_.emplace_back([this, w, &make_test] { work(w, make_test); });
  }

  ~Workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  size_t size() const { return threads_.size(); }

  // Tests cases[i] on worker i, all at once, and returns the index of the first
  // interesting case. An exception a test threw for a case before that one is
  // rethrown, as testing one by one would have met it first.
  std::optional<size_t> first_interesting(const std::vector<ShrinkCase>& cases) {
    std::unique_lock<std::mutex> lock(mutex_);
    cases_ = &cases;
    pending_ = cases.size();
    batch_++;
    start_.notify_all();
    done_.wait(lock, [&] { return pending_ == 0; });
    cases_ = nullptr;  // the caller's batch ends here; a worker that wakes late finds nothing to test
    for (size_t i = 0; i < cases.size(); i++) {
      if (errors_[i]) std::rethrow_exception(errors_[i]);
      if (verdicts_[i]) return i;
    }
    return std::nullopt;
  }

 private:
  void work(int w, const std::function<InterestingFn(int)>& make_test) {
    InterestingFn test;
    std::exception_ptr broken;  // make_test failed: every test of this worker fails so
    try {
      std::lock_guard<std::mutex> lock(make_mutex_);
      test = make_test(w);
    } catch (...) {
      broken = std::current_exception();
    }
    auto me = static_cast<size_t>(w);
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      start_.wait(lock, [&] { return stopping_ || batch_ != seen; });
      if (stopping_) return;
      seen = batch_;
      if (!cases_ || me >= cases_->size()) continue;  // a short batch: nothing for this worker
      const ShrinkCase& c = (*cases_)[me];
      lock.unlock();
      bool interesting = false;
      std::exception_ptr error = broken;
      try {
        if (!error) interesting = test(c);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      verdicts_[me] = interesting;
      errors_[me] = error;
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_, make_mutex_;
  std::condition_variable start_, done_;
  const std::vector<ShrinkCase>* cases_ = nullptr;  // the batch: worker i tests cases_[i]
  uint64_t batch_ = 0;                              // batches started; a worker waits for the next
  size_t pending_ = 0;                              // workers still testing the batch
  bool stopping_ = false;
  std::vector<char> verdicts_;              // per worker: its case was interesting
  std::vector<std::exception_ptr> errors_;  // per worker: what its test threw
  std::vector<std::thread> threads_;
};

// What a case weighs, compared lexicographically. A candidate is tested only when
// it weighs less than the current case, so every kept candidate is progress and
// the rounds end. Program size decides first; the rest orders the changes that
// keep the size: a read replaced by a constant, an addr by self or an earlier
// declared process, a reason by normal or another word, a call by a send, a shorter text (names, optional keys),
// smaller numbers, then fewer runs and lower settings, and last names earlier in
// the sequences of the pass `names`.
struct Weight {
  size_t size = 0;         // program_size
  size_t reads = 0;        // variable reads
  size_t addr_rank = 0;    // per addr expression: self 0, declared process i: i+1, spawned name: after those
  size_t reason_rank = 0;  // per reason literal (version 2): normal 0, another word 1, a code 2
  size_t calls = 0;        // call statements (version 2): a send of the same message is simpler
  size_t json_bytes = 0;   // the canonical JSON text's length
  uint64_t magnitude = 0;  // |int literals| + repeat counts + intensities (saturating)
  size_t runs = 0;
  int64_t turns = 0;          // sum of the turn limits
  int64_t max_processes = 0;  // sum of the process limits
  size_t seeds = 0;           // non-zero seeds
  size_t name_rank = 0;       // names further along the pass `names`' sequences (shrink_passes.hpp)
  auto operator<=>(const Weight&) const = default;
};

void add_saturating(uint64_t& sum, uint64_t v) { sum = v > UINT64_MAX - sum ? UINT64_MAX : sum + v; }

uint64_t magnitude(int64_t v) { return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

Weight weigh(const ShrinkState& s, size_t json_bytes) {
  const Program& p = s.program;
  Weight w;
  w.size = program_size(p);
  std::vector<std::string> processes = declared_processes(p);
  visit_exprs(p, [&](const Expr& e, Place) {
    switch (e.kind) {
      case ExprKind::Var: w.reads++; break;
      case ExprKind::Addr:
        w.addr_rank +=
            1 + static_cast<size_t>(std::find(processes.begin(), processes.end(), e.name) - processes.begin());
        break;
      case ExprKind::Int: add_saturating(w.magnitude, magnitude(e.value)); break;
      case ExprKind::Reason: w.reason_rank += e.name == "normal" ? 0 : is_reason_word(e.name) ? 1 : 2; break;
      case ExprKind::Self:
      case ExprKind::Unary:
      case ExprKind::Binary: break;
    }
    return false;
  });
  visit_stmts(p, [&](const std::vector<Stmt>& body, size_t i) {
    if (body[i].kind == StmtKind::Repeat) add_saturating(w.magnitude, magnitude(body[i].count));
    if (body[i].kind == StmtKind::Call) w.calls++;
    return false;
  });
  visit_decls(p, [&](const Decl& d) {
    if (auto* sup = std::get_if<SupervisorDecl>(&d)) add_saturating(w.magnitude, magnitude(sup->intensity));
    return false;
  });
  w.json_bytes = json_bytes;
  w.runs = s.runs.size();
  for (const RunSettings& r : s.runs) {
    w.turns += r.turns;
    w.max_processes += r.max_processes;
    w.seeds += r.seed != 0;
  }
  w.name_rank = name_rank(p);
  return w;
}

// A case in every form the driver needs.
struct Weighed {
  ShrinkState state;  // program checked
  ojson json;         // the program's JSON form, as tests receive it
  std::string text;   // json, dumped
  Weight weight;
};

bool same_runs(const std::vector<RunSettings>& a, const std::vector<RunSettings>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const RunSettings& x, const RunSettings& y) {
    return x.seed == y.seed && x.turns == y.turns && x.max_processes == y.max_processes;
  });
}

// The program read back from its JSON form and checked, as a backend would read
// it, and the runs checked; throws InputError when a rule breaks (SPEC §4, §8.2).
Weighed read_back(ojson json, std::vector<RunSettings> runs) {
  Weighed c{ShrinkState{program_from_json(json), std::move(runs)}, std::move(json), "", {}};
  check(c.state.program);
  for (const RunSettings& r : c.state.runs) check_settings(r);
  c.text = c.json.dump();
  c.weight = weigh(c.state, c.text.size());
  return c;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class Driver {
 public:
  Driver(const ShrinkOptions& opt, Weighed start)
      : opt_(opt),
        t0_(std::chrono::steady_clock::now()),
        workers_(std::max(1, opt.jobs), opt.make_test),
        current_(std::move(start)) {}

  ShrinkResult run() {
    const Program& p0 = current_.state.program;
    stats_.size_before = program_size(p0);
    stats_.processes_before = process_count(p0);
    stats_.runs_before = current_.state.runs.size();
    stats_.tests = 1;
    if (!workers_.first_interesting({as_case(current_)}))
      throw std::invalid_argument("shrink: the start case is not interesting");
    log("start: size " + std::to_string(stats_.size_before) + ", " + std::to_string(stats_.runs_before) + " runs");
    for (int round = 1; !stats_.timed_out; round++) {
      size_t kept = 0;
      for (const ShrinkPass& pass : shrink_passes()) {
        size_t before = program_size(current_.state.program), here = run_pass(pass);
        if (here > 0)
          log("round " + std::to_string(round) + ", " + pass.name + ": kept " + std::to_string(here) + ", size " +
              std::to_string(before) + " -> " + std::to_string(program_size(current_.state.program)));
        kept += here;
        if (stats_.timed_out) break;
      }
      if (kept == 0) break;  // a fixpoint: no pass finds anything
    }
    const Program& p = current_.state.program;
    stats_.size_after = program_size(p);
    stats_.processes_after = process_count(p);
    stats_.runs_after = current_.state.runs.size();
    stats_.seconds = seconds_since(t0_);
    log("done: size " + std::to_string(stats_.size_before) + " -> " + std::to_string(stats_.size_after) + ", " +
        std::to_string(stats_.tests) + " tests" + (stats_.timed_out ? ", out of time" : ""));
    return ShrinkResult{as_case(current_), stats_};
  }

 private:
  struct Candidate {
    size_t position;  // its n in the pass
    Weighed c;
  };

  static ShrinkCase as_case(const Weighed& c) { return ShrinkCase{c.json, c.state.runs}; }

  void log(const std::string& line) const {
    if (opt_.log) opt_.log(line);
  }

  bool out_of_time() const { return opt_.max_seconds > 0 && seconds_since(t0_) >= opt_.max_seconds; }

  // The pass's candidate at `position`, when it is worth a test: valid, and
  // lighter than the current case.
  std::optional<Candidate> admit(const ShrinkPass& pass, ShrinkState s, size_t position) {
    ojson json = program_to_json(s.program);
    if (json.dump() == current_.text && same_runs(s.runs, current_.state.runs))
      throw std::logic_error(std::string("shrink pass '") + pass.name + "' made candidate " + std::to_string(position) +
                             " equal to the case it was given");
    try {
      Candidate cand{position, read_back(std::move(json), std::move(s.runs))};
      if (cand.c.weight < current_.weight) return cand;
    } catch (const InputError&) {
    }
    return std::nullopt;
  }

  // One pass over the current case, candidates in batches of `jobs` from position n
  // on; on a kept candidate the pass goes on from the same position on the new
  // case. Returns how many candidates it kept.
  size_t run_pass(const ShrinkPass& pass) {
    size_t kept = 0, n = 0;
    for (;;) {
      if (out_of_time()) {
        stats_.timed_out = true;
        break;
      }
      std::vector<Candidate> batch;
      bool exhausted = false;
      while (batch.size() < workers_.size()) {
        ShrinkState s = current_.state;
        if (!pass.make(s, n)) {
          exhausted = true;
          break;
        }
        if (std::optional<Candidate> c = admit(pass, std::move(s), n))
          batch.push_back(std::move(*c));
        else
          stats_.invalid++;
        n++;
      }
      if (batch.empty()) break;
      std::vector<ShrinkCase> cases;
      for (const Candidate& c : batch) cases.push_back(as_case(c.c));
      stats_.tests += cases.size();
      if (std::optional<size_t> hit = workers_.first_interesting(cases)) {
        n = batch[*hit].position;
        current_ = std::move(batch[*hit].c);
        stats_.accepted++;
        kept++;
      } else if (exhausted) {
        break;
      }
    }
    return kept;
  }

  const ShrinkOptions& opt_;
  std::chrono::steady_clock::time_point t0_;
  Workers workers_;
  Weighed current_;
  ShrinkStats stats_;
};

}  // namespace

ShrinkResult shrink(const ShrinkCase& start, const ShrinkOptions& opt) {
  if (!opt.make_test) throw std::invalid_argument("shrink: no make_test");
  if (start.runs.empty()) throw std::invalid_argument("shrink: the case has no runs");
  return Driver(opt, read_back(start.program, start.runs)).run();
}

}  // namespace concord
