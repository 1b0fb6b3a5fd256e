// tests/oracle/printable_test.cpp: printable() (oracle/printable.hpp), the one
// escaping of input quoted in messages, and InputError applying it to every
// message a reader or the checker gives.
#include <gtest/gtest.h>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/printable.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"

using namespace concord;

TEST(Printable, ControlAndInvisibleCharactersAreEscaped) {
  EXPECT_EQ(printable("plain name_1 -> é, 名前, §4"), "plain name_1 -> é, 名前, §4");
  EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable(std::string("nul\0esc\x1b del\x7f", 13)), "nul\\x00esc\\x1b del\\x7f");
  EXPECT_EQ(printable("x\u202Eevil"), "x\\u{202e}evil");  // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(printable("\u2066i\u2069 \u200Bz\u200D \u2028 \uFEFF \u0085"),
            "\\u{2066}i\\u{2069} \\u{200b}z\\u{200d} \\u{2028} \\u{feff} \\u{85}");
  EXPECT_EQ(printable("bad \xff\xfe utf8 \xc3"), "bad \\xff\\xfe utf8 \\xc3");
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "a surrogate is not UTF-8";
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf") << "an overlong form is not UTF-8";
  std::string once = printable("a\n\u202Eb\\");
  EXPECT_EQ(printable(once), once) << "escaping twice changes nothing";
}

TEST(Printable, EveryInputErrorIsPrintable) {
  InputError e("file\n.conc:1:2", "kind name 'A\u202Eb' is bad\n");
  EXPECT_EQ(std::string(e.what()), "file\\n.conc:1:2: kind name 'A\\u{202e}b' is bad\\n");
  EXPECT_EQ(e.where, "file\\n.conc:1:2");
  // From the readers and the checker, with input that tries to break the line.
  try {
    Program p = program_from_json_text(
        R"({"concord":1,"kinds":[{"name":"Evil\n\u202eKind","params":[],"state":[],"init":[],"handlers":[]}],"system":[],"given":[]})");
    check(p);
    FAIL() << "accepted";
  } catch (const InputError& err) {
    std::string what = err.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("Evil\\n\\u{202e}Kind"), std::string::npos) << what;
  }
  try {
    program_from_json_text(R"({"concord":1,"kinds":[],"system":[],"given":[],"\u202e\n":1})");
    FAIL() << "accepted";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("unknown key '\\u{202e}\\n'"), std::string::npos) << err.what();
  }
}
