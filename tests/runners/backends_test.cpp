// tests/runners/backends_test.cpp: the registry: splitting commands like a shell,
// --backend NAME=COMMAND, the --backends config file and its errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "oracle/error.hpp"
#include "runners/protocol/backends.hpp"
#include "targets/targets.hpp"

namespace fs = std::filesystem;
using namespace concord;

using Words = std::vector<std::string>;

TEST(SplitCommand, SplitsLikeAShellWithoutExpanding) {
  EXPECT_EQ(split_command("  erl -noshell   -s conductor "), (Words{"erl", "-noshell", "-s", "conductor"}));
  EXPECT_EQ(split_command("sh -c 'echo $HOME; exit 1'"), (Words{"sh", "-c", "echo $HOME; exit 1"}));
  EXPECT_EQ(split_command(R"(a "b \"c\" \$d \n" e\ f g'h'"i")"), (Words{"a", R"(b "c" $d \n)", "e f", "ghi"}));
  EXPECT_EQ(split_command("x '' y"), (Words{"x", "", "y"}));
  EXPECT_THROW(split_command("a 'b"), InputError);
  EXPECT_THROW(split_command("a \"b"), InputError);
  EXPECT_THROW(split_command("   "), InputError);
}

TEST(Registry, HasTheBuiltInsThenUserBackendsInOrder) {
  Registry r("/x/concord", builtin_targets());
  r.add_option("mine=./my-runtime --serve 'a b'");
  ASSERT_EQ(r.all().size(), 6u);
  EXPECT_EQ(r.all()[0].command, (Words{"/x/concord", "backend", "oracle"}));
  EXPECT_EQ(r.all()[1].name, "c");
  EXPECT_EQ(r.all()[2].command, (Words{"/x/concord", "backend", "erlang"}));
  EXPECT_EQ(r.all()[3].command, (Words{"/x/concord", "backend", "js"}));
  EXPECT_EQ(r.all()[4].command, (Words{"/x/concord", "backend", "elixir"}));
  EXPECT_EQ(r.all()[5].name, "mine");
  EXPECT_EQ(r.find("mine")->command, (Words{"./my-runtime", "--serve", "a b"}));
  EXPECT_TRUE(r.is_builtin("c"));
  EXPECT_TRUE(r.is_builtin("erlang"));
  EXPECT_FALSE(r.is_builtin("mine"));
  EXPECT_THROW(r.add_option("mine=other"), InputError);    // taken
  EXPECT_THROW(r.add_option("oracle=other"), InputError);  // built in
  EXPECT_THROW(r.add_option("erlang=other"), InputError);
  EXPECT_THROW(r.add_option("elixir=other"), InputError);
  EXPECT_THROW(r.add_option("js=other"), InputError);
  EXPECT_THROW(r.add_option("all=x"), InputError);
  EXPECT_THROW(r.add_option("a/b=x"), InputError);
  EXPECT_THROW(r.add_option("nocommand"), InputError);
  r.set_timeout(2.5);
  EXPECT_EQ(r.find("c")->run_timeout, 2.5);
  EXPECT_EQ(r.find("mine")->request_timeout, 2.5);
}

class ConfigFile : public testing::Test {
 protected:
  std::string write(const std::string& text) {
    path_ = fs::temp_directory_path() / ("concord_backends_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override { fs::remove(path_); }
  fs::path path_;
};

TEST_F(ConfigFile, DeclaresBackendsWithTimeoutsLimitsAndEnvironment) {
  Registry r("/x/concord", {});  // the oracle alone
  r.add_file(write(R"({"backends":{
      "erl":{"command":["erl","-noshell"],"run_timeout":2,"request_timeout":20,
             "env":{"ERL_FLAGS":"+S 1"},"cpu_seconds":60,"address_space_bytes":1073741824},
      "py":{"command":"python3 -u 'my backend.py'"}}})"));
  ASSERT_EQ(r.all().size(), 3u);  // oracle, erl, py
  const BackendSpec* erl = r.find("erl");
  ASSERT_TRUE(erl);
  EXPECT_EQ(erl->command, (Words{"erl", "-noshell"}));
  EXPECT_EQ(erl->run_timeout, 2);
  EXPECT_EQ(erl->request_timeout, 20);
  EXPECT_EQ(erl->env, (std::vector<std::pair<std::string, std::string>>{{"ERL_FLAGS", "+S 1"}}));
  EXPECT_EQ(erl->limits.cpu_seconds, 60);
  EXPECT_EQ(r.find("py")->command, (Words{"python3", "-u", "my backend.py"}));
}

TEST_F(ConfigFile, ErrorsNameTheFileAndThePlace) {
  Registry r("/x/concord", {});  // the oracle alone
  try {
    r.add_file(write(R"({"backends":{"erl":{"command":["erl"],"run_timout":2}}})"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/backends/erl/run_timout"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path_.string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(r.add_file(write(R"({"backends":{"erl":{"command":[]}}})")), InputError);
  EXPECT_THROW(r.add_file(write(R"({"backends":{"erl":{"run_timeout":-1,"command":["x"]}}})")), InputError);
  EXPECT_THROW(r.add_file(write(R"({"backend":{}})")), InputError);
  EXPECT_THROW(r.add_file(write(R"({"backends":)")), InputError);
}

// "deviations" declares a backend's known deviations (runners/PROTOCOL.md); the
// built-in targets' come from their folders (targets/targets.cpp), and only elixir
// declares any.
TEST_F(ConfigFile, DeclaresDeviationsOfAUserBackend) {
  Registry r("/x/concord", {});
  r.add_file(write(R"({"backends":{"mine":{"command":["./mine"],"deviations":[
      {"id":"lazy","dialect":"dynamic-supervisor-removes-transient",
       "about":"it never keeps","experiment":"mine_test.sh","source":"mine.c:12"}]}}})"));
  const BackendSpec* mine = r.find("mine");
  ASSERT_TRUE(mine);
  ASSERT_EQ(mine->deviations.size(), 1u);
  EXPECT_EQ(mine->deviations[0].id, "lazy");
  EXPECT_EQ(mine->deviations[0].dialect, Alt::DynsupRemovesTransient);
  EXPECT_EQ(mine->deviations[0].source, "mine.c:12");
  try {
    r.add_file(write(R"({"backends":{"bad":{"command":["x"],"deviations":[{"id":"x","dialect":"r"}]}}})"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/backends/bad/deviations/0"), std::string::npos) << e.what();
  }
  for (const TargetEntry& t : target_list()) {
    std::vector<Deviation> ds = builtin_deviations(t);
    EXPECT_EQ(ds.empty(), std::string(t.name) != "elixir") << t.name;
  }
}
