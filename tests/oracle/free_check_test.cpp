// tests/oracle/free_check_test.cpp: the free-run checker (SPEC §25.8) against
// what is known without it.
// - Admissible by construction (§25.1): a conducted run is one free run among many,
//   so every run of the oracle written as a trace (oracle/free/from_run.hpp) must be
//   admissible: every corpus case's runs, and generated programs of every profile.
// - Not admissible by construction: the hand-made traces of
//   tests/oracle/invalid_traces/ (one or more per guarantee, each with the words its
//   violation must be named in, written before the checker ran on it), and two
//   mutations of every generated trace that break a guarantee whatever the program:
//   two messages of one sender handled in the other order (G4), one message of a
//   receiver alive at the end taken away (G4 or G7).
// - Malformed traces: refused as malformed, naming the place.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/free/from_run.hpp"
#include "oracle/json_text.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

namespace fs = std::filesystem;

std::string source_dir() { return CONCORD_SOURCE_DIR; }

// The trace of a run, parsed; nullopt past the oracle's limits (MEMORY, TIMEOUT).
std::optional<ojson> trace_of(const Program& p, const RunSettings& r) {
  ojson j = parse_json_text(trace_line(p, r));
  if (!j.value("ok", false)) return std::nullopt;
  return j;
}

std::string first_violation(const TraceVerdict& v) {
  return v.violations.empty() ? "" : violation_line(v.violations[0]);
}

TEST(FreeRuns, EveryCorpusRunWrittenAsATraceIsAdmissible) {
  size_t runs = 0;
  for (const std::string& path : find_cases(source_dir() + "/corpus")) {
    Case c = load_case(path);
    for (const CaseRun& r : c.runs) {
      std::optional<ojson> t = trace_of(c.program, r.settings);
      if (!t) continue;
      TraceVerdict v = check_trace(c.program, *t);
      EXPECT_TRUE(v.admissible) << path << " seed " << r.settings.seed << ": " << first_violation(v);
      runs++;
    }
  }
  EXPECT_GT(runs, 80u);
}

// One sender's two messages to one receiver, handled in the other order.
bool swap_two_of_one_sender(ojson& t) {
  for (ojson& w : t["workers"]) {
    std::map<std::string, size_t> first;  // sender -> index of its first delivery
    ojson& evs = w["events"];
    for (size_t k = 0; k < evs.size(); k++) {
      const ojson& e = evs[k];
      if (e["ev"] != "deliver" || e.contains("signal") || e["from"].is_null()) continue;
      std::string from = e["from"].dump();
      auto it = first.find(from);
      if (it == first.end()) {
        first[from] = k;
        continue;
      }
      // The two turns take each other's message (each keeps the effects it recorded:
      // the replay then disagrees with them, or the pair order is broken).
      std::swap(evs[it->second], evs[k]);
      return true;
    }
  }
  return false;
}

// The last message of a receiver alive at the end, gone with the effects its turn made.
bool drop_last_delivery(ojson& t) {
  for (ojson& w : t["workers"]) {
    if (!w["exit"].is_null()) continue;
    ojson& evs = w["events"];
    for (size_t k = evs.size(); k-- > 0;) {
      const ojson& e = evs[k];
      if (e["ev"] != "deliver" || e.contains("signal") || e["from"].is_null()) continue;
      size_t end = k + 1;
      while (end < evs.size() && evs[end]["ev"] != "deliver" && evs[end]["ev"] != "resume") end++;
      if (end != evs.size()) break;  // not its last turn
      std::vector<ojson> v(evs.begin(), evs.begin() + static_cast<long>(k));
      evs = v;
      return true;
    }
  }
  return false;
}

class FreeRunsByProfile : public ::testing::TestWithParam<std::string> {};

TEST_P(FreeRunsByProfile, GeneratedRunsWrittenAsTracesAreAdmissibleAndTheirMutantsAreNot) {
  const gen::Profile& profile = gen::profile_named(GetParam());
  int programs = GetParam() == "scale" ? 4 : 150;
  int checked = 0, swapped = 0, dropped = 0;
  for (int s = 1; s <= programs; s++) {
    uint64_t seed = 1000 + static_cast<uint64_t>(s);
    Program p = gen::generate_program(seed, profile);
    for (const RunSettings& r : gen::generate_runs(seed, profile, 2)) {
      std::optional<ojson> t = trace_of(p, r);
      if (!t) continue;
      TraceVerdict v = check_trace(p, *t);
      ASSERT_TRUE(v.admissible) << "program seed " << seed << " run seed " << r.seed << ": " << first_violation(v);
      checked++;
      ojson a = *t;
      if (swap_two_of_one_sender(a)) {
        EXPECT_FALSE(check_trace(p, a).admissible) << "program seed " << seed << ": two messages swapped, admitted";
        swapped++;
      }
      ojson b = *t;
      if (b["outcome"] != "turn_limit" && drop_last_delivery(b)) {
        EXPECT_FALSE(check_trace(p, b).admissible) << "program seed " << seed << ": a message taken away, admitted";
        dropped++;
      }
    }
  }
  EXPECT_GT(checked, 0);
  std::cout << GetParam() << ": " << checked << " traces admissible, " << swapped << " swapped and " << dropped
            << " shortened ones refused\n";
}

INSTANTIATE_TEST_SUITE_P(EveryProfile, FreeRunsByProfile, ::testing::ValuesIn(gen::profile_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// tests/oracle/invalid_traces/NAME.expect: "program: P.conc", "guarantee: G..", "words: ...".
TEST(FreeRuns, EveryHandMadeInvalidTraceIsRefusedInTheRightWords) {
  std::string dir = source_dir() + "/tests/oracle/invalid_traces";
  std::set<std::string> guarantees;
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".expect") continue;
    std::ifstream in(entry.path());
    std::map<std::string, std::string> field;
    for (std::string line; std::getline(in, line);) {
      size_t colon = line.find(": ");
      if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
      field[line.substr(0, colon)] = line.substr(colon + 2);
    }
    std::string name = entry.path().stem().string();
    Program p = load_program(dir + "/" + field["program"]);
    ojson t = parse_json_text(read_file(dir + "/" + name + ".trace.json"));
    TraceVerdict v = check_trace(p, t);
    ASSERT_FALSE(v.admissible) << name;
    EXPECT_EQ(v.violations[0].guarantee, field["guarantee"]) << name << ": " << first_violation(v);
    EXPECT_NE(v.violations[0].text.find(field["words"]), std::string::npos)
        << name << ": " << first_violation(v) << "\n  expected the words: " << field["words"];
    guarantees.insert(field["guarantee"]);
    cases++;
  }
  EXPECT_GE(cases, 20);
  EXPECT_EQ(guarantees.size(), 13u) << "one hand-made trace per guarantee G1-G13 at least";
}

// tests/oracle/admissible_traces: real free runs' traces the checker once refused.
TEST(FreeRuns, KeptTracesOfRealFreeRunsAreAdmissible) {
  std::string dir = source_dir() + "/tests/oracle/admissible_traces";
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string file = entry.path().filename().string();
    const std::string suffix = ".trace.json";
    if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    std::string stem = file.substr(0, file.size() - suffix.size());
    std::string program = dir + "/" + stem + (fs::exists(dir + "/" + stem + ".conc") ? ".conc" : ".json");
    Program p = load_program(program);
    TraceVerdict v = check_trace(p, parse_json_text(read_file(entry.path().string())));
    EXPECT_TRUE(v.admissible) << stem << ": " << first_violation(v);
    cases++;
  }
  EXPECT_GE(cases, 1);
}

TEST(FreeRuns, MalformedTracesAreRefusedNamingThePlace) {
  Program p = load_program(source_dir() + "/tests/oracle/invalid_traces/pingpong.conc");
  ojson good = *trace_of(p, RunSettings{});
  auto refused_at = [&](const ojson& t) -> std::string {
    try {
      check_trace(p, t);
    } catch (const InputError& e) {
      return e.where;
    }
    return "(accepted)";
  };
  ojson t = good;
  t["workers"][0]["colour"] = "blue";
  EXPECT_EQ(refused_at(t), "/workers/0");
  t = good;
  t["workers"][1]["events"][1].erase("n");
  EXPECT_EQ(refused_at(t), "/workers/1/events/1");
  t = good;
  t["workers"][1]["events"][2]["n"] = 7;
  EXPECT_EQ(refused_at(t), "/workers/1/events/2/n");
  t = good;
  t["workers"].push_back(t["workers"][0]);
  EXPECT_EQ(refused_at(t), "/workers/2");
  t = good;
  t["mode"] = "conducted";
  EXPECT_EQ(refused_at(t), "/mode");
  t = good;
  t["workers"][0]["name"] = "nobody";
  EXPECT_EQ(refused_at(t), "/workers/0/name");
  t = good;
  t["given"] = ojson::array();
  EXPECT_EQ(refused_at(t), "/given");
}

}  // namespace
}  // namespace concord
