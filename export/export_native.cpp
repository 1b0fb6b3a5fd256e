// export/export_native.cpp: a case as a C test against the c target's runtime (c)
// and as a GoogleTest case for any runtime that speaks the backend protocol (gtest).
// The C test runs the emitted program, compiled against libconcord_rt.a, once per
// run; the GoogleTest case starts the runtime's command ($CONCORD_RUNTIME), sends
// one request per run (runners/PROTOCOL.md) and reads the answer line. Both compare
// byte for byte with the expected line and name the first difference
// (export/support/first_difference.h, copied into the file).
#include "export/export.hpp"
#include "oracle/program_json.hpp"
#include "targets/c/emitter/emit_c.hpp"
#include "targets/c/launcher/c_launcher.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/common/install_paths.hpp"

namespace concord {
namespace {

std::string settings_line(const CaseRun& r) {
  return std::to_string(r.settings.seed) + " " + std::to_string(r.settings.turns) + " " +
         std::to_string(r.settings.max_processes);
}

std::string readme(const Case& c, const std::string& what, const std::string& run) {
  return "# " + comment_text(c.name) + ": " + what + "\n\n" + comment_lines(c.about, "", 80) + "\n" +
         comment_lines("Written by `concord export` from the concord corpus case `" + comment_text(c.name) +
                           "`; it runs without concord. Run it here:",
                       "", 80) +
         "\n    " + run + "\n";
}

// The C runtime's library in the build tree or an install (as `concord backend c` finds it).
std::string c_runtime_lib() { return runtime_path("c/lib/libconcord_rt.a", build_paths::c_runtime_lib); }

}  // namespace

Exported export_c(const Case& c) {
  std::string prog = c.name + "_prog", test = c.name + "_test";
  std::string runs;
  for (size_t i = 0; i < c.runs.size(); i++)
    runs += "    {" + c_literal(settings_line(c.runs[i])) + ",\n     " + c_literal(c.runs[i].expect.dump()) + "},\n";
  std::string run = std::string(CONCORD_EXPORT_CC) + " -I" + c_runtime_dir() + " " + prog + ".c " + c_runtime_lib() +
                    " -o " + prog + " && cc -O1 " + test + ".c -o " + test + " && ./" + test;
  std::string s =
      "/* " + comment_text(test) + ".c: the concord corpus case " + comment_text(c.name) + " as a C test.\n" +
      comment_lines(c.about, "** ") +
      "**\n"
      "** Written by `concord export --as c`; runs without concord. The program is\n"
      "** " +
      comment_text(prog) +
      ".c, compiled against the c target's runtime (libconcord_rt.a,\n"
      "** which owns its main(): it reads \"SEED TURNS MAX_PROCESSES\" lines and writes one\n"
      "** result line each). This test runs it once per run of the case and asserts the\n"
      "** whole result line (journal, failures, decisions, processes, alive, supervisors);\n"
      "** a difference is named by its first field. Exit status 0: every run passed.\n"
      "**\n"
      "** Run: " +
      comment_text(run) +
      "\n"
      "** (./" +
      comment_text(test) +
      " PROG runs another build of the program.) */\n"
      "#define _POSIX_C_SOURCE 200809L\n"
      "#include <signal.h>\n"
      "#include <stdlib.h>\n"
      "#include <sys/wait.h>\n"
      "#include <unistd.h>\n\n" +
      support_first_difference() +
      "\n"
      "/* One run of the case: the program's settings line and the expected result line. */\n"
      "static const struct {\n"
      "  const char *settings, *expected;\n"
      "} RUNS[] = {\n" +
      runs +
      "};\n\n"
      "/* The program's stdout for one settings line (malloc'd), or NULL with why in err. */\n"
      "static char *run_program(const char *prog, const char *settings, char *err, size_t cap) {\n"
      "  int in[2], out[2];\n"
      "  if (pipe(in) != 0 || pipe(out) != 0) return snprintf(err, cap, \"pipe failed\"), (char *)NULL;\n"
      "  pid_t pid = fork();\n"
      "  if (pid < 0) return snprintf(err, cap, \"fork failed\"), (char *)NULL;\n"
      "  if (pid == 0) {\n"
      "    dup2(in[0], 0), dup2(out[1], 1);\n"
      "    close(in[0]), close(in[1]), close(out[0]), close(out[1]);\n"
      "    execl(prog, prog, (char *)NULL);\n"
      "    _exit(127);\n"
      "  }\n"
      "  close(in[0]), close(out[1]);\n"
      "  signal(SIGPIPE, SIG_IGN);\n"
      "  if (write(in[1], settings, strlen(settings)) < 0 || write(in[1], \"\\n\", 1) < 0) { /* read what it said */ "
      "}\n"
      "  close(in[1]);\n"
      "  size_t len = 0, size = 4096;\n"
      "  char *text = (char *)malloc(size);\n"
      "  for (ssize_t n; text && (n = read(out[0], text + len, size - len - 1)) > 0;) {\n"
      "    len += (size_t)n;\n"
      "    if (size - len < 2) text = (char *)realloc(text, size *= 2);\n"
      "  }\n"
      "  close(out[0]);\n"
      "  int status = 0;\n"
      "  waitpid(pid, &status, 0);\n"
      "  if (!text) return snprintf(err, cap, \"out of memory\"), (char *)NULL;\n"
      "  text[len] = '\\0';\n"
      "  if (WIFSIGNALED(status)) snprintf(err, cap, \"%s was killed by signal %d\", prog, WTERMSIG(status));\n"
      "  else if (WEXITSTATUS(status) == 127) snprintf(err, cap, \"%s could not be run (built? see the Run line)\", "
      "prog);\n"
      "  else if (WEXITSTATUS(status) != 0) snprintf(err, cap, \"%s exited with %d\", prog, WEXITSTATUS(status));\n"
      "  else {\n"
      "    if (len > 0 && text[len - 1] == '\\n') text[len - 1] = '\\0';\n"
      "    return text;\n"
      "  }\n"
      "  free(text);\n"
      "  return NULL;\n"
      "}\n\n"
      "/* Asserts that run i's result line is the expected one; says why not. */\n"
      "#define EXPECT_RUN(prog, i) expect_run((prog), (i), __FILE__, __LINE__)\n"
      "static int expect_run(const char *prog, size_t i, const char *file, int line) {\n"
      "  char why[4096];\n"
      "  char *got = run_program(prog, RUNS[i].settings, why, sizeof why);\n"
      "  int ok = got && !first_difference(RUNS[i].expected, got, why, sizeof why);\n"
      "  if (ok) printf(\"ok   run %zu (settings %s)\\n\", i + 1, RUNS[i].settings);\n"
      "  else printf(\"%s:%d: FAIL run %zu (settings %s): %s\\n\", file, line, i + 1, RUNS[i].settings, why);\n"
      "  free(got);\n"
      "  return ok;\n"
      "}\n\n"
      "int main(int argc, char **argv) {\n"
      "  const char *prog = argc > 1 ? argv[1] : " +
      c_literal("./" + prog) +
      ";\n"
      "  size_t failed = 0, n = sizeof RUNS / sizeof RUNS[0];\n"
      "  for (size_t i = 0; i < n; i++) failed += !EXPECT_RUN(prog, i);\n"
      "  printf(\"%s: %zu of %zu runs passed\\n\", " +
      c_literal(c.name) +
      ", n - failed, n);\n"
      "  return failed ? 1 : 0;\n"
      "}\n";
  Exported e;
  e.run = run;
  e.files.push_back({prog + ".c", emit_c(c.program)});
  e.files.push_back({test + ".c", s});
  e.files.push_back({"README.md", readme(c, "a C test against the c runtime", run)});
  return e;
}

Exported export_gtest(const Case& c) {
  std::string test = c.name + "_test";
  std::string suite = "Concord" + camel_words(c.name);  // an identifier: letters and digits only
  std::string program = program_to_json(c.program).dump();
  std::string tests;
  for (size_t i = 0; i < c.runs.size(); i++) {
    const RunSettings& r = c.runs[i].settings;
    tests += "\nTEST(" + suite + ", Run" + std::to_string(i + 1) + ") {  // " + settings_line(c.runs[i]) +
             "\n  ExpectAnswer(" + std::to_string(r.seed) + "u, " + std::to_string(r.turns) + ", " +
             std::to_string(r.max_processes) + ",\n               " + c_literal(c.runs[i].expect.dump()) + ");\n}\n";
  }
  std::string run = "g++ -std=c++17 -O1 " + test + ".cpp -lgtest -lgtest_main -pthread -o " + test +
                    " && CONCORD_RUNTIME='YOUR-RUNTIME --ITS-OPTIONS' ./" + test;
  std::string s =
      "// " + comment_text(test) + ".cpp: the concord corpus case " + comment_text(c.name) +
      " as a GoogleTest case.\n" + comment_lines(c.about, "// ") +
      "//\n"
      "// Written by `concord export --as gtest`; runs without concord. For any runtime that\n"
      "// speaks concord's backend protocol (runners/PROTOCOL.md: one JSON request per line on\n"
      "// stdin, one answer line per run on stdout): each test starts the command in\n"
      "// $CONCORD_RUNTIME (run by /bin/sh), sends the case's program with one run, and asserts\n"
      "// that the answer line is the expected result line byte for byte; a difference is named\n"
      "// by its first field.\n"
      "//\n"
      "// Run: " +
      comment_text(run) +
      "\n"
      "#include <fcntl.h>\n"
      "#include <poll.h>\n"
      "#include <signal.h>\n"
      "#include <sys/wait.h>\n"
      "#include <unistd.h>\n\n"
      "#include <chrono>\n"
      "#include <cstdlib>\n"
      "#include <string>\n"
      "#include <thread>\n\n"
      "#include <gtest/gtest.h>\n\n" +
      support_first_difference() +
      "\n"
      "namespace {\n\n"
      "// The program, in concord's JSON form (SPEC 13).\n"
      "const char* const kProgram =\n    " +
      c_literal(program) +
      ";\n\n"
      "constexpr int kTimeoutSeconds = 120;  // per answer\n\n"
      "// Starts `command`, writes `request` and a newline, and reads the first line of its\n"
      "// stdout; \"\" with why in *err when it ends, times out or cannot start.\n"
      "std::string Ask(const std::string& command, const std::string& request, std::string* err) {\n"
      "  int in[2], out[2];\n"
      "  if (pipe(in) != 0 || pipe(out) != 0) return *err = \"pipe failed\", \"\";\n"
      "  pid_t pid = fork();\n"
      "  if (pid < 0) return *err = \"fork failed\", \"\";\n"
      "  if (pid == 0) {\n"
      "    setpgid(0, 0);\n"
      "    dup2(in[0], 0), dup2(out[1], 1);\n"
      "    close(in[0]), close(in[1]), close(out[0]), close(out[1]);\n"
      "    execl(\"/bin/sh\", \"sh\", \"-c\", command.c_str(), static_cast<char*>(nullptr));\n"
      "    _exit(127);\n"
      "  }\n"
      "  close(in[0]), close(out[1]);\n"
      "  signal(SIGPIPE, SIG_IGN);\n"
      "  std::string line = request + \"\\n\";\n"
      "  std::thread writer([fd = in[1], line] {  // a long request must not wait for our read\n"
      "    for (size_t at = 0; at < line.size();) {\n"
      "      ssize_t n = write(fd, line.data() + at, line.size() - at);\n"
      "      if (n <= 0) break;\n"
      "      at += static_cast<size_t>(n);\n"
      "    }\n"
      "    close(fd);\n"
      "  });\n"
      "  std::string answer;\n"
      "  bool complete = false;\n"
      "  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeoutSeconds);\n"
      "  while (!complete) {\n"
      "    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - "
      "std::chrono::steady_clock::now());\n"
      "    pollfd p{out[0], POLLIN, 0};\n"
      "    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {\n"
      "      *err = \"no answer within \" + std::to_string(kTimeoutSeconds) + \" s\";\n"
      "      break;\n"
      "    }\n"
      "    char buf[65536];\n"
      "    ssize_t n = read(out[0], buf, sizeof buf);\n"
      "    if (n <= 0) {\n"
      "      *err = \"the runtime closed its stdout before a whole answer line\";\n"
      "      break;\n"
      "    }\n"
      "    answer.append(buf, static_cast<size_t>(n));\n"
      "    size_t nl = answer.find('\\n');\n"
      "    if (nl != std::string::npos) answer.resize(nl), complete = true;\n"
      "  }\n"
      "  kill(-pid, SIGKILL);\n"
      "  close(out[0]);\n"
      "  writer.join();\n"
      "  int status = 0;\n"
      "  waitpid(pid, &status, 0);\n"
      "  if (!complete && WIFEXITED(status) && WEXITSTATUS(status) == 127)\n"
      "    *err += \" (exit 127: is the command in $CONCORD_RUNTIME right?)\";\n"
      "  return complete ? answer : \"\";\n"
      "}\n\n"
      "void ExpectAnswer(unsigned long long seed, long long turns, long long max_processes, const char* expected) {\n"
      "  const char* command = std::getenv(\"CONCORD_RUNTIME\");\n"
      "  ASSERT_TRUE(command && *command) << \"set CONCORD_RUNTIME to the command that starts the runtime \"\n"
      "                                      \"under test (it must speak concord's backend protocol)\";\n"
      "  std::string request = std::string(\"{\\\"concord_protocol\\\":1,\\\"program\\\":\") + kProgram +\n"
      "                        \",\\\"runs\\\":[{\\\"seed\\\":\" + std::to_string(seed) + \",\\\"turns\\\":\" +\n"
      "                        std::to_string(turns) + \",\\\"max_processes\\\":\" + std::to_string(max_processes) + "
      "\"}]}\";\n"
      "  std::string err;\n"
      "  std::string got = Ask(command, request, &err);\n"
      "  ASSERT_TRUE(err.empty()) << command << \": \" << err;\n"
      "  char why[4096];\n"
      "  if (first_difference(expected, got.c_str(), why, sizeof why))\n"
      "    ADD_FAILURE() << why << \"\\n  expected: \" << expected << \"\\n  answer:   \" << got;\n"
      "}\n" +
      tests + "\n}  // namespace\n";
  Exported e;
  e.run = run;
  e.files.push_back({test + ".cpp", s});
  e.files.push_back({"README.md", readme(c, "a GoogleTest case for a runtime that speaks the backend protocol", run)});
  return e;
}

}  // namespace concord
