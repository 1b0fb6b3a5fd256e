// tests/oracle/journal_lines.hpp: runs a program in text syntax on the oracle and
// renders its journal one short line per event, so that a test can state a whole
// journal derived by hand from SPEC.md (the renderer reads only the result JSON):
//   "T start NAME KIND"                 "T exit NAME REASON"
//   "T deliver(R) TO<-FROM TAG(ARGS)"   "T drop TO<-FROM TAG(ARGS)"   (FROM "-" for null)
//   "T call(R) TO<-FROM TAG(ARGS)"      "T resume(R) TO<-FROM VALUE"
//   "T signal KIND FROM->TO REASON EFFECT"
//   "T decision SUP CHILD ACTION"       "T api FROM SUP OP CHILD RESULT"
// T is the turn, R the ready count, ARGS comma-separated (strings without quotes).
// Every run also checks the oracle's own count of its result text (SPEC §11,
// oracle/memory.hpp): the line is no longer than the text the run counted, which
// is within the memory it counted, so each hand-derived program tests that too.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"

namespace concord::testing {

inline ojson run_text(const std::string& src, uint64_t seed = 0, int64_t turns = 100, int64_t procs = 100) {
  Program p = parse_program(src);
  check(p);
  RunResult res = run(p, RunSettings{seed, turns, procs});
  EXPECT_LE(static_cast<int64_t>(result_line(res).size()), res.world->text_bound) << src;
  EXPECT_LE(res.world->text_bound, res.world->memory_used) << src;
  return result_to_json(res);
}

inline std::string plain(const ojson& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

inline std::string args_text(const ojson& args) {
  std::string s = "(";
  for (size_t i = 0; i < args.size(); i++) s += (i ? "," : "") + plain(args[i]);
  return s + ")";
}

inline std::string event_line(const ojson& e) {
  std::string ev = e["ev"].get<std::string>();
  std::string t = std::to_string(e["turn"].get<int64_t>()) + " ";
  auto from = [&](const char* key) { return e[key].is_null() ? std::string("-") : plain(e[key]); };
  if (ev == "start") return t + "start " + plain(e["name"]) + " " + plain(e["kind"]);
  if (ev == "exit") return t + "exit " + plain(e["name"]) + " " + plain(e["reason"]);
  if (ev == "deliver" || ev == "call")
    return t + ev + "(" + plain(e["ready"]) + ") " + plain(e["to"]) + "<-" + from("from") + " " + plain(e["tag"]) +
           args_text(e["args"]);
  if (ev == "drop") return t + "drop " + plain(e["to"]) + "<-" + from("from") + " " + plain(e["tag"]) + args_text(e["args"]);
  if (ev == "resume")
    return t + "resume(" + plain(e["ready"]) + ") " + plain(e["to"]) + "<-" + plain(e["from"]) + " " + plain(e["value"]);
  if (ev == "signal")
    return t + "signal " + plain(e["kind"]) + " " + plain(e["from"]) + "->" + plain(e["to"]) + " " + plain(e["reason"]) +
           " " + plain(e["effect"]);
  if (ev == "decision") return t + "decision " + plain(e["supervisor"]) + " " + plain(e["process"]) + " " + plain(e["action"]);
  if (ev == "api")
    return t + "api " + plain(e["from"]) + " " + plain(e["supervisor"]) + " " + plain(e["op"]) + " " + plain(e["child"]) +
           " " + plain(e["result"]);
  return t + "? " + e.dump();
}

inline std::vector<std::string> lines(const ojson& r) {
  std::vector<std::string> out;
  for (const ojson& e : r["journal"]) out.push_back(event_line(e));
  return out;
}

// The journal's lines from turn `from` on.
inline std::vector<std::string> lines_from(const ojson& r, int64_t from) {
  std::vector<std::string> out;
  for (const ojson& e : r["journal"])
    if (e["turn"].get<int64_t>() >= from) out.push_back(event_line(e));
  return out;
}

inline ojson state_of(const ojson& r, const std::string& name) {
  for (const auto& a : r["alive"])
    if (a["name"] == name) return a["state"];
  return nullptr;
}

inline bool alive(const ojson& r, const std::string& name) { return !state_of(r, name).is_null(); }

// "NAME:running" per child of supervisor `sup` ("NAME:stopped" when not running);
// "dead" when the supervisor is not alive.
inline std::vector<std::string> children(const ojson& r, const std::string& sup) {
  for (const auto& s : r["supervisors"])
    if (s["name"] == sup) {
      if (!s["alive"].get<bool>()) return {"dead"};
      std::vector<std::string> out;
      for (const auto& c : s["children"])
        out.push_back(c["name"].get<std::string>() + (c["running"].get<bool>() ? ":running" : ":stopped"));
      return out;
    }
  return {"no such supervisor"};
}

using Lines = std::vector<std::string>;

}  // namespace concord::testing
