// generators/profile.hpp: named profiles of the generators, the knobs of a fuzzing
// campaign. A Profile is plain data: the sizes of what gen::program(profile)
// makes and the weight of every choice it draws (a weight is relative to the other
// options of the same choice; 0 never draws that option), and the ranges of the run
// settings drawn for its programs. The generators read it and nothing else, so a
// new knob starts here.
//
// Named profiles:
//   default      everything the language has, in balance; gen::program() uses it.
//   supervision  deep supervisor trees, every strategy and restart type, intensity
//                0 often, handlers that fail and stop so that supervisors react.
//   spawn-heavy  many spawns (bound, under supervisors: dynamic children), small
//                process limits so that SYSTEM_LIMIT happens.
//   arith        long, deep expressions full of arithmetic edge values, shifts by
//                counts past 63, divisions by zero.
//   dynamic-supervision  supervisors without declared children (Elixir's
//                DynamicSupervisors: the elixir target), many dynamic children of
//                every restart type that stop and fail, intensity 0 often.
//   scale        programs at a runtime's capacities (scale.hpp): tens of thousands
//                of process ids, mailboxes thousands deep, child lists of hundreds,
//                thousands of turns, 32-character names, spawned names of many
//                digits. The default profile mixes them in: about one program in
//                scale_one_in is a scale program (chosen by the program's seed).
//   v2           version 2 programs (SPEC §14-§24): links, monitors, exit signals,
//                calls, failing starts, the supervisor API, significant children,
//                all of them in balance. Every target implements version 2.
//   links        version 2's links, monitors, exit signals and trap_exit (issue 15),
//                many per process, without calls, failing starts, the API or
//                significant children.
//   calls        version 2's calls, failing and ignored starts, the supervisor API,
//                significant children and auto_shutdown (issue 16), with a few links
//                and exit signals (what ends a callee or a child).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "oracle/error.hpp"

namespace concord::gen {

struct Profile {
  std::string name;
  std::string intent;  // one line: what the profile is for
  // RapidCheck's size for generate_program() (properties vary it from 0 to 100).
  // It scales lengths (a list of at most max_len holds up to max_len * size / 100
  // elements) and how often expressions branch; choices among options do not
  // depend on it. At 100 every maximum below is reached.
  int size = 100;

  // --- kinds (programs.hpp) ------------------------------------------------------
  int max_kinds = 4;     // 1..max_kinds kinds (<= kind_pool)
  int max_params = 3;    // kind parameters, state fields, handler parameters: 0..max each (<= 4)
  int max_handlers = 4;  // handlers per kind, distinct tags (<= tag_pool)

  // --- bodies (statements.hpp) ------------------------------------------------------
  int max_body_length = 5;    // statements per init or handler body (>= 3)
  int max_nested_length = 3;  // statements per nested body (then, else, repeat)
  int max_stmt_depth = 3;     // statements within statements
  int max_repeat_count = 3;   // repeat n: 0 <= n <= max
  // Statement forms (init bodies draw only assign, if, repeat, send: SPEC §4.9).
  int w_send = 4, w_assign = 4, w_if = 2, w_repeat = 1, w_spawn = 2, w_stop = 1, w_fail = 1;
  // A handler body of random statements, or one that sends and then fails midway
  // (a prefix, a send, `fail C`): the send stays sent (SPEC §6).
  int w_plain_handler = 5, w_failing_handler = 1;

  // --- expressions (expressions.hpp) ------------------------------------------------
  int max_expr_depth = 5;
  // An int expression is a leaf, a unary or a binary operation; the operations'
  // weights are multiplied by size/20 (0..5), so small sizes make leaves.
  int w_leaf = 3, w_unary = 1, w_binary = 3;
  // An int leaf is a literal or a variable; an addr leaf `self`, a literal (a
  // declared process or a spawned form: maybe dead, maybe never spawned), a name
  // no run reaches (sends to it are dropped), a variable.
  int w_int_literal = 3, w_int_var = 3;
  int w_self = 2, w_addr_literal = 2, w_addr_unknown = 1, w_addr_var = 3;
  // An int literal: 0, small, an arithmetic edge (±1, 63, 64, 65, 127, INT64_MIN,
  // INT64_MAX...), anywhere in int64.
  int w_zero = 2, w_small = 5, w_edge_value = 3, w_any_value = 1;
  // A binary operator: any of ops.def, or / and % again, or << and >> again.
  int w_any_op = 7, w_div = 1, w_shift = 1;
  // The count of a shift: any operand, or an edge count (-1, 63, 64, 65, 127, INT64_MIN).
  int w_shift_operand = 3, w_shift_edge = 1;
  // The divisor of / and % outside init: any operand, the literal 0 (DIV_ZERO), -1.
  int w_divisor_operand = 4, w_divisor_zero = 2, w_divisor_minus_one = 1;

  // --- messages -----------------------------------------------------------------
  // A send: any message to any addr expression, or one of the sender's own
  // handlers to `self` (keeps processes busy: long runs, turn limits, spawned and
  // restarted processes that act on their own).
  int w_send_any = 4, w_send_to_self = 1;
  // A sent or given message: a signature some handler matches, or not (a tag no
  // kind handles, or a handled tag with other argument types: NO_HANDLER).
  int w_matched_message = 4, w_stray_message = 1;
  int max_given = 6;  // 1..max given messages
  // A given message goes to a declared process, or to any addr name (a spawned
  // form: dropped at start, or a declared process).
  int w_given_to_process = 7, w_given_to_any_name = 1;
  // A given message to a process: one of its own kind's handlers, or any signature.
  int w_given_own_handler = 3, w_given_any_signature = 1;

  // --- spawns -------------------------------------------------------------------
  int w_spawn_unbound = 1, w_spawn_bound = 1;  // `f = spawn ...` when the kind has an addr field
  int w_spawn_plain = 1, w_spawn_under = 2;    // unsupervised, or `under s r` (a dynamic child)

  // --- the system (supervision.hpp) -----------------------------------------------
  int max_roots = 4;
  int w_root_process = 2, w_root_supervisor = 2;
  int max_supervisor_depth = 3;  // supervisors within supervisors
  int max_children = 3;          // static children per supervisor
  int w_child_process = 3, w_child_supervisor = 1;
  int max_intensity = 3;  // MaxR: 0, or 1..max
  int w_intensity_zero = 1, w_intensity_positive = 3;

  // --- version 2 (v2.hpp; SPEC §14-§23) ---------------------------------------------
  // 1: version 1 programs only; 2: the version 1 program, then what version 2 adds.
  int version = 1;
  int max_v2_stmts = 3;       // version 2 statements inserted per handler body: 0..max
  int max_v2_init_stmts = 2;  // link, monitor, trap_exit inserted per init body: 0..max
  // A handler statement of version 2 (a reason comparison has weight 1).
  int w_link = 3, w_unlink = 1, w_monitor = 3, w_demonitor = 1, w_trap_exit = 2, w_exit_signal = 2, w_exit_kill = 1,
      w_call = 4, w_reply = 1, w_api = 3, w_stop_reason = 1;
  // A start that succeeds, fails (fail or stop with a reason) or is ignored (§19).
  int w_start_ok = 12, w_start_fails = 1, w_start_ignored = 1;
  // Each of these against 1: a handler that replies first, a kind with an exit
  // handler, with a down handler, with a reason field.
  int w_reply_first = 2, w_exit_handler = 2, w_down_handler = 1, w_reason_field = 1;
  // auto_shutdown never against each of the other two; a child or spawn that may be
  // significant is (against 1).
  int w_auto_shutdown_never = 2, w_auto_shutdown = 1, w_significant = 2;
  // The server (v2_server.hpp), a supervised worker that only calls reach, so that
  // calls meet a live callee: a program has one (against 1); its handlers, 1..max;
  // its supervisor's intensity; what each handler does with a call (reply, never
  // reply, fail, stop with a reason, kill itself, call someone else first); a call
  // goes to the server (against 1).
  int w_server = 3, max_server_handlers = 3, server_intensity = 10;
  int w_serve_reply = 8, w_serve_no_reply = 2, w_serve_fail = 1, w_serve_stop = 3, w_serve_kill = 2, w_serve_call = 1;
  int w_call_server = 3;
  int w_server_link = 1;  // the server's init links it to a declared process (against 5)

  // --- runs (generate.hpp, settings.hpp) ------------------------------------------
  int64_t min_turns = 0, max_turns = 200;         // turn limit L
  int64_t min_processes = 1, max_processes = 50;  // process limit P
  int max_runs = 0;                               // runs per program at most (generate_runs); 0: as many as asked

  // --- scale programs (scale.hpp) ---------------------------------------------------
  bool scale = false;           // this profile's programs are scale programs, not programs.hpp's
  int max_spawn_batch = 20000;  // workers a storm spawns in its first round, at most
  int max_spawn_rounds = 3;     // rounds of a storm
  int max_wide_children = 400;  // dynamic children of the wide supervisor
  int max_flood = 1000;         // messages per round of a flood
  int max_flood_rounds = 5;
  int max_rally = 3000;  // turns of a rally
  // Mixing: about one program in scale_one_in is drawn from the "scale" profile
  // instead (with that profile's runs), chosen by the program's seed; 0: never.
  int scale_one_in = 0;

  // Coverage names ("category:name", a trailing '*' matches a prefix) that this
  // profile is not meant to reach: its coverage test accepts them as blind spots.
  std::vector<std::string> may_miss;

  // Every weight above by name, in declaration order (for checks and reports).
  std::vector<std::pair<std::string, int>> weights() const {
    return {{"send", w_send},
            {"assign", w_assign},
            {"if", w_if},
            {"repeat", w_repeat},
            {"spawn", w_spawn},
            {"stop", w_stop},
            {"fail", w_fail},
            {"plain_handler", w_plain_handler},
            {"failing_handler", w_failing_handler},
            {"leaf", w_leaf},
            {"unary", w_unary},
            {"binary", w_binary},
            {"int_literal", w_int_literal},
            {"int_var", w_int_var},
            {"self", w_self},
            {"addr_literal", w_addr_literal},
            {"addr_unknown", w_addr_unknown},
            {"addr_var", w_addr_var},
            {"zero", w_zero},
            {"small", w_small},
            {"edge_value", w_edge_value},
            {"any_value", w_any_value},
            {"any_op", w_any_op},
            {"div", w_div},
            {"shift", w_shift},
            {"shift_operand", w_shift_operand},
            {"shift_edge", w_shift_edge},
            {"divisor_operand", w_divisor_operand},
            {"divisor_zero", w_divisor_zero},
            {"divisor_minus_one", w_divisor_minus_one},
            {"send_any", w_send_any},
            {"send_to_self", w_send_to_self},
            {"matched_message", w_matched_message},
            {"stray_message", w_stray_message},
            {"given_to_process", w_given_to_process},
            {"given_to_any_name", w_given_to_any_name},
            {"given_own_handler", w_given_own_handler},
            {"given_any_signature", w_given_any_signature},
            {"spawn_unbound", w_spawn_unbound},
            {"spawn_bound", w_spawn_bound},
            {"spawn_plain", w_spawn_plain},
            {"spawn_under", w_spawn_under},
            {"root_process", w_root_process},
            {"root_supervisor", w_root_supervisor},
            {"child_process", w_child_process},
            {"child_supervisor", w_child_supervisor},
            {"intensity_zero", w_intensity_zero},
            {"intensity_positive", w_intensity_positive},
            {"link", w_link},
            {"unlink", w_unlink},
            {"monitor", w_monitor},
            {"demonitor", w_demonitor},
            {"trap_exit", w_trap_exit},
            {"exit_signal", w_exit_signal},
            {"exit_kill", w_exit_kill},
            {"call", w_call},
            {"reply", w_reply},
            {"api", w_api},
            {"stop_reason", w_stop_reason},
            {"start_ok", w_start_ok},
            {"start_fails", w_start_fails},
            {"start_ignored", w_start_ignored},
            {"reply_first", w_reply_first},
            {"exit_handler", w_exit_handler},
            {"down_handler", w_down_handler},
            {"reason_field", w_reason_field},
            {"auto_shutdown_never", w_auto_shutdown_never},
            {"auto_shutdown", w_auto_shutdown},
            {"significant", w_significant},
            {"server", w_server},
            {"serve_reply", w_serve_reply},
            {"serve_no_reply", w_serve_no_reply},
            {"serve_fail", w_serve_fail},
            {"serve_stop", w_serve_stop},
            {"serve_kill", w_serve_kill},
            {"serve_call", w_serve_call},
            {"call_server", w_call_server},
            {"server_link", w_server_link}};
  }
};

namespace detail {

inline std::vector<Profile> make_profiles() {
  std::vector<Profile> out;

  Profile d;
  d.name = "default";
  d.intent = "everything the language has, in balance, and now and then a program at scale";
  d.scale_one_in = 40;
  out.push_back(d);

  Profile s;
  s.name = "supervision";
  s.intent = "deep supervisor trees, every strategy and restart type, intensity 0 often, failing workers";
  s.max_kinds = 3;
  s.max_handlers = 3;
  // Workers that stop and fail, often midway after a send, so supervisors react.
  s.w_send = 4, s.w_assign = 2, s.w_if = 2, s.w_repeat = 1, s.w_spawn = 2, s.w_stop = 2, s.w_fail = 3;
  s.w_plain_handler = 1, s.w_failing_handler = 1;
  s.max_expr_depth = 3;
  s.w_matched_message = 6, s.w_stray_message = 1;
  s.max_given = 8;
  s.w_given_to_process = 12;
  s.w_spawn_plain = 1, s.w_spawn_under = 4;  // dynamic children
  // Deep, wide trees; MaxR 0 (the first restart gives up) as often as not.
  s.max_roots = 3;
  s.w_root_process = 1, s.w_root_supervisor = 4;
  s.max_supervisor_depth = 5;
  s.max_children = 4;
  s.w_child_process = 2, s.w_child_supervisor = 1;
  s.max_intensity = 2;
  s.w_intensity_zero = 3, s.w_intensity_positive = 2;
  s.min_turns = 20, s.max_turns = 300;
  s.min_processes = 5, s.max_processes = 60;
  s.may_miss = {"constructs:literal:*", "constructs:op:*", "constructs:addr:spawned_many_digits",
                "capacity:*"};  // expressions and scale are not its point
  out.push_back(s);

  Profile sp;
  sp.name = "spawn-heavy";
  sp.intent = "many spawns, bound and under supervisors, small process limits (SYSTEM_LIMIT)";
  // Spawns, in loops too; the spawned names are kept (bound) and sent to.
  sp.w_send = 4, sp.w_assign = 2, sp.w_if = 2, sp.w_repeat = 2, sp.w_spawn = 6, sp.w_stop = 1, sp.w_fail = 1;
  sp.max_expr_depth = 3;
  sp.w_int_literal = 2, sp.w_addr_var = 5;
  sp.w_spawn_unbound = 1, sp.w_spawn_bound = 3;
  sp.w_spawn_plain = 2, sp.w_spawn_under = 3;
  sp.w_root_process = 2, sp.w_root_supervisor = 3;
  sp.max_supervisor_depth = 2;
  sp.min_turns = 10, sp.max_turns = 200;
  sp.min_processes = 1, sp.max_processes = 8;  // SYSTEM_LIMIT
  sp.may_miss = {"constructs:literal:*", "constructs:op:*", "constructs:addr:spawned_many_digits",
                 "capacity:*"};  // expressions and scale are not its point
  out.push_back(sp);

  Profile a;
  a.name = "arith";
  a.intent = "deep expressions with arithmetic edge values, shifts past 63, DIV_ZERO";
  a.max_params = 4;
  // Long-lived processes that keep evaluating: results show in state and arguments.
  a.w_send = 3, a.w_assign = 6, a.w_if = 3, a.w_repeat = 1, a.w_spawn = 1, a.w_stop = 1, a.w_fail = 1;
  a.w_plain_handler = 8, a.w_failing_handler = 1;
  a.w_send_any = 3, a.w_send_to_self = 2;
  a.w_matched_message = 6, a.w_stray_message = 1;
  // Deep expressions, many edge literals, favoured / % << >> with edge right operands.
  a.max_expr_depth = 7;
  a.w_leaf = 2, a.w_unary = 2, a.w_binary = 5;
  a.w_int_literal = 4, a.w_int_var = 3;
  a.w_zero = 2, a.w_small = 3, a.w_edge_value = 6, a.w_any_value = 2;
  a.w_any_op = 7, a.w_div = 2, a.w_shift = 2;
  a.w_shift_operand = 2, a.w_shift_edge = 2;
  a.w_divisor_operand = 3, a.w_divisor_zero = 2, a.w_divisor_minus_one = 1;
  a.w_root_process = 3, a.w_root_supervisor = 1;
  a.max_supervisor_depth = 2;
  a.min_turns = 50, a.max_turns = 400;
  // Supervision and spawning are not its point.
  a.may_miss = {"decisions:*",
                "failures:NOPROC",
                "failures:SYSTEM_LIMIT",
                "constructs:supervisor:*",
                "constructs:spawn:*",
                "events:start:restart",
                "events:start:supervisor_restart",
                "constructs:addr:spawned_many_digits",
                "capacity:*"};
  out.push_back(a);

  Profile ds;
  ds.name = "dynamic-supervision";
  ds.intent = "childless supervisors (Elixir: DynamicSupervisors) full of dynamic children that stop and fail";
  ds.max_kinds = 3;
  ds.max_handlers = 3;
  // Workers that spawn under supervisors, stop and fail, so that supervisors react.
  ds.w_send = 4, ds.w_assign = 2, ds.w_if = 2, ds.w_repeat = 1, ds.w_spawn = 5, ds.w_stop = 2, ds.w_fail = 3;
  ds.w_plain_handler = 1, ds.w_failing_handler = 1;
  ds.max_expr_depth = 3;
  ds.w_matched_message = 6, ds.w_stray_message = 1;
  ds.max_given = 8;
  ds.w_given_to_process = 12;
  ds.w_addr_var = 5;
  ds.w_spawn_unbound = 1, ds.w_spawn_bound = 3;
  ds.w_spawn_plain = 1, ds.w_spawn_under = 8;
  // Half the supervisors have no static child; a third of those are one_for_one.
  ds.max_roots = 4;
  ds.w_root_process = 1, ds.w_root_supervisor = 3;
  ds.max_supervisor_depth = 2;
  ds.max_children = 1;
  ds.w_child_process = 1, ds.w_child_supervisor = 1;
  ds.max_intensity = 3;
  ds.w_intensity_zero = 2, ds.w_intensity_positive = 3;
  ds.min_turns = 20, ds.max_turns = 300;
  ds.min_processes = 5, ds.max_processes = 60;
  ds.may_miss = {"constructs:literal:*", "constructs:op:*", "constructs:addr:spawned_many_digits",
                 "capacity:*"};  // expressions and scale are not its point
  out.push_back(ds);

  Profile sc;
  sc.name = "scale";
  sc.intent = "tens of thousands of ids, deep mailboxes, wide child lists, long runs, long names and numbers";
  sc.scale = true;
  sc.min_turns = 1000, sc.max_turns = 3000;
  sc.min_processes = 2000, sc.max_processes = 60000;  // sometimes SYSTEM_LIMIT in a storm
  sc.max_runs = 1;                                    // a scale run costs what dozens of others do
  // The bounds of its programs (scale.hpp does not read these; they say what a scale
  // program holds): up to five kinds (storm, flood, rally), six roots, four givens,
  // a spawner's handler of ten statements.
  sc.max_kinds = 5, sc.max_roots = 6, sc.max_given = 4, sc.max_body_length = 10;
  // Its programs are made of a few fixed stressors: most constructs are not its point.
  sc.may_miss = {"constructs:*",       "events:drop:dead",
                 "events:exit:normal", "events:start:supervisor_restart",
                 "failures:DIV_ZERO",  "failures:NO_HANDLER",
                 "failures:NOPROC",    "decisions:keep",
                 "decisions:remove",   "decisions:restart:supervisor"};
  out.push_back(sc);

  Profile v;
  v.name = "v2";
  v.intent = "version 2: links, monitors, exit signals, calls, failing starts, the supervisor API, auto_shutdown";
  v.version = 2;
  v.max_kinds = 3;
  v.max_handlers = 3;
  v.w_send = 4, v.w_assign = 2, v.w_if = 2, v.w_repeat = 1, v.w_spawn = 2, v.w_stop = 2, v.w_fail = 1;
  v.w_plain_handler = 6, v.w_failing_handler = 1;
  v.max_expr_depth = 3;
  v.w_matched_message = 6, v.w_stray_message = 1;
  v.max_given = 8;
  v.w_given_to_process = 12;
  v.w_spawn_plain = 1, v.w_spawn_under = 3;
  v.max_roots = 4;
  v.w_root_process = 3, v.w_root_supervisor = 3;
  v.max_supervisor_depth = 3;
  v.max_children = 3;
  v.max_intensity = 3;
  v.min_turns = 20, v.max_turns = 300;
  v.min_processes = 5, v.max_processes = 60;
  // Expressions are not its point. Its calls mostly reach the server (v2_server.hpp);
  // over the 1,000 programs of its coverage test restart_child still never meets a
  // start that fails or is ignored (tests/oracle/starts_test.cpp reaches both by hand).
  v.may_miss = {"constructs:literal:*",
                "constructs:op:*",
                "constructs:addr:spawned_many_digits",
                "capacity:*",
                "events:api:restart_child:ignored",
                "events:api:restart_child:failed"};
  out.push_back(v);

  // Issue 15: what spreads a death. More of it per process, and none of what
  // issue 16 adds.
  Profile l = v;
  l.name = "links";
  l.intent = "version 2's links, monitors, exit signals and trap_exit, without calls or the supervisor API";
  l.max_v2_stmts = 4, l.max_v2_init_stmts = 3;
  l.w_link = 5, l.w_unlink = 1, l.w_monitor = 4, l.w_demonitor = 1, l.w_trap_exit = 1, l.w_exit_signal = 3,
  l.w_exit_kill = 2;
  l.w_call = 0, l.w_reply = 0, l.w_api = 0, l.w_stop_reason = 2;
  l.w_start_fails = 0, l.w_start_ignored = 0;
  l.w_reply_first = 0, l.w_exit_handler = 3, l.w_down_handler = 2, l.w_reason_field = 1;
  l.w_auto_shutdown = 0, l.w_significant = 0;
  l.w_server = 0;
  // What only calls, starts that fail, the API and significant children make.
  l.may_miss.insert(l.may_miss.end(), {"constructs:stmt:call",
                                       "constructs:stmt:reply",
                                       "constructs:stmt:api",
                                       "constructs:stmt:ignore",
                                       "constructs:init:fail",
                                       "constructs:init:stop",
                                       "constructs:init:ignore",
                                       "constructs:call:*",
                                       "constructs:api:*",
                                       "constructs:spawn:significant",
                                       "constructs:child:significant",
                                       "constructs:auto_shutdown:any_significant",
                                       "constructs:auto_shutdown:all_significant",
                                       "events:call",
                                       "events:resume",
                                       "events:api*",
                                       "events:signal:call:*",
                                       "events:start:exited_normal",
                                       "failures:NORMAL",
                                       "failures:SHUTDOWN",
                                       "failures:KILLED",
                                       "failures:CALLING_SELF",
                                       "failures:BAD_REPLY",
                                       "decisions:auto_shutdown",
                                       "outcomes:deadlock"});
  out.push_back(l);

  // Issue 16: calls, starts that fail, the API, significant children. Links and
  // exit signals stay, fewer: they are what ends a callee or a child midway.
  Profile c = v;
  c.name = "calls";
  c.intent =
      "version 2's calls, failing and ignored starts, the supervisor API, significant children and auto_shutdown";
  c.w_link = 1, c.w_unlink = 1, c.w_monitor = 1, c.w_demonitor = 1, c.w_trap_exit = 1, c.w_exit_signal = 1,
  c.w_exit_kill = 1;
  c.w_call = 6, c.w_reply = 2, c.w_api = 5, c.w_stop_reason = 2;
  c.w_start_ok = 12, c.w_start_fails = 2, c.w_start_ignored = 1;
  c.w_auto_shutdown = 2, c.w_significant = 3;
  c.w_server = 6, c.w_call_server = 4;
  out.push_back(c);

  return out;
}

inline const std::vector<Profile>& profiles() {
  static const std::vector<Profile> v = make_profiles();
  return v;
}

}  // namespace detail

/// The names of the named profiles, "default" first.
inline const std::vector<std::string>& profile_names() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    for (const Profile& p : detail::profiles()) out.push_back(p.name);
    return out;
  }();
  return v;
}

/// The profile named `name`; throws InputError naming the known ones otherwise.
inline const Profile& profile_named(const std::string& name) {
  for (const Profile& p : detail::profiles())
    if (p.name == name) return p;
  std::string known;
  for (const std::string& n : profile_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("", "unknown generator profile '" + name + "' (known: " + known + ")");
}

/// The default profile (gen::program() without a profile uses it).
inline const Profile& default_profile() { return detail::profiles().front(); }

// Generators hold their profile by shared pointer: a generator outlives the call
// that built it, so it must own (or share) what it reads.
using ProfileRef = std::shared_ptr<const Profile>;
inline ProfileRef default_profile_ref() {
  static const ProfileRef r(ProfileRef{}, &default_profile());  // aliasing: never deleted
  return r;
}
inline ProfileRef profile_ref(const Profile& p) {
  return &p == &default_profile() ? default_profile_ref() : std::make_shared<const Profile>(p);
}

}  // namespace concord::gen
