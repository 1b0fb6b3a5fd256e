// tests/oracle/readers_test.cpp: the text syntax (SPEC §12) and the JSON form
// (SPEC §13): what they read, and where they say a bad input is wrong.
#include <gtest/gtest.h>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"

using namespace concord;

namespace {

std::string text_error(const std::string& src) {
  try {
    parse_program(src);
  } catch (const InputError& e) {
    return e.where + "|" + e.what_is_wrong;
  }
  return "";
}

std::string json_error(const std::string& src) {
  try {
    Program p = program_from_json_text(src);
    check(p);
  } catch (const InputError& e) {
    return e.where + "|" + e.what_is_wrong;
  }
  return "";
}

// The value expression of `x = E;`, parsed alone.
Expr one_expr(const std::string& e) {
  Program p = parse_program("kind W() {\n state x: int = 0;\n on t(a: int) { x = " + e + "; }\n}\n");
  return p.kinds[0].handlers[0].body[0].exprs[0];
}

const std::string kMinimal = R"({"concord":1,"kinds":[{"name":"W","params":[],"state":[],"init":[],"handlers":[]}],)"
                             R"("system":[{"process":{"name":"w","kind":"W","args":[]}}],"given":[]})";

}  // namespace

TEST(TextSyntax, NegativeLiteralsVersusSubtraction) {
  Expr lit = one_expr("-5");
  EXPECT_EQ(lit.kind, ExprKind::Int);
  EXPECT_EQ(lit.value, -5);
  Expr neg = one_expr("- 5");
  EXPECT_EQ(neg.kind, ExprKind::Unary);
  Expr sub = one_expr("a-5");
  ASSERT_EQ(sub.kind, ExprKind::Binary);
  EXPECT_EQ(sub.op, Op::Sub);
  EXPECT_EQ(sub.args[1].value, 5);
  Expr sub_neg = one_expr("a - -5");
  ASSERT_EQ(sub_neg.kind, ExprKind::Binary);
  EXPECT_EQ(sub_neg.args[1].value, -5);
  EXPECT_EQ(one_expr("-9223372036854775808").value, INT64_MIN);
}

TEST(TextSyntax, PrecedenceAndAssociativity) {
  // a - 1 - 2 is (a - 1) - 2; 1 + 2 * 3 is 1 + (2 * 3); 1 | 2 ^ 3 & 4 == 5 is 1 | (2 ^ (3 & (4 == 5))).
  EXPECT_EQ(print_expr(one_expr("a - 1 - 2")), "a - 1 - 2");
  EXPECT_EQ(one_expr("a - 1 - 2").args[0].kind, ExprKind::Binary);
  EXPECT_EQ(one_expr("1 + 2 * 3").op, Op::Add);
  EXPECT_EQ(one_expr("1 | 2 ^ 3 & 4 == 5").op, Op::BOr);
  EXPECT_EQ(one_expr("1 << 2 + 3").op, Op::Shl);
  EXPECT_EQ(print_expr(one_expr("a - (1 - 2)")), "a - (1 - 2)");
  EXPECT_EQ(print_expr(one_expr("-(5)")), "-(5)");
  EXPECT_EQ(print_expr(one_expr("-(a + 1) * 2")), "-(a + 1) * 2");
}

TEST(TextSyntax, ElseIfIsANestedIf) {
  Program p =
      parse_program("kind W() {\n on t(a: int) { if a { stop; } else if a - 1 { stop; } else { fail X; } }\n}\n");
  const Stmt& s = p.kinds[0].handlers[0].body[0];
  ASSERT_EQ(s.orelse.size(), 1u);
  EXPECT_EQ(s.orelse[0].kind, StmtKind::If);
  EXPECT_EQ(s.orelse[0].orelse[0].kind, StmtKind::Fail);
}

TEST(TextSyntax, ErrorsNameLineAndColumn) {
  EXPECT_EQ(text_error("kind W() {\n  on t() { x = ; }\n}\n"), "2:16|expected an expression, got ';'");
  EXPECT_EQ(text_error("kind W() {\n  state x: float = 0;\n}\n"),
            "2:12|expected a type ('int' or 'addr'), got 'float'");
  EXPECT_EQ(text_error("kind W() {"), "1:11|expected 'state', 'init', 'on' or '}', got end of input");
  EXPECT_EQ(text_error("process $ = W();"), "1:9|unexpected character '$'");
  EXPECT_EQ(text_error("kind W() { on t() { x = 99999999999999999999; } }"),
            "1:25|integer literal 99999999999999999999 is out of the int64 range");
  EXPECT_EQ(text_error("kind state() {}"), "1:6|expected a kind name, got keyword 'state'");
  EXPECT_EQ(text_error("given t() to w;"), "1:14|expected the receiver as '@name', got 'w'");
}

TEST(TextSyntax, DeepNestingIsALocatedError) {
  std::string deep = "kind W() { state x: int = 0; on t() { x = " + std::string(100000, '(') + "1";
  EXPECT_NE(text_error(deep).find("nested deeper than 256 (a limit of the text syntax, SPEC §12.1)"), std::string::npos)
      << text_error(deep);
  std::string chain = "kind W() { state x: int = 0; on t() { x = 1";
  for (int i = 0; i < 100000; i++) chain += "+1";
  EXPECT_NE(text_error(chain).find("nested deeper than 64"), std::string::npos);
  std::string ifs = "kind W() { on t() { ";
  for (int i = 0; i < 100000; i++) ifs += "if 1 { ";
  EXPECT_NE(text_error(ifs).find("nested deeper than 64"), std::string::npos);
}

TEST(JsonForm, ReadsTheMinimalProgram) {
  EXPECT_EQ(json_error(kMinimal), "");
  Program p = program_from_json_text(kMinimal);
  EXPECT_EQ(program_to_json(p).dump(), kMinimal);
}

TEST(JsonForm, ErrorsNameTheJsonPointer) {
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = kMinimal;
    s.replace(s.find(from), from.size(), to);
    return json_error(s);
  };
  EXPECT_EQ(with(R"("concord":1)", R"("concord":3)"),
            "/concord|unsupported format version (this concord reads versions 1 and 2)");
  EXPECT_EQ(with(R"("init":[])", R"("init":[],"extra":1)"), "/kinds/0/extra|unknown key 'extra'");
  EXPECT_EQ(with(R"("params":[])", R"("params":{})"), "/kinds/0/params|expected an array, got object");
  EXPECT_EQ(with(R"("kind":"W")", R"("kind":"V")"), "/system/0/process|unknown kind 'V'");
  EXPECT_EQ(with(R"("name":"w")", R"("name":7)"), "/system/0/process/name|expected a string, got number");
  EXPECT_EQ(with(R"("handlers":[])", R"("handlers":[{"tag":"t","params":[],"body":[{"do":"jump"}]}])"),
            "/kinds/0/handlers/0/body/0/do|unknown statement 'jump'");
  EXPECT_EQ(with(R"("handlers":[])",
                 R"("handlers":[{"tag":"t","params":[],"body":[{"do":"repeat","count":1.5,"body":[]}]}])"),
            "/kinds/0/handlers/0/body/0/count|expected an integer, got the fraction 1.5");
  EXPECT_EQ(
      with(
          R"("handlers":[])",
          R"("handlers":[{"tag":"t","params":[],"body":[{"do":"assign","field":"x","value":{"op":"int","value":9223372036854775808}}]}])"),
      "/kinds/0/handlers/0/body/0/value/value|integer out of the int64 range");
  std::string trunc = json_error(kMinimal.substr(0, 40));
  EXPECT_EQ(trunc.substr(0, 5), "byte ");
  EXPECT_NE(trunc.find("malformed JSON"), std::string::npos);
}

TEST(JsonForm, DuplicateNamesAreFoundByTheChecker) {
  std::string s = kMinimal;
  s.replace(s.find("],"
                   "\"given\""),
            2, R"(,{"process":{"name":"w","kind":"W","args":[]}}],)");
  EXPECT_EQ(json_error(s), "/system/1/process|duplicate name 'w'");
}

TEST(JsonForm, DeepNestingIsALocatedError) {
  std::string deep = R"({"op":"neg","arg":)";
  std::string e;
  for (int i = 0; i < 200; i++) e += deep;
  e += R"({"op":"int","value":1})" + std::string(200, '}');
  std::string s = kMinimal;
  s.replace(s.find(R"("handlers":[])"), std::string(R"("handlers":[])").size(),
            R"("handlers":[{"tag":"t","params":[],"body":[{"do":"if","cond":)" + e + R"(,"then":[],"else":[]}]}])");
  std::string err = json_error(s);
  EXPECT_NE(err.find("nested deeper than 64"), std::string::npos) << err;
  EXPECT_EQ(err.substr(0, 32), "/kinds/0/handlers/0/body/0/cond/");
}

// --- version 2 (SPEC §14.1, §23) ----------------------------------------------------

namespace {

// Every form of §23.1 once.
const char* kTour2 = R"(concord 2;

kind Worker(peer: addr) {
    state why: reason = normal;
    state n: int = 0;
    init {
        trap_exit(1);
        link(peer);
        monitor(peer);
    }
    on exit(from: addr, w: reason) {
        why = w;
    }
    on down(who: addr, w: reason) {
        if w == noproc {
            stop shutdown;
        } else {
            stop;
        }
    }
    on ping(x: int) {
        reply x;
    }
    on go() {
        n = call ping(1) to peer;
        call ping(2) to peer;
        exit(peer, BOOM);
        exit(peer, kill);
        unlink(peer);
        demonitor(peer);
        n = restart_child(root, @w);
        terminate_child(root, supervisor inner);
        delete_child(root, supervisor inner);
        spawn Quitter() under root temporary significant;
        fail BOOM;
    }
}

kind Quitter() {
    init {
        ignore;
    }
}

supervisor root one_for_one intensity 5 auto_shutdown any_significant {
    permanent process w = Worker(@x);
    transient significant process t = Worker(@w);
    permanent supervisor inner one_for_all intensity 1000 {}
}

process x = Worker(@w);

given go() to @w;
given ping(3) to @x;
)";

}  // namespace

TEST(TextSyntax2, PrintsWhatItReadsAndJsonRoundTrips) {
  Program p = parse_program(kTour2);
  check(p);
  EXPECT_EQ(p.version, 2);
  EXPECT_EQ(print_program(p), kTour2);  // the printer writes exactly this form back
  Program q = program_from_json(program_to_json(p));
  EXPECT_EQ(q, p);
  EXPECT_EQ(program_to_json(q).dump(), program_to_json(p).dump());
}

TEST(TextSyntax2, HeaderAndStopNormal) {
  // `concord 1;` is version 1; `stop normal;` is `stop;` (§23.1).
  EXPECT_EQ(parse_program("concord 1;\nkind W() {}\n").version, 1);
  Program p = parse_program("concord 2;\nkind W() { on t() { stop normal; } }\n");
  EXPECT_TRUE(p.kinds[0].handlers[0].body[0].exprs.empty());
  EXPECT_EQ(program_to_json(p)["kinds"][0]["handlers"][0]["body"][0].dump(), R"({"do":"stop"})");
  EXPECT_EQ(text_error("concord 3;\n"), "1:9|unsupported version 3 (this concord reads versions 1 and 2)");
  EXPECT_EQ(text_error("concord 2\nkind W() {}"), "2:1|expected ';' after the version");
  // In version 2 the words of §23.1 are keywords.
  EXPECT_EQ(text_error("concord 2;\nprocess link = W();"), "2:9|expected a process name, got keyword 'link'");
}

// The version decides the lexing of the whole text (§14.1, §12.1): after the
// version 2 keyword `reply`, `-N` is a literal, INT64_MIN included (a found case:
// `concord gen --seed 18 --profile v2` printed one that did not read back).
TEST(TextSyntax2, AKeywordOfVersion2IsNoOperand) {
  Program p =
      parse_program("# a comment first\nconcord 2;\nkind W() { on t() { reply -9223372036854775808 >> 1; } }\n");
  const Expr& e = p.kinds[0].handlers[0].body[0].exprs[0];
  ASSERT_EQ(e.kind, ExprKind::Binary);
  EXPECT_EQ(e.args[0].kind, ExprKind::Int);
  EXPECT_EQ(e.args[0].value, INT64_MIN);
  EXPECT_EQ(parse_program(print_program(p)), p);
  // In version 1 `reply` is a name, so `reply -5` subtracts (a field named reply).
  Program q = parse_program("kind W() { state reply: int = 0; on t() { reply = reply -5; } }\n");
  EXPECT_EQ(q.kinds[0].handlers[0].body[0].exprs[0].op, Op::Sub);
}

TEST(JsonForm2, VersionTwoFormsAndTheirErrors) {
  const std::string base =
      R"({"concord":2,"kinds":[{"name":"W","params":[],"state":[],"init":[],"handlers":[{"tag":"t","params":[],"body":[BODY]}]}],)"
      R"("system":[{"supervisor":{"name":"s","strategy":"one_for_one","intensity":1,"children":[]}}],"given":[]})";
  auto with_body = [&](const std::string& body) {
    std::string s = base;
    s.replace(s.find("BODY"), 4, body);
    return json_error(s);
  };
  EXPECT_EQ(with_body(R"({"do":"exit","to":{"op":"self"},"kill":true})"), "");
  EXPECT_EQ(with_body(R"({"do":"exit","to":{"op":"self"},"kill":false})"),
            "/kinds/0/handlers/0/body/0/kill|expected true (leave the key out for false)");
  EXPECT_EQ(with_body(R"({"do":"exit","to":{"op":"self"}})"),
            "/kinds/0/handlers/0/body/0|an exit needs exactly one of 'reason' or 'kill'");
  EXPECT_EQ(with_body(R"({"do":"terminate_child","supervisor":"s","child":{"op":"self"},"child_supervisor":"s"})"),
            "/kinds/0/handlers/0/body/0|expected exactly one of 'child' or 'child_supervisor'");
  EXPECT_EQ(with_body(R"({"do":"stop","reason":{"op":"reason","value":"boom"}})"),
            "/kinds/0/handlers/0/body/0/reason|'boom' is not a reason: normal, shutdown, killed, noproc or a code "
            "[A-Z][A-Z0-9_]* (§15)");
  EXPECT_EQ(with_body(R"({"do":"spawn","kind":"W","args":[],"significant":true})"),
            "/kinds/0/handlers/0/body/0|'significant' needs 'under': only a supervisor's child is significant");
  // The same forms are unknown in a version 1 document (§14.2).
  std::string v1 = base;
  v1.replace(v1.find("BODY"), 4, R"({"do":"link","to":{"op":"self"}})");
  v1.replace(v1.find(R"("concord":2)"), 11, R"("concord":1)");
  EXPECT_EQ(json_error(v1), "/kinds/0/handlers/0/body/0/do|unknown statement 'link'");
}

// --- SPEC §13: numbers, duplicate keys; §4.13: nesting counted alike; §2: spawned names

namespace {

// kMinimal with one handler whose body is `stmt` (JSON), and state x: int.
std::string with_body(const std::string& stmt) {
  std::string s = kMinimal;
  s.replace(s.find(R"("state":[])"), std::string(R"("state":[])").size(),
            R"("state":[{"name":"x","type":"int","init":{"op":"int","value":0}}])");
  s.replace(s.find(R"("handlers":[])"), std::string(R"("handlers":[])").size(),
            R"("handlers":[{"tag":"t","params":[],"body":[)" + stmt + "]}]");
  return s;
}

// Parsed and checked: "" or the error.
std::string text_ok(const std::string& src) {
  try {
    Program p = parse_program(src);
    check(p);
    return std::string();
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

int64_t assigned(const std::string& value) {
  Program p =
      program_from_json_text(with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":)" + value + "}}"));
  check(p);
  return p.kinds[0].handlers[0].body[0].exprs[0].value;
}

}  // namespace

TEST(JsonForm, AnIntegerIsItsValueWhateverItsNotation) {
  EXPECT_EQ(assigned("100"), 100);
  EXPECT_EQ(assigned("100.0"), 100);
  EXPECT_EQ(assigned("1e2"), 100);
  EXPECT_EQ(assigned("1.00E+2"), 100);
  EXPECT_EQ(assigned("-5.0e0"), -5);
  EXPECT_EQ(assigned("-0.0"), 0);
  EXPECT_EQ(assigned("12500e-2"), 125);
  // Exactly, from the digits: a double would round these.
  EXPECT_EQ(assigned("9223372036854775807.0"), INT64_MAX);
  EXPECT_EQ(assigned("-9.223372036854775808e18"), INT64_MIN);
  EXPECT_EQ(assigned("9007199254740993.0"), 9007199254740993);
  std::string at = "/kinds/0/handlers/0/body/0/value/value|";
  EXPECT_EQ(json_error(with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":1.5}})")),
            at + "expected an integer, got the fraction 1.5");
  EXPECT_EQ(
      json_error(with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":9.223372036854775808e18}})")),
      at + "integer out of the int64 range");
  EXPECT_EQ(json_error(with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":1e30}})")),
            at + "integer 1e+30 out of the int64 range");
  EXPECT_EQ(json_error(
                with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":)" + std::string(150, '9') + "}}")),
            at + "integer 1e+150 out of the int64 range");
}

TEST(JsonForm, ANumberNoDoubleHoldsIsALocatedError) {
  std::string err = json_error(with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":1e400}})"));
  EXPECT_EQ(err.substr(0, err.find('|')), "/kinds/0/handlers/0/body/0/value/value") << err;
  EXPECT_NE(err.find("number out of range"), std::string::npos) << err;
  err = json_error(
      with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":-)" + std::string(400, '7') + "}}"));
  EXPECT_EQ(err.substr(0, err.find('|')), "/kinds/0/handlers/0/body/0/value/value") << err;
}

TEST(JsonForm, ADuplicateKeyIsALocatedError) {
  std::string s = kMinimal;
  s.replace(s.find(R"("name":"W")"), std::string(R"("name":"W")").size(), R"("name":"W","name":"V")");
  EXPECT_EQ(json_error(s), "/kinds/0/name|duplicate key 'name' (SPEC §13: each key at most once)");
  std::string given = kMinimal;  // the top-level "given", where the last one used to win
  given.replace(given.find(R"("given":[])"), std::string(R"("given":[])").size(),
                R"("given":[{"to":"w","tag":"t","args":[]}],"given":[])");
  EXPECT_EQ(json_error(given), "/given|duplicate key 'given' (SPEC §13: each key at most once)");
  std::string deep = with_body(R"({"do":"assign","field":"x","value":{"op":"int","value":1,"value":2}})");
  EXPECT_EQ(json_error(deep),
            "/kinds/0/handlers/0/body/0/value/value|duplicate key 'value' (SPEC §13: each key at most once)");
  std::string escaped = kMinimal;  // the pointer escapes '/' and '~' (RFC 6901)
  escaped.replace(escaped.find(R"("concord":1)"), std::string(R"("concord":1)").size(),
                  R"("a/b~":1,"a/b~":2,"concord":1)");
  EXPECT_EQ(json_error(escaped), "/a~1b~0|duplicate key 'a/b~' (SPEC §13: each key at most once)");
}

TEST(Nesting, TheTextAndTheJsonFormCountTheSameTree) {
  // A tree of 64 levels (63 negations of a literal) is valid in both forms, however
  // the text writes it: parentheses are not nodes.
  auto text_neg = [](int n, bool parens) {
    std::string e = "1";
    for (int i = 0; i < n; i++) e = parens ? "-(" + e + ")" : "- " + e;
    return "kind W() { state x: int = 0; on t() { x = " + e + "; } }";
  };
  auto json_neg = [](int n) {
    std::string e = R"({"op":"int","value":1})";
    for (int i = 0; i < n; i++) e = R"({"op":"neg","arg":)" + e + "}";
    return with_body(R"({"do":"assign","field":"x","value":)" + e + "}");
  };
  EXPECT_EQ(text_ok(text_neg(63, true)), "");
  EXPECT_EQ(text_ok(text_neg(63, false)), "");
  EXPECT_EQ(json_error(json_neg(63)), "");
  EXPECT_EQ(text_ok("kind W() { state x: int = 0; on t() { x = " + std::string(200, '(') + "1" + std::string(200, ')') +
                    "; } }"),
            "")
      << "redundant parentheses are not nesting";
  // 65 levels: rejected by both, as expression nesting.
  EXPECT_NE(text_ok(text_neg(64, true)).find("expression nested deeper than 64"), std::string::npos);
  EXPECT_NE(text_ok(text_neg(64, false)).find("expression nested deeper than 64"), std::string::npos);
  EXPECT_NE(json_error(json_neg(64)).find("expression nested deeper than 64"), std::string::npos);
  // A chain of binary operators counts its tree's height in both forms too.
  std::string chain = "1", json_chain = R"({"op":"int","value":1})";
  for (int i = 0; i < 63; i++) {
    chain += "+1";
    json_chain = R"({"op":"add","lhs":)" + json_chain + R"(,"rhs":{"op":"int","value":1}})";
  }
  EXPECT_EQ(text_ok("kind W() { state x: int = 0; on t() { x = " + chain + "; } }"), "");
  EXPECT_EQ(json_error(with_body(R"({"do":"assign","field":"x","value":)" + json_chain + "}")), "");
  EXPECT_NE(text_ok("kind W() { state x: int = 0; on t() { x = " + chain + "+1; } }").find("nested deeper than 64"),
            std::string::npos);
}

TEST(Nesting, SupervisorsNestAtMost64DeepInBothForms) {
  auto text_sups = [](int n) {
    std::string s = "kind W() { }\n";
    for (int i = 0; i < n; i++)
      s += (i ? "permanent " : "") + std::string("supervisor s") + std::to_string(i) + " one_for_one intensity 1 {\n";
    s += "permanent process w = W();\n";
    for (int i = 0; i < n; i++) s += "}\n";
    return s;
  };
  auto json_sups = [](int n) {
    std::string inner = R"({"restart":"permanent","process":{"name":"w","kind":"W","args":[]}})";
    std::string sup;
    for (int i = n - 1; i >= 0; i--) {
      sup = R"({"name":"s)" + std::to_string(i) + R"(","strategy":"one_for_one","intensity":1,"children":[)" + inner +
            "]}";
      inner = R"({"restart":"permanent","supervisor":)" + sup + "}";
    }
    return R"({"concord":1,"kinds":[{"name":"W","params":[],"state":[],"init":[],"handlers":[]}],"system":[{"supervisor":)" +
           sup + R"(}],"given":[]})";
  };
  EXPECT_EQ(text_ok(text_sups(64)), "");
  EXPECT_EQ(json_error(json_sups(64)), "");
  EXPECT_NE(text_ok(text_sups(65)).find("supervisors nested deeper than 64"), std::string::npos);
  EXPECT_NE(json_error(json_sups(65)).find("supervisors nested deeper than 64"), std::string::npos);
}

TEST(SpawnedNames, AKeywordLikeOrLongKindGivesValidAddresses) {
  // SPEC §2, §12.1: `Self` spawns self-1, written @self-1; a 32-character kind spawns
  // names of 34 characters and more; both are addr literals in both forms.
  std::string k32 = "K" + std::string(31, 'x');
  std::string lower32 = "k" + std::string(31, 'x');
  std::string src = "kind Self() { }\nkind " + k32 + "() { }\nkind W() { on t() { spawn Self(); spawn " + k32 +
                    "(); send t() to @self-1; send t() to @" + lower32 +
                    "-12; } }\nprocess w = W();\ngiven t() to @self-2;\n";
  Program p = parse_program(src);
  EXPECT_NO_THROW(check(p));
  std::string json = program_to_json(p).dump();
  EXPECT_NE(json.find(R"("value":"self-1")"), std::string::npos);
  EXPECT_EQ(json_error(json), "");
  EXPECT_NE(text_ok("kind W() { on t() { send t() to @self; } }").find("unknown process '@self'"), std::string::npos)
      << "@self alone is no process";
}
