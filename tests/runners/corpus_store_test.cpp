// tests/runners/corpus_store_test.cpp: storing cases (runners/campaign/corpus_store.hpp): what
// a stored file holds and that it loads back, one case per signature keeping the
// smaller program, merging corpora without duplicates, and a corrupt input that
// stops a merge before anything is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/process/subprocess.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

const char* kSmall = R"(kind K() { on go() { fail BOOM; } }
process m = K();
given go() to @m;
)";
const char* kBig = R"(kind K() {
  state n: int = 0;
  on go() { n = n + 1; send tick() to self; fail BOOM; }
  on tick() { n = 2; }
}
process m = K();
process other = K();
given go() to @m;
given go() to @other;
)";

NewCase make(const char* source, const std::string& signature) {
  Program p = program_from_source(source, "test");
  NewCase c;
  c.about = "a test case";
  c.program = program_to_json(p);
  RunSettings r{7, 100, 10};
  c.runs.push_back(CaseRun{r, oracle_answer(p, r).json});
  c.signature = signature;
  c.found = ojson{{"campaign_seed", 1}, {"case", 2}};
  return c;
}

size_t count_cases(const std::string& dir) { return find_cases(dir).size(); }

}  // namespace

TEST(CorpusStore, StoredCaseLoadsBackWithEverything) {
  TempDir dir("concord-store");
  Stored s = store_case(dir.path(), make(kSmall, "c:outcome"));
  ASSERT_TRUE(s.written);
  EXPECT_EQ(fs::path(s.path).filename().string(), case_name_for("c:outcome") + ".case.json");
  Case c = load_case(s.path);
  EXPECT_EQ(c.name, case_name_for("c:outcome"));
  EXPECT_EQ(c.signature, "c:outcome");
  EXPECT_EQ(c.status, "regression");
  EXPECT_EQ(c.found["case"], 2);
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.runs[0].settings.seed, 7u);
  EXPECT_EQ(c.runs[0].expect, oracle_answer(c.program, c.runs[0].settings).json);
  for (const auto& e : fs::directory_iterator(dir.path()))  // no temporary file left behind
    EXPECT_NE(e.path().string().find(".case.json"), std::string::npos) << e.path();
}

TEST(CorpusStore, ASignatureKeepsTheSmallerProgram) {
  TempDir dir("concord-store");
  ASSERT_TRUE(store_case(dir.path(), make(kBig, "c:outcome")).written);
  Stored smaller = store_case(dir.path(), make(kSmall, "c:outcome"));
  EXPECT_TRUE(smaller.written);
  Stored bigger = store_case(dir.path(), make(kBig, "c:outcome"));
  EXPECT_FALSE(bigger.written);
  EXPECT_EQ(bigger.path, smaller.path);
  EXPECT_EQ(count_cases(dir.path()), 1u);
  EXPECT_EQ(load_case(smaller.path).program, program_from_source(kSmall, "test"));
  store_case(dir.path(), make(kBig, "erlang:outcome"));
  EXPECT_EQ(count_cases(dir.path()), 2u);
  EXPECT_EQ(corpus_signatures(dir.path()).size(), 2u);
}

TEST(CorpusStore, MergeJoinsWithoutDuplicates) {
  TempDir a("concord-a"), b("concord-b"), out("concord-out");
  store_case(a.path(), make(kBig, "c:outcome"));
  store_case(a.path(), make(kSmall, "erlang:journal/deliver/to"));
  store_case(b.path(), make(kSmall, "c:outcome"));
  store_case(b.path(), make(kSmall, "c:alive/state"));
  MergeReport r = merge_corpora(out.path(), {a.path(), b.path()});
  EXPECT_EQ(r.added, 3u);
  EXPECT_EQ(r.replaced, 1u);  // b's c:outcome is smaller than a's
  EXPECT_EQ(count_cases(out.path()), 3u);
  EXPECT_EQ(load_case((fs::path(out.path()) / (case_name_for("c:outcome") + ".case.json")).string()).program,
            program_from_source(kSmall, "test"));
  MergeReport again = merge_corpora(out.path(), {a.path(), b.path()});
  EXPECT_EQ(again.added, 0u);
  EXPECT_EQ(count_cases(out.path()), 3u);
}

TEST(CorpusStore, ACorruptCaseStopsAMergeBeforeAnyWrite) {
  TempDir a("concord-a"), out("concord-out");
  store_case(a.path(), make(kSmall, "c:outcome"));
  std::ofstream(a.path() + "/zz_broken.case.json") << R"({"concord_case":1,"name":"zz_broken","runs":[)";
  try {
    merge_corpora(out.path(), {a.path()});
    FAIL() << "a corrupt case was merged";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("zz_broken.case.json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(count_cases(out.path()), 0u);
}

TEST(CorpusStore, StatusAndReasonAreChecked) {
  TempDir dir("concord-store");
  NewCase c = make(kSmall, "c:outcome");
  c.status = "known-divergence";
  std::string path = dir.path() + "/k.case.json";
  ojson j = case_json(c);
  j["name"] = "k";
  write_file_atomic(path, j.dump());
  EXPECT_THROW(load_case(path), InputError);  // no reason
  j["reason"] = "c rounds toward zero here; spec question open";
  write_file_atomic(path, j.dump());
  EXPECT_EQ(load_case(path).reason, j["reason"]);
  j["status"] = "fixed";
  write_file_atomic(path, j.dump());
  EXPECT_THROW(load_case(path), InputError);
}
