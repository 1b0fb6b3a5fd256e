// tests/targets/emit_js_test.cpp: the JavaScript emitter (targets/js/emitter). Every
// corpus program's JavaScript loads on node with the runtime's prelude, as the host
// loads it, and gives the tables the host expects; handlers, kinds and the
// system's tables are printed as the mapping table of targets/js/README.md says (the
// expected lines are derived by hand from it); ints are in the runtime's canonical
// form (a Number in the safe range, a BigInt outside). Needs node: fails without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "oracle/check.hpp"
#include "oracle/text.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/js/emitter/emit_js.hpp"
#include "tests/oracle/checked_program.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

// The text of a function: from the line "function HEAD" to the first line "}".
std::string function_text(const std::string& js, const std::string& head) {
  size_t at = js.find("function " + head);
  if (at == std::string::npos) return "(no " + head + ")";
  size_t end = js.find("\n}\n", at);
  return js.substr(at, end + 3 - at);
}

std::string lines(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

std::string sig(const Program& p, const std::string& tag) {
  for (size_t i = 0; i < p.sigs.size(); i++)
    if (p.sigs[i].tag == tag) return std::to_string(i);
  return "(no signature " + tag + ")";
}

std::string name(const Program& p, const std::string& n) {
  for (size_t i = 0; i < p.names.size(); i++)
    if (p.names[i] == n) return std::to_string(i);
  return "(no name " + n + ")";
}

}  // namespace

// As host.js loads a program (the runtime's loader.js: a fresh context, the prelude,
// then the program); it must return the tables.
TEST(EmitJs, EveryCorpusProgramLoadsWithThePrelude) {
  std::vector<std::string> programs;
  for (const auto& e : fs::directory_iterator(std::string(build_paths::source_dir) + "/corpus/hand"))
    if (e.path().extension() == ".conc") programs.push_back(e.path().string());
  std::sort(programs.begin(), programs.end());
  ASSERT_GE(programs.size(), 30u);
  TempDir dir("concord-emit-js");
  std::string files;
  for (size_t i = 0; i < programs.size(); i++) {
    std::string f = dir.path() + "/p" + std::to_string(i) + ".js";
    std::ofstream(f) << emit_js(load_program(programs[i]));
    files += "'" + f + "', ";
  }
  std::string script = R"(
const fs = require('fs');
const { load } = require(')" +
                       std::string(build_paths::js_runtime) +
                       R"(/loader.js');
for (const f of [)" + files +
                       R"(]) {
  try {
    const p = load(fs.readFileSync(f, 'utf8'));
    const ok = Array.isArray(p.names) && Array.isArray(p.sigs) && Array.isArray(p.kinds) && Array.isArray(p.sups) &&
               Array.isArray(p.roots) && Array.isArray(p.given) && p.kinds.every((k) => typeof k.state === 'function');
    console.log(ok ? 'ok' : 'bad tables: ' + f);
  } catch (e) {
    console.log('error: ' + f + ': ' + e);
  }
}
)";
  CommandResult r = run_command(Command{{"node", "-e", script}, {}, "", {}}, "", 120);
  EXPECT_EQ(r.status.code, 0) << r.err;
  std::string want;
  for (size_t i = 0; i < programs.size(); i++) want += "ok\n";
  EXPECT_EQ(r.out, want) << "programs: " << files;
}

TEST(EmitJs, NeedsACheckedProgram) {
  Program p = parse_program("kind K() { }\n");
  EXPECT_THROW(emit_js(p), std::logic_error);
}

// The mapping table of the README, by hand: s, q, m are the state fields, the
// parameters and the message's arguments; x is s[0], peer s[1].
TEST(EmitJs, HandlersFollowTheMappingTable) {
  Program p = checked(R"(
kind K(p: int) {
    state x: int = p;
    state peer: addr = self;
    on go(n: int, dst: addr) {
        x = x + n;
        if x > 10 { send big(x) to dst; } else { x = 0; }
        repeat 2 { repeat 3 { x = x * 2; } }
        send done() to peer;
    }
    on idle(n: int) { stop; }
    on quit() { peer = spawn K(-9223372036854775808); fail QUIT; }
    on more() { spawn K(9007199254740992) under top transient; }
}
supervisor top one_for_one intensity 1 { }
process k = K(-3);
)");
  std::string js = emit_js(p);
  EXPECT_EQ(function_text(js, "k0_state("),
            lines({"function k0_state(p) {", "    const q = p.params;", "    return [q[0], p.name];", "}"}));
  EXPECT_EQ(function_text(js, "k0_h0("), lines({
                                             "function k0_h0(p, m) {",
                                             "    const s = p.state, q = p.params;",
                                             "    s[0] = add(s[0], m[0]);",
                                             "    if (gt(s[0], 10) !== 0) {",
                                             "        rt.send(p, m[1], " + sig(p, "big") + ", [s[0]]);",
                                             "    } else {",
                                             "        s[0] = 0;",
                                             "    }",
                                             "    for (let r1 = 0; r1 < 2; r1++) {",
                                             "        for (let r2 = 0; r2 < 3; r2++) {",
                                             "            s[0] = mul(s[0], 2);",
                                             "        }",
                                             "    }",
                                             "    rt.send(p, s[1], " + sig(p, "done") + ", NOARGS);",
                                             "}",
                                         }));
  EXPECT_EQ(function_text(js, "k0_h1("),
            lines({"function k0_h1(p, m) {", "    const s = p.state, q = p.params;", "    rt.stop();", "}"}));
  EXPECT_EQ(function_text(js, "k0_h2("), lines({
                                             "function k0_h2(p, m) {",
                                             "    const s = p.state, q = p.params;",
                                             "    s[1] = rt.spawn(p, 0, [(-9223372036854775808n)], -1, 0);",
                                             "    rt.fail(\"QUIT\");",
                                             "}",
                                         }));
  EXPECT_EQ(function_text(js, "k0_h3("), lines({
                                             "function k0_h3(p, m) {",
                                             "    const s = p.state, q = p.params;",
                                             "    rt.spawn(p, 0, [9007199254740992n], 0, 1);",
                                             "}",
                                         }));
  // Handlers by signature id; signatures no handler of K matches are null.
  std::vector<std::string> handlers(p.sigs.size(), "null");
  handlers[std::stoul(sig(p, "go"))] = "k0_h0";
  handlers[std::stoul(sig(p, "idle"))] = "k0_h1";
  handlers[std::stoul(sig(p, "quit"))] = "k0_h2";
  handlers[std::stoul(sig(p, "more"))] = "k0_h3";
  std::string hs;
  for (const std::string& h : handlers) hs += (hs.empty() ? "" : ", ") + h;
  EXPECT_NE(js.find("        {name: \"K\", prefix: \"k-\", fields: [\"x\", \"peer\"], types: [0, 1], state: k0_state, "
                    "init: k0_init, handlers: [" +
                    hs + "]},\n"),
            std::string::npos)
      << js;
  EXPECT_NE(js.find("        {tag: \"go\", types: [0, 1]},\n"), std::string::npos) << js;
  EXPECT_NE(js.find("    roots: [\n        {sup: 0, name: " + name(p, "top") +
                    ", kind: -1, args: NOARGS, restart: 0},\n        {sup: -1, name: " + name(p, "k") +
                    ", kind: 0, args: [(-3)], restart: 0},\n    ],\n"),
            std::string::npos)
      << js;
}

// Supervisors by pre-order index, each with its parent's index and its static
// children as rows of one shape; the given messages with constant arguments.
TEST(EmitJs, SupervisorsAndGivenMessagesAreTables) {
  Program p = checked(R"(
kind W(n: int, peer: addr) { on go() { } }
supervisor top rest_for_one intensity 2 {
    permanent process a = W(-9223372036854775808, @b);
    transient supervisor inner one_for_all intensity 0 {
        temporary process b = W(7, @w-2);
    }
}
given go() to @a;
given go(1, @w-3) to @b;
)");
  std::string js = emit_js(p);
  std::string a = name(p, "a"), b = name(p, "b"), top = name(p, "top"), inner = name(p, "inner");
  EXPECT_NE(js.find("    sups: [\n        {name: " + top +
                    ", strategy: 2, intensity: 2, parent: -1, children: [{sup: -1, "
                    "name: " +
                    a + ", kind: 0, args: [(-9223372036854775808n), " + b + "], restart: 0}, {sup: 1, name: " + inner +
                    ", kind: -1, args: NOARGS, restart: 1}]},\n        {name: " + inner +
                    ", strategy: 1, intensity: 0, parent: 0, children: [{sup: -1, name: " + b +
                    ", kind: 0, args: [7, " + name(p, "w-2") + "], restart: 2}]},\n    ],\n"),
            std::string::npos)
      << js;
  EXPECT_NE(js.find("    given: [\n        {to: " + a + ", sig: " + sig(p, "go") + ", args: NOARGS},\n        {to: " +
                    b + ", sig: " + std::to_string(p.given[1].sig) + ", args: [1, " + name(p, "w-3") + "]},\n    ],\n"),
            std::string::npos)
      << js;
}

// The safe range's edges: a Number up to 2^53 - 1, a BigInt literal past it.
TEST(EmitJs, IntsAreNumbersInTheSafeRangeAndBigIntsOutside) {
  Program p = checked(R"(
kind K() {
    state a: int = 9007199254740991;
    state b: int = 9007199254740992;
    state c: int = -9007199254740991;
    state d: int = -9007199254740992;
    state e: int = 9223372036854775807;
}
process k = K();
)");
  EXPECT_EQ(function_text(emit_js(p), "k0_state("),
            lines({"function k0_state(p) {", "    const q = p.params;",
                   "    return [9007199254740991, 9007199254740992n, (-9007199254740991), (-9007199254740992n), "
                   "9223372036854775807n];",
                   "}"}));
}
