// runners/cli/cmd_shrink.cpp: `concord shrink CASE`: any case file, reduced to the
// smallest program and runs that still show the same divergence (the signature
// recorded in the case, or the one its runs show now), with both cores testing
// candidates. Like C-Vise, the case is replaced in place (atomically) unless
// --out names another file; its expected results are the oracle's on the result.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <thread>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/differ.hpp"
#include "runners/cli/cli.hpp"
#include "runners/shrink/shrink.hpp"

namespace concord {

int cmd_shrink(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout", "--jobs", "--time", "--out"},
                      {"--quiet"});
  std::string file = one_file(a, "shrink");
  if (!is_case_file(file)) throw InputError(file, "expected a corpus case (*.case.json)");
  Case c = load_case(file);
  Targets t = choose_targets(a, a.option("--target") ? *a.option("--target") : "all");
  std::vector<BackendSpec> targets = compared_targets(t);
  std::vector<RunSettings> runs;
  for (const CaseRun& r : c.runs) runs.push_back(r.settings);

  // The signature to keep: what the runs show now (which must be the recorded one, if any).
  // A signature written before signatures named SPEC rules is compared with the
  // detail (the field paths); the shrunk case records both forms of today.
  // Candidates are judged by the signature before failures are located (the shrunk
  // case's is located again: campaign.cpp shrink_divergence).
  std::string signature, detail, raw;
  {
    Differ d(targets);
    d.set_hang_limits(kDetectHangs);
    DiffOutcome o = d.run(c.program, runs);
    signature = o.signature;
    detail = o.detail;
    raw = o.raw_signature;
  }
  if (signature.empty())
    throw InputError(file, "every target agrees with the oracle on this case: there is no divergence to shrink");
  if (!c.signature.empty() && c.signature != (legacy_signature(c.signature) ? detail : signature))
    throw InputError(file + ": /signature", "the case records '" + c.signature + "' but its runs now show '" +
                                                (legacy_signature(c.signature) ? detail : signature) + "'");
  std::vector<std::string> involved = signature_targets(signature);

  ShrinkOptions opt;
  unsigned cores = std::thread::hardware_concurrency();
  opt.jobs = cores ? static_cast<int>(cores) : 1;
  if (const std::string* s = a.option("--jobs")) opt.jobs = static_cast<int>(parse_i64(*s, "--jobs"));
  if (opt.jobs < 1 || opt.jobs > 256) throw InputError("--jobs", "must be 1..256");
  if (const std::string* s = a.option("--time")) opt.max_seconds = parse_duration(*s, "--time");
  std::vector<std::unique_ptr<Differ>> differs;
  for (int i = 0; i < opt.jobs; i++) {
    differs.push_back(std::make_unique<Differ>(targets));
    differs.back()->set_hang_limits(kShrinkHangs);  // a candidate that still hangs costs this much
  }
  opt.make_test = [&](int worker) -> InterestingFn {
    Differ* d = differs[static_cast<size_t>(worker)].get();
    return [d, &raw, &involved](const ShrinkCase& sc) {
      Program p = program_from_json(sc.program);
      check(p);
      return signature_refines(d->run(p, sc.runs, involved, false).signature, raw);
    };
  };
  if (!a.flag("--quiet")) opt.log = [](const std::string& line) { std::cerr << "shrink: " << line << "\n"; };
  std::cout << "shrinking " << file << " (signature " << signature << ") with " << opt.jobs << " jobs\n" << std::flush;
  ShrinkResult r = shrink(ShrinkCase{program_to_json(c.program), runs}, opt);
  differs.clear();
  bool failure = false;
  for (const std::string& t : involved) failure = failure || is_failure_kind(signature_kind(signature, t));
  if (failure) {  // judged with short timeouts: must still fail with long ones, on fresh backends
    Differ d(targets);
    d.set_hang_limits(kConfirmHangs);
    Program shrunk = program_from_json(r.shrunk.program);
    check(shrunk);
    if (d.run(shrunk, r.shrunk.runs, involved).raw_signature != raw) {
      std::cout << "the shrunk case does not fail the same way with the confirmation's timeouts "
                   "(a candidate was merely slow): "
                << file << " is left as it was\n";
      return kOk;
    }
  }

  NewCase out;
  out.name = c.name;
  out.about = c.about;
  out.program = r.shrunk.program;
  Program p = program_from_json(r.shrunk.program);
  check(p);
  for (const RunSettings& s : r.shrunk.runs) out.runs.push_back(CaseRun{s, oracle_answer(p, s).json});
  Differ last(targets);  // the shrunk case's own signature (its operators may be fewer) and field paths
  last.set_hang_limits(kDetectHangs);
  DiffOutcome now = last.run(p, r.shrunk.runs, involved);
  out.signature = signature_refines(now.raw_signature, raw) ? now.signature : signature;
  out.detail = now.detail;
  out.status = c.status;
  out.reason = c.reason;
  out.found = c.found;
  std::string dest = a.option("--out") ? *a.option("--out") : file;
  write_file_atomic(dest, case_json(out).dump(2) + "\n");

  const ShrinkStats& s = r.stats;
  std::cout << "size " << s.size_before << " -> " << s.size_after << ", processes " << s.processes_before << " -> "
            << s.processes_after << ", runs " << s.runs_before << " -> " << s.runs_after << "; " << s.tests
            << " candidates tested (" << s.accepted << " kept), " << s.invalid << " invalid skipped, in " << std::fixed
            << std::setprecision(1) << s.seconds << " s" << (s.timed_out ? " (time limit reached)" : "") << "\n"
            << "wrote " << dest << "\n";
  return kOk;
}

}  // namespace concord
