// bench/oracle_bench.cpp: how fast the oracle delivers messages (issue: the oracle
// must never be the slow part of a campaign). Each figure is the slope between two
// turn limits, so parsing, start-up and serialisation cancel out; the best of
// three repetitions is kept. Prints a Markdown table and the command to rerun it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"

using namespace concord;

namespace {

// Two processes bounce one message forever.
std::string ping_pong(int idle) {
  std::string s = "kind Idle() { on never() {} }\n"
                  "kind P(peer: addr) {\n state n: int = 0;\n on ping() { n = n + 1; send ping() to peer; }\n}\n";
  for (int i = 0; i < idle; i++) s += "process i" + std::to_string(i) + " = Idle();\n";
  s += "process a = P(@b);\nprocess b = P(@a);\ngiven ping() to @a;\n";
  return s;
}

// n processes, each with one message that it sends back to itself: all ready always.
std::string all_ready(int n) {
  std::string s = "kind S() {\n state n: int = 0;\n on spin() { n = n + 1; send spin() to self; }\n}\n";
  for (int i = 0; i < n; i++) s += "process s" + std::to_string(i) + " = S();\n";
  for (int i = 0; i < n; i++) s += "given spin() to @s" + std::to_string(i) + ";\n";
  return s;
}

double seconds_for(const Program& p, int64_t turns) {
  double best = 1e30;
  for (int rep = 0; rep < 3; rep++) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run(p, RunSettings{1, turns, 10000000});
    auto t1 = std::chrono::steady_clock::now();
    if (r.turns != turns) {
      std::fprintf(stderr, "bench: run stopped after %lld turns, expected %lld\n", (long long)r.turns, (long long)turns);
      std::exit(3);
    }
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

struct Row {
  std::string stand;
  int processes;
  int ready;
  double ns_per_delivery;
};

Row measure(const std::string& stand, const std::string& src, int processes, int ready, int64_t t1, int64_t t2) {
  Program p = parse_program(src);
  check(p);
  double a = seconds_for(p, t1), b = seconds_for(p, t2);
  return {stand, processes, ready, (b - a) * 1e9 / static_cast<double>(t2 - t1)};
}

}  // namespace

int main(int argc, char** argv) {
  int64_t turns = argc > 1 ? std::atoll(argv[1]) : 2000000;
  std::vector<Row> rows;
  rows.push_back(measure("ping-pong", ping_pong(0), 2, 1, turns / 4, turns));
  rows.push_back(measure("ping-last", ping_pong(1000), 1002, 1, turns / 4, turns));
  rows.push_back(measure("ping-last", ping_pong(10000), 10002, 1, turns / 4, turns));
  rows.push_back(measure("ping-last", ping_pong(100000), 100002, 1, turns / 4, turns));
  rows.push_back(measure("all-ready", all_ready(1000), 1000, 1000, turns / 4, turns));
  rows.push_back(measure("all-ready", all_ready(10000), 10000, 10000, turns / 4, turns));
  rows.push_back(measure("all-ready", all_ready(100000), 100000, 100000, turns / 4, turns));
  double ref = rows[0].ns_per_delivery;
  std::printf("| stand | processes | ready | ns/delivery | deliveries/s | cost vs ping-pong |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows)
    std::printf("| %s | %d | %d | %.0f | %.2f M | %.2fx |\n", r.stand.c_str(), r.processes, r.ready, r.ns_per_delivery,
                1e3 / r.ns_per_delivery, r.ns_per_delivery / ref);
  std::printf("\ntarget: >= 2 M deliveries/s on ping-pong, and within 2x of it at 100,000 processes.\n");
  std::printf("slope between %lld and %lld turns, best of 3; rerun: bash bench/run.sh [TURNS]\n",
              (long long)(turns / 4), (long long)turns);
  return 0;
}
