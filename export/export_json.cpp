// export/export_json.cpp: a case as one self-describing JSON file (json), for any
// test runner: the program, and per run its settings, the protocol request that
// runs it on a backend (runners/PROTOCOL.md) and the expected result; the case's
// about, signature and detail as they are (UTF-8, "§" intact). Beside it
// concord_cases.py (export/support/), which runs every case file of its folder on
// $CONCORD_RUNTIME (TAP output, Python 3 standard library), and a pytest test.
#include "export/export.hpp"
#include "oracle/program_json.hpp"

namespace concord {

Exported export_json(const Case& c) {
  std::string file = c.name + ".concord.json";
  std::string test = "test_" + snake_words(c.name) + ".py";
  ojson program = program_to_json(c.program);
  ojson j;
  j["concord_export"] = 1;
  j["name"] = c.name;
  j["about"] = c.about;
  if (!c.signature.empty()) j["signature"] = c.signature;
  if (!c.detail.empty()) j["detail"] = c.detail;
  j["status"] = c.status;
  if (!c.reason.empty()) j["reason"] = c.reason;
  j["how"] =
      "Per run: start the runtime under test (a command that speaks concord's backend protocol, "
      "runners/PROTOCOL.md), write the run's `request` and a newline on its stdin, read one line from its "
      "stdout: the run passes when that line, as a JSON value, equals the run's `expect`. "
      "`python3 concord_cases.py` does so for every *.concord.json beside it (TAP output); `pytest` runs "
      "the test_*.py files.";
  j["protocol"] = {{"version", 1}, {"spec", "runners/PROTOCOL.md"}, {"runtime_env", "CONCORD_RUNTIME"}};
  j["program"] = program;
  ojson runs = ojson::array();
  for (const CaseRun& r : c.runs) {
    ojson settings = {
        {"seed", r.settings.seed}, {"turns", r.settings.turns}, {"max_processes", r.settings.max_processes}};
    ojson request = {{"concord_protocol", 1}, {"program", program}, {"runs", ojson::array({settings})}};
    ojson run = settings;
    run["request"] = request.dump();
    run["expect"] = r.expect;
    runs.push_back(run);
  }
  j["runs"] = runs;

  std::string run = "CONCORD_RUNTIME='YOUR-RUNTIME --ITS-OPTIONS' python3 concord_cases.py";
  std::string py = "# " + test + ": the concord corpus case " + c.name + " as a pytest test (written by\n" +
                   "# `concord export --as json`). Each run of " + file +
                   " is a test: it\n"
                   "# starts $CONCORD_RUNTIME, sends the run's request and compares the answer with the\n"
                   "# expected result (concord_cases.py, beside this file).\n" +
                   comment_lines(c.about, "# ") +
                   "import pathlib\n\n"
                   "import pytest\n\n"
                   "import concord_cases\n\n"
                   "CASE = concord_cases.load(pathlib.Path(__file__).with_name(" +
                   ojson(file).dump() +
                   "))\n\n\n"
                   "@pytest.mark.parametrize(\"run\", range(len(CASE[\"runs\"])), ids=lambda i: f\"run{i + 1}\")\n"
                   "def test_run(run):\n"
                   "    concord_cases.check_run(CASE, run)\n";
  std::string readme = "# " + c.name +
                       ": a language-neutral test (JSON) for a runtime that speaks the backend protocol\n\n" +
                       comment_lines(c.about, "", 80) + "\n" +
                       (c.signature.empty() ? "" : "Found as: " + c.signature + "\n\n") + "`" + file +
                       "` holds the program and, per run, the request to send and the expected result (its `how` says "
                       "how); `" +
                       test +
                       "` runs it under pytest (`CONCORD_RUNTIME=... pytest`). Written by `concord export` from the "
                       "concord corpus case `" +
                       c.name + "`; it runs without concord. Run it here:\n\n    " + run + "\n";
  Exported e;
  e.run = run;
  e.files.push_back({file, j.dump(2) + "\n"});
  e.files.push_back({"concord_cases.py", support_concord_cases_py()});
  e.files.push_back({test, py});
  e.files.push_back({"README.md", readme});
  return e;
}

}  // namespace concord
