// tests/oracle/check_test.cpp: each validity rule of SPEC §4 rejects what it
// should, at the place it should, and accepts its boundary case.
#include <gtest/gtest.h>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/text.hpp"

using namespace concord;

namespace {

// Parses and checks; returns "" if valid, else "where|message".
std::string verdict(const std::string& src) {
  try {
    Program p = parse_program(src);
    check(p);
    return "";
  } catch (const InputError& e) {
    return e.where + "|" + e.what_is_wrong;
  }
}

void rejects(const std::string& src, const std::string& where, const std::string& fragment) {
  std::string v = verdict(src);
  ASSERT_FALSE(v.empty()) << "accepted:\n" << src;
  EXPECT_EQ(v.substr(0, v.find('|')), where) << v;
  EXPECT_NE(v.find(fragment), std::string::npos) << v;
}

const char* kWorker = "kind W(n: int) {\n state x: int = n;\n on t(a: int) { x = a; }\n}\n";

}  // namespace

TEST(Check, AcceptsAMinimalProgram) { EXPECT_EQ(verdict(std::string(kWorker) + "process w = W(1);\n"), ""); }

TEST(Check, NameForms) {
  rejects("kind w() {}\n", "1:1", "must match [A-Z]");
  rejects("kind W() {}\nprocess Big = W();\n", "2:1", "must match [a-z]");
  rejects("kind W() {}\nprocess a_very_long_name_that_goes_beyond_32 = W();\n", "2:1", "longer than 32");
  rejects("kind Ab() {}\nkind AB() {}\n", "2:1", "duplicate kind");
  rejects("kind W() {}\nprocess a = W();\nsupervisor a one_for_one intensity 1 {}\n", "3:1", "duplicate name 'a'");
}

TEST(Check, ScopesAreDisjointAndResolved) {
  rejects("kind W(n: int) {\n state n: int = 0;\n}\n", "2:2", "declared twice");
  rejects("kind W(n: int) {\n on t(n: int) {}\n}\n", "2:7", "already a parameter");
  rejects("kind W() {\n on t() { y = 1; }\n}\n", "2:11", "unknown state field 'y'");
  rejects("kind W() {\n state x: int = 0;\n on t() { x = z; }\n}\n", "3:15", "unknown variable 'z'");
  // State initialisers see parameters only, not other fields.
  rejects("kind W() {\n state x: int = 0;\n state y: int = x;\n}\n", "3:17", "unknown variable 'x'");
}

TEST(Check, ExpressionTypes) {
  rejects("kind W() {\n state x: int = 0;\n on t() { x = self + 1; }\n}\n", "3:15", "operand of '+' must be int");
  rejects("kind W() {\n state x: int = 0;\n on t() { x = self == 1; }\n}\n", "3:20", "compares addr with int");  // at the operator
  rejects("kind W() {\n state x: int = 0;\n on t() { x = self; }\n}\n", "3:11", "'x' is int, assigned addr");
  rejects("kind W() {\n on t() { if self {} }\n}\n", "2:14", "condition must be int");
  rejects("kind W() {\n on t() { send t() to 5; }\n}\n", "2:23", "receiver of 'send' must be addr");
  EXPECT_EQ(verdict("kind W() {\n state x: int = 0;\n on t(a: addr) { x = self == a; }\n}\n"), "");
}

TEST(Check, AddrLiteralsNameWorkersOrSpawnedForms) {
  std::string base = "kind W() {\n on t() { send t() to @";
  EXPECT_EQ(verdict(base + "w; }\n}\nprocess w = W();\n"), "");
  EXPECT_EQ(verdict(base + "w-7; }\n}\n"), "");
  rejects(base + "nobody; }\n}\n", "2:23", "unknown process '@nobody'");
  rejects(base + "w-0; }\n}\n", "2:23", "unknown process");
  rejects(base + "s; }\n}\nsupervisor s one_for_one intensity 0 {}\n", "2:23", "names a supervisor");
}

TEST(Check, ParametersAreReadOnly) {
  rejects("kind W(n: int) {\n on t() { n = 1; }\n}\n", "2:11", "'n' is a parameter");
}

TEST(Check, SpawnArgumentsBindAndSupervisor) {
  rejects("kind W(n: int) {\n on t() { spawn W(); }\n}\n", "2:11", "takes 1 arguments, given 0");
  rejects("kind W(n: int) {\n on t() { spawn W(self); }\n}\n", "2:19", "must be int, is addr");
  rejects("kind W() {\n state x: int = 0;\n on t() { x = spawn W(); }\n}\n", "3:11", "must be addr");
  rejects("kind W() {\n on t() { spawn V(); }\n}\n", "2:11", "unknown kind 'V'");
  rejects("kind W() {\n on t() { spawn W() under nowhere permanent; }\n}\n", "2:11", "unknown supervisor");
}

TEST(Check, RepeatBoundsAndWeight) {
  EXPECT_EQ(verdict("kind W() {\n on t() { repeat 1000 {} }\n}\n"), "");
  rejects("kind W() {\n on t() { repeat 1001 {} }\n}\n", "2:11", "outside 0..1000");
  rejects("kind W() {\n on t() { repeat -1 {} }\n}\n", "2:11", "outside 0..1000");
  // 1 + 1000 * (1 + 1000 * 1) = 1,001,001 > 100,000
  rejects("kind W() {\n on t() { repeat 1000 { repeat 1000 { stop; } } }\n}\n", "2:2", "more than 100000");
  // 1 + 100 * (1 + 998 * 1) = 99,901 <= 100,000
  EXPECT_EQ(verdict("kind W() {\n on t() { repeat 100 { repeat 998 { stop; } } }\n}\n"), "");
}

TEST(Check, InitCannotFail) {
  rejects("kind W() {\n init { stop; }\n}\n", "2:9", "not allowed in init");
  rejects("kind W() {\n init { fail X; }\n}\n", "2:9", "not allowed in init");
  rejects("kind W() {\n init { spawn W(); }\n}\n", "2:9", "not allowed in init");
  rejects("kind W(n: int) {\n state x: int = 0;\n init { x = 5 / n; }\n}\n", "3:15", "non-zero integer literal");
  rejects("kind W(n: int) {\n state x: int = 7 % 0;\n}\n", "2:19", "non-zero integer literal");
  EXPECT_EQ(verdict("kind W(n: int) {\n state x: int = n / -1;\n init { x = x % 3; }\n}\n"), "");
}

TEST(Check, DeclaredArgumentsAreConstants) {
  rejects("kind W(n: int) {}\nprocess w = W(1 + 1);\n", "2:17", "must be constants");
  rejects("kind W(n: int) {}\nprocess w = W(-(1));\n", "2:15", "must be constants");
  rejects("kind W(n: int) {}\nprocess w = W(@w);\n", "2:15", "must be int, is addr");
  EXPECT_EQ(verdict("kind W(n: int) {}\nprocess w = W(-9223372036854775808);\n"), "");
}

TEST(Check, GivenMessages) {
  rejects(std::string(kWorker) + "given t(1) to @nobody;\n", "5:1", "unknown process");
  rejects(std::string(kWorker) + "process w = W(1);\ngiven t(self) to @w;\n", "6:9", "must be constants");
  EXPECT_EQ(verdict(std::string(kWorker) + "given t(1) to @w-1;\n"), "");
}

TEST(Check, FailureCodes) {
  rejects("kind W() {\n on t() { fail oops; }\n}\n", "2:11", "must match [A-Z][A-Z0-9_]*");
  rejects("kind W() {\n on t() { fail DIV_ZERO; }\n}\n", "2:11", "runtime failure code");
}

TEST(Check, HandlersAndArity) {
  rejects("kind W() {\n on t() {}\n on t(a: int) {}\n}\n", "3:2", "two handlers for 't'");
  std::string args;
  for (int i = 0; i < 17; i++) args += (i ? ", " : "") + std::string("a") + std::to_string(i) + ": int";
  rejects("kind W() {\n on t(" + args + ") {}\n}\n", "2:2", "more than 16");
}

TEST(Check, NegativeIntensity) {
  rejects("supervisor s one_for_one intensity -1 {}\n", "1:1", "at least 0");
}

// --- version 2 (SPEC §14.2, §14.3 rules V1-V13) -------------------------------------

namespace {

std::string v2(const std::string& body) { return "concord 2;\n" + body; }

}  // namespace

TEST(CheckV2, VersionOneKeepsItsWordsAndRejectsVersionTwoForms) {
  // §14.2: in version 1 the words of version 2 are ordinary names and only the
  // four runtime codes are reserved.
  EXPECT_EQ(verdict("kind W() {\n state link: int = 0;\n on exit() { fail NORMAL; }\n}\nprocess call = W();\n"), "");
  // A program model with version 2 forms but version 1 is rejected by the checker.
  Program p = parse_program(v2("kind W() { on t() { link(self); } }\n"));
  p.version = 1;
  try {
    check(p);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is version 2"), std::string::npos) << e.what();
  }
}

TEST(CheckV2, V1ReasonTypeAndLiterals) {
  EXPECT_EQ(verdict(v2("kind W(r: reason) {\n state s: reason = r;\n on t(x: reason) { s = x; }\n}\n"
                       "process w = W(BOOM);\ngiven t(killed) to @w;\n")),
            "");
  rejects(v2("kind W() {\n state s: reason = Boom;\n}\n"), "3:20", "not a reason");
  rejects(v2("kind W() {\n state s: reason = 0;\n}\n"), "3:2", "'s' is reason, initialised with int");
  rejects("kind W(r: reason) {}\n", "1:11", "expected a type");  // text: version 1 has no such word
}

TEST(CheckV2, V2ReservedCodes) {
  for (const char* code : {"NORMAL", "SHUTDOWN", "KILLED", "CALLING_SELF", "BAD_REPLY", "NOPROC"})
    rejects(v2(std::string("kind W() {\n on t() { fail ") + code + "; }\n}\n"), "3:11", "runtime failure code");
  // Reason literals may name them.
  EXPECT_EQ(verdict(v2("kind W() {\n state s: int = 0;\n on t(r: reason) { s = r == NOPROC; }\n}\n")), "");
}

TEST(CheckV2, V3SystemHandlers) {
  EXPECT_EQ(verdict(v2("kind W() {\n on exit(f: addr, r: reason) {}\n on down(d: addr, r: reason) {}\n}\n")), "");
  rejects(v2("kind W() {\n on exit(f: addr, r: int) {}\n}\n"), "3:2", "takes exactly (from: addr, why: reason)");
  rejects(v2("kind W() {\n on down(d: addr) {}\n}\n"), "3:2", "takes exactly (who: addr, why: reason)");
  Program p = parse_program(v2("kind W() { on t() { send x() to self; } }\n"));
  p.kinds[0].handlers[0].body[0].name = "exit";  // JSON could say so
  try {
    check(p);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a keyword"), std::string::npos) << e.what();
  }
}

TEST(CheckV2, V4V5WhatInitMayContain) {
  EXPECT_EQ(verdict(v2("kind W(n: int) {\n state x: int = 1 / n;\n init { trap_exit(1); link(self); monitor(self); "
                       "unlink(self); demonitor(self); if n { stop; } if x { fail BAD; } ignore; }\n}\n")),
            "");
  rejects(v2("kind W() {\n init { spawn W(); }\n}\n"), "3:9", "not allowed in init (§14.3 V4)");
  rejects(v2("kind W() {\n init { exit(self, BOOM); }\n}\n"), "3:9", "not allowed in init (§14.3 V4)");
  rejects(v2("kind W() {\n init { terminate_child(s, self); }\n}\nsupervisor s one_for_one intensity 1 {}\n"), "3:9",
          "not allowed in init");
  rejects(v2("kind W() {\n init { call t() to self; }\n}\n"), "3:9", "only allowed in handlers");
  rejects(v2("kind W() {\n init { reply 1; }\n}\n"), "3:9", "only allowed in handlers");
  rejects(v2("kind W() {\n on t() { ignore; }\n}\n"), "3:11", "only allowed in init");
}

TEST(CheckV2, V6OperandTypes) {
  rejects(v2("kind W() {\n on t() { stop 1; }\n}\n"), "3:16", "the reason of 'stop' must be reason");
  rejects(v2("kind W() {\n on t() { link(1); }\n}\n"), "3:16", "must be addr");
  rejects(v2("kind W() {\n on t() { trap_exit(self); }\n}\n"), "3:21", "must be int");
  rejects(v2("kind W() {\n on t() { exit(self, 1); }\n}\n"), "3:22", "the reason of 'exit' must be reason");
  EXPECT_EQ(verdict(v2("kind W() {\n on t() { exit(self, kill); reply self; reply 1; reply NOPROC; }\n}\n")), "");
}

TEST(CheckV2, V7Calls) {
  EXPECT_EQ(verdict(v2("kind W() {\n state r: reason = normal;\n on t() { r = call q(1, self) to self; }\n}\n")), "");
  rejects(v2("kind W() {\n on t() { call q() to 1; }\n}\n"), "3:23", "the callee of 'call' must be addr");
  rejects(v2("kind W() {\n on t() { y = call q() to self; }\n}\n"), "3:11", "unknown state field 'y'");
}

TEST(CheckV2, V8Api) {
  std::string sups = "supervisor s one_for_one intensity 1 { permanent supervisor t one_for_one intensity 1 {} }\n";
  EXPECT_EQ(verdict(v2("kind W() {\n state r: int = 0;\n on t() { r = restart_child(s, supervisor t); "
                       "delete_child(s, self); }\n}\n" + sups)),
            "");
  rejects(v2("kind W() {\n on t() { terminate_child(nope, self); }\n}\n" + sups), "3:11", "unknown supervisor 'nope'");
  rejects(v2("kind W() {\n on t() { terminate_child(s, supervisor w); }\n}\n" + sups), "3:11", "unknown supervisor 'w'");
  rejects(v2("kind W() {\n on t() { terminate_child(s, 1); }\n}\n" + sups), "3:30", "must be addr");
  rejects(v2("kind W() {\n state r: addr = self;\n on t() { r = terminate_child(s, self); }\n}\n" + sups), "4:11",
          "so it must be int");
}

TEST(CheckV2, V9V10SignificantChildren) {
  EXPECT_EQ(verdict(v2("kind W() {}\nsupervisor s one_for_one intensity 1 auto_shutdown all_significant {\n"
                       " transient significant process a = W();\n temporary significant process b = W();\n}\n")),
            "");
  rejects(v2("kind W() {}\nsupervisor s one_for_one intensity 1 auto_shutdown any_significant {\n"
             " permanent significant process a = W();\n}\n"),
          "4:24", "transient or temporary");
  rejects(v2("kind W() {}\nsupervisor s one_for_one intensity 1 {\n transient significant process a = W();\n}\n"), "4:24",
          "auto_shutdown never");
  rejects(v2("kind W() {\n on t() { spawn W() under s transient significant; }\n}\n"
             "supervisor s one_for_one intensity 1 {}\n"),
          "3:11", "auto_shutdown never");
  rejects(v2("kind W() {\n on t() { spawn W() under s permanent significant; }\n}\n"
             "supervisor s one_for_one intensity 1 auto_shutdown any_significant {}\n"),
          "3:11", "transient or temporary");
}

TEST(CheckV2, V13Intensity) {
  EXPECT_EQ(verdict(v2("supervisor s one_for_one intensity 1000 {}\n")), "");
  rejects(v2("supervisor s one_for_one intensity 1001 {}\n"), "2:1", "above 1000");
  EXPECT_EQ(verdict("supervisor s one_for_one intensity 1001 {}\n"), "");  // version 1: no bound
}
