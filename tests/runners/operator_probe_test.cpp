// tests/runners/operator_probe_test.cpp: the operator probe (runners/triage/
// operator_probe.hpp). The targets are the oracle in a dialect, so that which
// operator is wrong is chosen here: the probe must name exactly it, and nothing for
// a target whose operators are SPEC's.
#include <gtest/gtest.h>

#include "oracle/dialect.hpp"
#include "oracle/interpreter.hpp"
#include "runners/triage/operator_probe.hpp"
#include "tests/oracle/checked_program.hpp"

namespace concord {
namespace {

// -1 % 3 is -1 (§5): the condition holds and b sends nothing. With `<` unsigned it
// fails (as with `%` floored: 2 < 0), and b drops a message.
const char* kLtOfRem = R"(
kind K() {
    init {
        if -1 % 3 < 0 {
        } else {
            send go() to @nobody-1;
        }
    }
}
kind Nobody() { }
process b = K();
)";

AskTarget oracle_in(const char* id) {
  return [id](const Program& p, const RunSettings& s) -> std::optional<ojson> {
    Dialect d = id ? dialect_named(id, "test") : Dialect();
    return result_to_json(run(p, s, {}, nullptr, d));
  };
}

TEST(OperatorProbe, NamesTheOperatorComputedOtherwiseOnlyThat) {
  Program p = checked(kLtOfRem);
  RunSettings s{0, 0, 1};
  std::optional<std::set<std::string>> lt = operators_computed_otherwise(p, s, oracle_in("compare-unsigned"));
  ASSERT_TRUE(lt);
  EXPECT_EQ(*lt, (std::set<std::string>{"lt"}));
  std::optional<std::set<std::string>> rem = operators_computed_otherwise(p, s, oracle_in("rem-floored"));
  ASSERT_TRUE(rem);
  EXPECT_EQ(*rem, (std::set<std::string>{"rem"}));
}

TEST(OperatorProbe, NothingForSpecsOperators) {
  std::optional<std::set<std::string>> none =
      operators_computed_otherwise(checked(kLtOfRem), RunSettings{0, 0, 1}, oracle_in(nullptr));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

// A division by zero fails on SPEC's side only when the target's gives 0.
TEST(OperatorProbe, ADivisionByZeroIsProbedOnItsOwn) {
  Program p =
      checked("kind K() { state x: int = 0; on go(a: int) { x = 7 / a; } }\nprocess k = K();\ngiven go(0) to @k;\n");
  std::optional<std::set<std::string>> div =
      operators_computed_otherwise(p, RunSettings{0, 1, 1}, oracle_in("div-by-zero-is-zero"));
  ASSERT_TRUE(div);
  EXPECT_EQ(*div, (std::set<std::string>{"div"}));
}

// The value of a ready count is no operator's: the probe clears a §5 blame and
// names the scheduler.
TEST(OperatorProbe, AValueNoOperatorComputedOtherwiseIsTracedToItsOrigin) {
  Program p = checked("kind A() { on hi() { } }\nprocess a = A();\ngiven hi() to @a;\n");
  RunSettings s{0, 5, 1};
  ojson oracle = result_to_json(run(p, s));
  ojson got = oracle;
  got["journal"][1]["ready"] = 0;
  std::optional<std::string> r = probed_value_rule(p, oracle, got, "§5 add", oracle_in(nullptr));
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, "§8.2 draw");
}

}  // namespace
}  // namespace concord
