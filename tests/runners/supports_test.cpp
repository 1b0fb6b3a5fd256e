// tests/runners/supports_test.cpp: "supports" in a backend's declaration
// (runners/protocol/supports.hpp): read from a --backends file, every bad value refused
// with its place, and what a program uses beyond a claim.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "oracle/error.hpp"
#include "runners/protocol/backends.hpp"
#include "runners/protocol/supports.hpp"
#include "tests/oracle/checked_program.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

Supports parsed(const std::string& json) { return parse_supports(ojson::parse(json), "/s"); }

// The place and the message of the InputError that `json` gives.
std::string refusal(const std::string& json) {
  try {
    parsed(json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

const char* kWorkers = "kind W() { on go() {} }\nprocess w = W();\n";
const char* kSupervised = "kind W() {}\nsupervisor s one_for_one intensity 1 { permanent process w = W(); }\n";
const char* kLinks =
    "concord 2;\nkind W() { on go() { link(@v); monitor(@v); } }\nprocess w = W();\nprocess v = W();\n";

}  // namespace

TEST(Supports, AbsentClaimsEverything) {
  Supports s;
  EXPECT_TRUE(unclaimed(s, checked(kLinks)).empty());
  EXPECT_EQ(describe(s), "everything");
}

TEST(Supports, WhatAProgramUsesBeyondTheClaim) {
  Supports v1 = parsed(R"({"versions":[1],"features":[]})");
  EXPECT_TRUE(unclaimed(v1, checked(kWorkers)).empty());
  EXPECT_EQ(unclaimed(v1, checked(kSupervised)), std::vector<std::string>{"supervisors"});
  EXPECT_EQ(unclaimed(v1, checked(kLinks)), (std::vector<std::string>{"version 2", "links", "monitors"}));
  EXPECT_EQ(describe(v1), "version 1, no features");
  Supports v2 = parsed(R"({"versions":[2],"features":["links","supervisors"]})");
  EXPECT_EQ(unclaimed(v2, checked(kWorkers)), std::vector<std::string>{"version 1"});
  EXPECT_EQ(unclaimed(v2, checked(kLinks)), std::vector<std::string>{"monitors"});
  EXPECT_EQ(describe(v2), "version 2 with supervisors, links");
  Supports both = parsed(R"({"versions":[2,1],"features":["links","monitors"]})");
  EXPECT_TRUE(unclaimed(both, checked(kLinks)).empty());
  EXPECT_EQ(describe(both), "versions 1 and 2 with links, monitors");
}

TEST(Supports, BadValuesAreRefusedWithTheirPlace) {
  EXPECT_EQ(refusal(R"([1])"), "/s: expected {\"versions\":[...],\"features\":[...]}");
  EXPECT_EQ(refusal(R"({"features":[]})"), "/s: no \"versions\": the language versions claimed, e.g. [1]");
  EXPECT_NE(refusal(R"({"versions":[1]})").find("/s: no \"features\""), std::string::npos);
  EXPECT_EQ(refusal(R"({"versions":[],"features":[]})"),
            "/s/versions: expected a non-empty array of versions, e.g. [1] or [1, 2]");
  EXPECT_EQ(refusal(R"({"versions":[3],"features":[]})"),
            "/s/versions/0: the language has versions 1 and 2 (SPEC §14), not 3");
  EXPECT_EQ(refusal(R"({"versions":["1"],"features":[]})"),
            "/s/versions/0: the language has versions 1 and 2 (SPEC §14), not \"1\"");
  EXPECT_EQ(refusal(R"({"versions":[1,1],"features":[]})"), "/s/versions/1: version 1 is listed twice");
  EXPECT_NE(refusal(R"({"versions":[2],"features":["links","link"]})")
                .find("/s/features/1: unknown feature \"link\" (known: supervisors, links,"),
            std::string::npos);
  EXPECT_EQ(refusal(R"({"versions":[2],"features":["calls","calls"]})"),
            "/s/features/1: feature \"calls\" is listed twice");
  EXPECT_EQ(refusal(R"({"versions":[1],"features":["links"]})"),
            "/s/features: links is a feature of version 2 (SPEC §16), and \"versions\" does not claim version 2");
  EXPECT_EQ(refusal(R"({"versions":[2],"features":["significant"]})"),
            "/s/features: significant needs \"supervisors\" (every program that uses it declares a supervisor)");
  EXPECT_EQ(refusal(R"({"versions":[1],"features":[],"all":true})"),
            "/s/all: unknown key 'all' (known: versions, features)");
  EXPECT_EQ(refusal(R"({"versions":[1],"features":"supervisors"})").rfind("/s/features: expected an array", 0), 0u);
}

TEST(Supports, ReadFromABackendsFileNamingTheFileAndPlace) {
  fs::path f = fs::temp_directory_path() / ("concord_supports_" + std::to_string(::getpid()) + ".json");
  std::ofstream(f) << R"({"backends":{"mine":{"command":"x","supports":{"versions":[1],"features":["supervisors"]}},)"
                   << R"("yours":{"command":"y"}}})";
  Registry r("/x/concord", {});
  r.add_file(f.string());
  EXPECT_FALSE(r.find("mine")->supports.everything);
  EXPECT_TRUE(r.find("mine")->supports.features.has(Feature::Supervisors));
  EXPECT_TRUE(r.find("yours")->supports.everything);
  EXPECT_TRUE(r.find("oracle")->supports.everything);
  std::ofstream(f) << R"({"backends":{"bad":{"command":"x","supports":{"versions":[1],"features":["calls"]}}}})";
  Registry r2("/x/concord", {});
  try {
    r2.add_file(f.string());
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), f.string() +
                            ": /backends/bad/supports/features: calls is a feature of version 2 (SPEC §18), "
                            "and \"versions\" does not claim version 2");
  }
  fs::remove(f);
}
