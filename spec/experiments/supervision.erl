%% supervision: experiments that pin down OTP supervisor semantics on a
%% real OTP node (written against OTP 25, stdlib 4.2).
%%
%% Run with spec/experiments/run.sh.  Every check prints one line:
%%   PASS <rule-id>/<check>: <what was observed>
%%   FAIL <rule-id>/<check>: expected ..., got ...
%% and main/0 halts with status 1 if any check failed.
%%
%% Observation tools:
%%  * an event log: the process registered as concord_collector receives
%%      {started, Id}         from exp_worker:init/1
%%      {stopped, Id, Reason} from exp_worker:terminate/2 (workers trap exits)
%%      {sup_started, Name}   from this module's init/1 (every supervisor)
%%      {sup_down, Name, Reason} from a monitor the collector puts on every
%%                            supervisor when it starts;
%%  * supervisor:which_children/1 (pids before and after);
%%  * monitors on the top-level supervisor (its exit reason);
%%  * a logger handler (R15).
%%
%% Event order.  Everything except sup_down is an ordinary message sent
%% by the process itself before it exits, so its order in the log is the
%% causal order and is compared exactly.  sup_down is a monitor 'DOWN'
%% signal sent while the supervisor is exiting; it can never arrive
%% earlier than the events that caused the exit, but in principle it may
%% arrive after events caused by the parent's reaction to the same exit.
%% ev_match/2 therefore allows a sup_down to appear later (never earlier)
%% than its position in the expected list.
-module(supervision).
-behaviour(supervisor).

-export([main/0, init/1]).
-export([log/2]).                 % logger handler callback (R15)

-define(COLL, concord_collector).
-define(LOGCAP, concord_logcap).
-define(OOPS, {fail, 'OOPS'}).
-define(PERIOD, 3600).

%%====================================================================
%% supervisor callback: init({Name, SupFlags, ChildSpecs})
%%====================================================================
init({Name, Flags, Specs}) ->
    ?COLL ! {watch, Name, self()},
    {ok, {Flags, Specs}}.

%%====================================================================
%% entry point
%%====================================================================
main() ->
    Self = self(),
    {_Pid, Ref} = spawn_monitor(fun() -> Self ! {result, run_all()} end),
    receive
        {result, Fails} ->
            io:format("~s: ~p check(s) failed~n",
                      [case Fails of 0 -> "ALL PASS"; _ -> "SOME FAILED" end,
                       Fails]),
            erlang:halt(case Fails of 0 -> 0; _ -> 1 end);
        {'DOWN', Ref, process, _, Reason} ->
            io:format("FAIL harness: runner crashed: ~0p~n", [Reason]),
            erlang:halt(2)
    after 300000 ->
            io:format("FAIL harness: timeout~n"),
            erlang:halt(3)
    end.

run_all() ->
    process_flag(trap_exit, true),
    put(fails, 0),
    %% Silence the default handler: crash reports of deliberately failed
    %% workers would otherwise flood the output. R15 adds its own handler.
    _ = (catch logger:set_handler_config(default, level, none)),
    start_collector(),
    io:format("OTP ~s (stdlib ~s)~n",
              [erlang:system_info(otp_release), stdlib_vsn()]),
    Exps = [fun r1/0, fun r2/0, fun r3/0, fun r4/0, fun r5/0, fun r6/0,
            fun r7/0, fun r8/0, fun r9/0, fun r10/0, fun r11/0, fun r12/0,
            fun r13/0, fun r14/0, fun r15/0],
    lists:foreach(fun run_exp/1, Exps),
    get(fails).

stdlib_vsn() ->
    {ok, V} = application:get_key(stdlib, vsn), V.

run_exp(F) ->
    {name, Name} = erlang:fun_info(F, name),
    try F()
    catch C:R:St ->
            fail_line(atom_to_list(Name), "experiment ran to completion",
                      {C, R, St})
    end,
    %% make sure nothing leaks into the next experiment
    settle(), _ = take(), flush_exits().

%%====================================================================
%% R1  permanent: restarted after every exit reason
%%====================================================================
r1() ->
    S = top(r1, one_for_one, 10, [w(p, permanent)]),
    _ = take(),
    lists:foreach(
      fun(Reason) ->
              P0 = pid_of(S, p),
              kill_with(S, p, Reason),
              check("R1/" ++ tag(Reason),
                    "permanent child is restarted (new pid) after exit "
                    ++ fmt(Reason),
                    {restarted, [{stopped, p, Reason}, {started, p}]},
                    {status(P0, pid_of(S, p)), take()})
      end, [normal, shutdown, {shutdown, x}, ?OOPS]),
    stop_sup(S).

%%====================================================================
%% R2  transient: restarted after abnormal exit only
%%====================================================================
r2() ->
    S = top(r2, one_for_one, 10, [w(t, transient)]),
    _ = take(),
    P0 = pid_of(S, t),
    kill_with(S, t, ?OOPS),
    check("R2/abnormal", "transient child is restarted after abnormal exit",
          {restarted, [{stopped, t, ?OOPS}, {started, t}]},
          {status(P0, pid_of(S, t)), take()}),
    lists:foreach(
      fun(Reason) ->
              P1 = pid_of(S, t),
              kill_with(S, t, Reason),
              check("R2/" ++ tag(Reason),
                    "transient child is NOT restarted after exit "
                    ++ fmt(Reason) ++ " and stays in which_children"
                    " with pid undefined",
                    {undefined, [{stopped, t, Reason}],
                     [{t, undefined, worker, [exp_worker]}]},
                    {status(P1, pid_of(S, t)), take(),
                     supervisor:which_children(S)}),
              {ok, _} = supervisor:restart_child(S, t),
              settle(), _ = take()
      end, [normal, shutdown, {shutdown, x}]),
    stop_sup(S).

%%====================================================================
%% R3  temporary: never restarted, removed
%%====================================================================
r3() ->
    S = top(r3, one_for_one, 10, [w(x, temporary)]),
    _ = take(),
    lists:foreach(
      fun(Reason) ->
              P0 = pid_of(S, x),
              kill_with(S, x, Reason),
              check("R3/" ++ tag(Reason),
                    "temporary child is not restarted and is removed from"
                    " which_children after exit " ++ fmt(Reason),
                    {removed, [{stopped, x, Reason}], []},
                    {status(P0, pid_of(S, x)), take(),
                     supervisor:which_children(S)}),
              {ok, _} = supervisor:start_child(S, w(x, temporary)),
              settle(), _ = take()
      end, [normal, shutdown, ?OOPS]),
    stop_sup(S).

%%====================================================================
%% R4  one_for_one: only the failed child restarts
%%====================================================================
r4() ->
    S = top(r4, one_for_one, 10, [w(a, permanent), w(b, permanent),
                                  w(c, permanent)]),
    _ = take(),
    Before = pids(S, [a, b, c]),
    kill_with(S, b, ?OOPS),
    check("R4/only_failed",
          "one_for_one: b failed -> only b restarted, a and c keep pids",
          {[same, restarted, same], [{stopped, b, ?OOPS}, {started, b}]},
          {statuses(Before, pids(S, [a, b, c])), take()}),
    stop_sup(S).

%%====================================================================
%% R5  one_for_all
%%====================================================================
r5() ->
    Ids = [a, b, c, d, e],
    S = top(r5, one_for_all, 10,
            [w(a, permanent), w(b, transient), w(c, temporary),
             w(d, permanent), w(e, permanent)]),
    check("R5/start_order", "static children start in child-spec order",
          [{sup_started, r5}, {started, a}, {started, b}, {started, c},
           {started, d}, {started, e}], take()),
    P0 = pids(S, Ids),
    kill_with(S, b, normal),
    check("R5/transient_normal",
          "one_for_all: transient b exits normal -> nothing else happens,"
          " b kept with pid undefined",
          {[same, undefined, same, same, same], [{stopped, b, normal}]},
          {statuses(P0, pids(S, Ids)), take()}),
    P1 = pids(S, Ids),
    kill_with(S, d, ?OOPS),
    Ev = take(),
    check("R5/order",
          "one_for_all: d fails -> e, c, a terminated (reverse start order,"
          " reason shutdown), then a, b, d, e started (start order)",
          [{stopped, d, ?OOPS}, {stopped, e, shutdown}, {stopped, c, shutdown},
           {stopped, a, shutdown},
           {started, a}, {started, b}, {started, d}, {started, e}], Ev),
    P2 = pids(S, Ids),
    check("R5/transient_undefined_sibling",
          "transient sibling b that had ended normally (pid undefined)"
          " IS restarted by the one_for_all restart",
          restarted, status(lists:nth(2, P1), lists:nth(2, P2))),
    check("R5/temporary_sibling",
          "temporary sibling c is terminated (shutdown) and removed,"
          " not restarted",
          {removed, [a, b, d, e]},
          {status(lists:nth(3, P1), lists:nth(3, P2)), sorted_ids(S)}),
    {ok, _} = supervisor:start_child(S, w(c, temporary)),
    settle(), _ = take(),
    P3 = pids(S, [a, b, d, e]),
    kill_with(S, c, ?OOPS),
    check("R5/temporary_failed",
          "a temporary child failing abnormally triggers no restart at all"
          " (siblings untouched, c removed)",
          {[same, same, same, same], [{stopped, c, ?OOPS}], [a, b, d, e]},
          {statuses(P3, pids(S, [a, b, d, e])), take(), sorted_ids(S)}),
    stop_sup(S).

%%====================================================================
%% R6  rest_for_one
%%====================================================================
r6() ->
    Ids = [a, b, c, d, e, f],
    S = top(r6, rest_for_one, 10,
            [w(a, permanent), w(b, transient), w(c, permanent),
             w(d, transient), w(e, temporary), w(f, permanent)]),
    _ = take(),
    kill_with(S, b, normal),
    kill_with(S, d, normal),
    check("R6/transient_normal",
          "rest_for_one: transient b, d exit normal -> only they stop",
          [{stopped, b, normal}, {stopped, d, normal}], take()),
    P0 = pids(S, Ids),
    kill_with(S, c, ?OOPS),
    check("R6/order",
          "rest_for_one: c fails -> f, e terminated (reverse order, reason"
          " shutdown; d is not running), then c, d, f started (start order)",
          [{stopped, c, ?OOPS}, {stopped, f, shutdown}, {stopped, e, shutdown},
           {started, c}, {started, d}, {started, f}], take()),
    check("R6/statuses",
          "a untouched; transient b BEFORE c stays undefined; transient d"
          " AFTER c (undefined) is restarted; temporary e removed; f restarted",
          [same, undefined, restarted, restarted, removed, restarted],
          statuses(P0, pids(S, Ids))),
    stop_sup(S).

%%====================================================================
%% R7  intensity MaxR with a huge period
%%====================================================================
r7() ->
    %% MaxR = 0: the first restart gives up
    S0 = top(r7_max0, one_for_one, 0,
             [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    kill_with(S0, b, ?OOPS),
    check("R7/maxr0",
          "MaxR=0: first failure -> no restart; remaining children"
          " terminated in reverse start order (c, a); supervisor exits"
          " with reason shutdown",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown},
            {stopped, a, shutdown}, {sup_down, r7_max0, shutdown}], shutdown},
          {ev(take()), down_reason(S0)}),

    %% MaxR = 2: restarts 1 and 2 allowed, the 3rd gives up
    S2 = top(r7_max2, one_for_one, 2,
             [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    kill_with(S2, b, ?OOPS),
    kill_with(S2, a, ?OOPS),
    check("R7/maxr2_allowed",
          "MaxR=2: restarts #1 (b) and #2 (a, a different child) are done",
          {[{stopped, b, ?OOPS}, {started, b}, {stopped, a, ?OOPS},
            {started, a}], true},
          {take(), is_process_alive(S2)}),
    kill_with(S2, b, ?OOPS),
    check("R7/maxr2_third",
          "MaxR=2: failure #3 -> give up: c, a terminated (reverse order),"
          " supervisor exits shutdown (restarts are counted per supervisor,"
          " not per child)",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown},
            {stopped, a, shutdown}, {sup_down, r7_max2, shutdown}], shutdown},
          {ev(take()), down_reason(S2)}),

    %% giving up under one_for_all restarts nothing first
    S3 = top(r7_all, one_for_all, 0,
             [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    kill_with(S3, b, ?OOPS),
    check("R7/one_for_all_maxr0",
          "one_for_all MaxR=0: the would-be restart is not attempted;"
          " c, a are terminated once by the exiting supervisor",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown},
            {stopped, a, shutdown}, {sup_down, r7_all, shutdown}], shutdown},
          {ev(take()), down_reason(S3)}).

%%====================================================================
%% R8  one_for_all restart of N children counts once
%%====================================================================
r8() ->
    S = top(r8, one_for_all, 1,
            [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    kill_with(S, a, ?OOPS),
    check("R8/first",
          "one_for_all MaxR=1: first failure restarts all 3 children and"
          " the supervisor survives (the event counted once, not 3 times)",
          {[{stopped, a, ?OOPS}, {stopped, c, shutdown}, {stopped, b, shutdown},
            {started, a}, {started, b}, {started, c}], true},
          {take(), is_process_alive(S)}),
    kill_with(S, b, ?OOPS),
    check("R8/second",
          "second failure is restart #2 > MaxR=1 -> give up",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown}, {stopped, a, shutdown},
            {sup_down, r8, shutdown}], shutdown},
          {ev(take()), down_reason(S)}).

%%====================================================================
%% R9  a child supervisor that gives up exits with reason shutdown
%%====================================================================
r9() ->
    %% r9 (one_for_one, MaxR 1) -> [s, mid]
    %% mid (one_for_one, MaxR 1) -> [inner];  inner (MaxR 0) -> [w]
    Inner = sup(inner, permanent, one_for_one, 0, [w(w, permanent)]),
    Mid = sup(mid, permanent, one_for_one, 1, [Inner]),
    S = top(r9, one_for_one, 1, [w(s, permanent), Mid]),
    check("R9/start",
          "nested start order",
          [{sup_started, r9}, {started, s}, {sup_started, mid},
           {sup_started, inner}, {started, w}], take()),
    SPid = pid_of(S, s),
    %% phase 1: inner gives up, mid restarts it (mid restart #1)
    M1 = pid_of(S, mid), I1 = pid_of(M1, inner),
    kill_with(I1, w, ?OOPS),
    check("R9/permanent_restarted",
          "inner (MaxR 0) gives up and exits shutdown; permanent inner is"
          " restarted by mid",
          {[{stopped, w, ?OOPS}, {sup_down, inner, shutdown},
            {sup_started, inner}, {started, w}], same, restarted},
          {ev(take()), status(M1, pid_of(S, mid)),
           status(I1, pid_of(M1, inner))}),
    %% phase 2: inner gives up again -> mid restart #2 > 1 -> mid gives
    %% up -> r9 restarts mid (r9 restart #1)
    I2 = pid_of(M1, inner),
    kill_with(I2, w, ?OOPS),
    check("R9/escalation_two_levels",
          "inner gives up again = mid's restart #2 > MaxR 1 -> mid gives up"
          " (exit shutdown) -> r9 restarts mid (fresh mid, fresh inner)",
          {[{stopped, w, ?OOPS}, {sup_down, inner, shutdown},
            {sup_down, mid, shutdown}, {sup_started, mid},
            {sup_started, inner}, {started, w}], restarted, same},
          {ev(take()), status(M1, pid_of(S, mid)),
           status(SPid, pid_of(S, s))}),
    %% phase 3: fresh mid has a fresh restart history
    M2 = pid_of(S, mid),
    kill_with(pid_of(M2, inner), w, ?OOPS),
    check("R9/fresh_history",
          "a restarted supervisor starts with an empty restart history:"
          " mid restarts inner again",
          {[{stopped, w, ?OOPS}, {sup_down, inner, shutdown},
            {sup_started, inner}, {started, w}], same},
          {ev(take()), status(M2, pid_of(S, mid))}),
    %% phase 4: mid gives up again = r9's restart #2 > 1 -> r9 gives up
    kill_with(pid_of(M2, inner), w, ?OOPS),
    check("R9/escalation_three_levels",
          "inner gives up -> mid gives up -> r9 restart #2 > MaxR 1 ->"
          " r9 terminates s and exits shutdown",
          {[{stopped, w, ?OOPS}, {sup_down, inner, shutdown},
            {sup_down, mid, shutdown}, {stopped, s, shutdown},
            {sup_down, r9, shutdown}], shutdown},
          {ev(take()), down_reason(S)}),

    %% transient and temporary child supervisors
    TS = sup(ts, transient, one_for_one, 0, [w(tw, permanent)]),
    TP = sup(tp, temporary, one_for_one, 0, [w(pw, permanent)]),
    S2 = top(r9b, one_for_one, 5, [TS, TP]),
    _ = take(),
    kill_with(pid_of(S2, ts), tw, ?OOPS),
    check("R9/transient_sup",
          "transient child supervisor that gave up (reason shutdown) is not"
          " restarted; kept with pid undefined",
          {[{stopped, tw, ?OOPS}, {sup_down, ts, shutdown}],
           [{tp, pid}, {ts, undefined}]},   % which_children: newest first
          {ev(take()), id_pids(S2)}),
    kill_with(pid_of(S2, tp), pw, ?OOPS),
    check("R9/temporary_sup",
          "temporary child supervisor that gave up is removed",
          {[{stopped, pw, ?OOPS}, {sup_down, tp, shutdown}],
           [{ts, undefined}]},
          {ev(take()), id_pids(S2)}),
    stop_sup(S2).

%%====================================================================
%% R10 dynamic children via start_child on non-simple supervisors
%%====================================================================
r10() ->
    S = top(r10a, one_for_all, 10, [w(a, permanent), w(b, permanent)]),
    _ = take(),
    {ok, _} = supervisor:start_child(S, w(c, permanent)),
    {ok, _} = supervisor:start_child(S, w(d, transient)),
    check("R10/appended",
          "start_child appends: which_children (newest first) = [d,c,b,a]",
          {[{started, c}, {started, d}], [d, c, b, a]},
          {take(), ids(S)}),
    kill_with(S, a, ?OOPS),
    check("R10/one_for_all",
          "dynamic children take part in one_for_all: terminated first"
          " (d, c, b) and restarted last (a, b, c, d)",
          [{stopped, a, ?OOPS}, {stopped, d, shutdown}, {stopped, c, shutdown},
           {stopped, b, shutdown},
           {started, a}, {started, b}, {started, c}, {started, d}], take()),
    stop_sup(S),

    S1 = top(r10b, rest_for_one, 10, [w(a, permanent), w(b, permanent)]),
    _ = take(),
    {ok, _} = supervisor:start_child(S1, w(c, permanent)),
    _ = take(),
    PA = pid_of(S1, a),
    kill_with(S1, b, ?OOPS),
    check("R10/rest_for_one",
          "rest_for_one: static b fails -> dynamic c (later) is"
          " terminated and restarted too; a untouched",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown}, {started, b},
            {started, c}], same},
          {take(), status(PA, pid_of(S1, a))}),
    stop_sup(S1),

    X = sup(x, permanent, one_for_one, 0, [w(a, permanent), w(b, permanent)]),
    S2 = top(r10c, one_for_one, 5, [X]),
    _ = take(),
    X1 = pid_of(S2, x),
    {ok, _} = supervisor:start_child(X1, w(c, permanent)),
    _ = take(),
    kill_with(X1, a, ?OOPS),
    X2 = pid_of(S2, x),
    check("R10/gone_after_parent_restart",
          "x gives up (terminating c, b) and is restarted by its parent:"
          " only the static children a, b come back, dynamic c is gone",
          {[{stopped, a, ?OOPS}, {stopped, c, shutdown}, {stopped, b, shutdown},
            {sup_down, x, shutdown}, {sup_started, x}, {started, a},
            {started, b}], restarted, [b, a]},
          {ev(take()), status(X1, X2), ids(X2)}),
    stop_sup(S2).

%%====================================================================
%% R11 terminating a child supervisor terminates its children first
%%====================================================================
r11() ->
    Inner = sup(inner11, permanent, one_for_one, 5,
                [w(x1, permanent), w(x2, permanent), w(x3, permanent)]),
    S = top(r11, one_for_one, 5, [w(y, permanent), Inner]),
    _ = take(),
    ok = supervisor:terminate_child(S, inner11),
    check("R11/terminate_child",
          "terminate_child(inner11): x3, x2, x1 get shutdown (reverse start"
          " order) before inner11 exits (shutdown)",
          [{stopped, x3, shutdown}, {stopped, x2, shutdown},
           {stopped, x1, shutdown}, {sup_down, inner11, shutdown}], take()),
    {ok, _} = supervisor:restart_child(S, inner11),
    settle(), _ = take(),
    exit(S, shutdown),
    Down = down_reason(S),
    settle(),
    check("R11/whole_tree",
          "shutting down the top supervisor: depth-first, reverse start"
          " order at each level",
          {[{stopped, x3, shutdown}, {stopped, x2, shutdown},
            {stopped, x1, shutdown}, {sup_down, inner11, shutdown},
            {stopped, y, shutdown}, {sup_down, r11, shutdown}], shutdown},
          {ev(take()), Down}),

    Inner2 = sup(inner11b, permanent, one_for_one, 5,
                 [w(x1, permanent), w(x2, permanent)]),
    S2 = top(r11b, one_for_all, 5, [Inner2, w(y, permanent)]),
    _ = take(),
    kill_with(S2, y, ?OOPS),
    check("R11/one_for_all",
          "one_for_all restart: child supervisor's children x2, x1 stopped"
          " before it exits; then everything restarted in start order",
          [{stopped, y, ?OOPS}, {stopped, x2, shutdown},
           {stopped, x1, shutdown}, {sup_down, inner11b, shutdown},
           {sup_started, inner11b}, {started, x1}, {started, x2},
           {started, y}], ev(take())),
    stop_sup(S2).

%%====================================================================
%% R12 children the supervisor terminates itself count nothing
%%====================================================================
r12() ->
    S = top(r12, one_for_all, 1,
            [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    ok = supervisor:terminate_child(S, a),
    AfterTerm = pid_of(S, a),
    {ok, _} = supervisor:restart_child(S, a),
    [begin
         ok = supervisor:terminate_child(S, a),
         {ok, _} = supervisor:restart_child(S, a)
     end || _ <- [1, 2]],
    settle(),
    check("R12/terminate_child",
          "3x terminate_child+restart_child of permanent a: no automatic"
          " restart (pid undefined until restart_child), siblings untouched,"
          " supervisor (MaxR 1) alive",
          {undefined, [{stopped, a, shutdown}, {started, a},
                       {stopped, a, shutdown}, {started, a},
                       {stopped, a, shutdown}, {started, a}], true},
          {AfterTerm, take(), is_process_alive(S)}),
    kill_with(S, b, ?OOPS),
    check("R12/sibling_shutdowns",
          "failure #1 (one_for_all terminates a and c): supervisor survives",
          {[{stopped, b, ?OOPS}, {stopped, c, shutdown}, {stopped, a, shutdown},
            {started, a}, {started, b}, {started, c}], true},
          {take(), is_process_alive(S)}),
    kill_with(S, c, ?OOPS),
    check("R12/count_is_one",
          "failure #2 gives up: only the 1 real failure had been counted",
          {[{stopped, c, ?OOPS}, {stopped, b, shutdown}, {stopped, a, shutdown},
            {sup_down, r12, shutdown}], shutdown},
          {ev(take()), down_reason(S)}),

    S2 = top(r12b, one_for_one, 0, [w(a, permanent), w(b, permanent)]),
    _ = take(),
    kill_with(S2, a, shutdown),
    check("R12/self_shutdown_counts",
          "contrast: a permanent child that exits ON ITS OWN with reason"
          " shutdown is a restart and counts (MaxR 0 -> give up)",
          {[{stopped, a, shutdown}, {stopped, b, shutdown},
            {sup_down, r12b, shutdown}], shutdown},
          {ev(take()), down_reason(S2)}).

%%====================================================================
%% R13 start_child on a supervisor that no longer exists
%%====================================================================
r13() ->
    S = top(r13, one_for_one, 5, [w(a, permanent)]),
    stop_sup(S),
    Spec = w(z, permanent),
    check("R13/dead_pid",
          "start_child(DeadPid, Spec) raises exit (not an {error,_} return)",
          {'EXIT', {noproc, {gen_server, call,
                             [S, {start_child, Spec}, infinity]}}},
          (catch supervisor:start_child(S, Spec))),
    check("R13/unregistered_name",
          "start_child(UnregisteredName, Spec) raises the same exit",
          {'EXIT', {noproc, {gen_server, call,
                             [concord_no_such_sup, {start_child, Spec},
                              infinity]}}},
          (catch supervisor:start_child(concord_no_such_sup, Spec))),
    check("R13/which_children",
          "which_children on a dead supervisor: exit noproc as well",
          {'EXIT', {noproc, {gen_server, call, [S, which_children, infinity]}}},
          (catch supervisor:which_children(S))).

%%====================================================================
%% R14 which_children order, restart_child
%%====================================================================
r14() ->
    S = top(r14, one_for_one, 5, [w(a, permanent), w(b, permanent),
                                  w(c, permanent)]),
    {ok, _} = supervisor:start_child(S, w(d, permanent)),
    settle(), _ = take(),
    check("R14/order",
          "which_children lists children in REVERSE start order"
          " (newest first, dynamic children first)",
          [d, c, b, a], ids(S)),
    ok = supervisor:terminate_child(S, b),
    R1 = supervisor:restart_child(S, b),
    check("R14/restart_child",
          "restart_child of a terminated child returns {ok,Pid} and keeps"
          " its position; running -> {error,running};"
          " unknown -> {error,not_found}",
          {ok, [d, c, b, a], {error, running}, {error, not_found}},
          {element(1, R1), ids(S), supervisor:restart_child(S, b),
           supervisor:restart_child(S, nope)}),
    check("R14/count_children", "count_children after the above",
          [{specs, 4}, {active, 4}, {supervisors, 0}, {workers, 4}],
          supervisor:count_children(S)),
    stop_sup(S),
    S2 = top(r14b, one_for_all, 5, [w(a, permanent), w(b, permanent),
                                    w(c, permanent)]),
    _ = take(),
    kill_with(S2, b, ?OOPS),
    check("R14/order_after_restart",
          "order unchanged after a one_for_all restart",
          [c, b, a], ids(S2)),
    stop_sup(S2).

%%====================================================================
%% R15 logger reports
%%====================================================================
r15() ->
    #{level := PrimaryLevel} = logger:get_primary_config(),
    check("R15/primary_level", "default primary logger level", notice,
          PrimaryLevel),
    Cap = spawn(fun() -> logcap([]) end),
    register(?LOGCAP, Cap),
    ok = logger:add_handler(concord_capture, ?MODULE, #{level => all}),
    try r15_body()
    after
        logger:remove_handler(concord_capture),
        logger:set_primary_config(level, PrimaryLevel),
        unregister(?LOGCAP),
        exit(Cap, kill)
    end.

r15_body() ->
    S = top(r15, one_for_one, 10, [w(a, permanent), w(t, transient)]),
    _ = take(), _ = logs(),
    PA = pid_of(S, a),
    kill_with(S, a, ?OOPS),
    L1 = logs(),
    check("R15/restart_labels",
          "abnormal exit + restart at level notice: worker logs"
          " gen_server terminate + proc_lib crash, supervisor logs"
          " child_terminated (error, domain [otp,sasl]); no progress report",
          [{error, {gen_server, terminate}, [otp]},
           {error, {proc_lib, crash}, [otp, sasl]},
           {error, {supervisor, child_terminated}, [otp, sasl]}],
          [{L, Lb, D} || {L, Lb, D, _} <- L1]),
    {_, _, _, CT} = lists:last(L1),
    check("R15/child_terminated_report",
          "child_terminated report fields",
          [{supervisor, {S, supervision}}, {errorContext, child_terminated},
           {reason, ?OOPS},
           {offender, [{pid, PA}, {id, a},
                       {mfargs, {exp_worker, start_link, [a]}},
                       {restart_type, permanent}, {significant, false},
                       {shutdown, 5000}, {child_type, worker}]}],
          CT),
    PA2 = pid_of(S, a),
    kill_with(S, a, normal),
    check("R15/permanent_normal",
          "permanent child exiting normal still gets an error-level"
          " child_terminated report with reason normal (no crash reports)",
          [{error, {supervisor, child_terminated}, normal, PA2}],
          [{L, Lb, proplists:get_value(reason, R),
            proplists:get_value(pid, proplists:get_value(offender, R))}
           || {L, Lb, _, R} <- logs()]),
    kill_with(S, t, normal),
    check("R15/transient_normal", "transient child exiting normal: no report",
          [], logs()),
    ok = logger:set_primary_config(level, info),
    kill_with(S, a, ?OOPS),
    L3 = logs(),
    {_, _, _, Prog} = lists:last(L3),
    check("R15/progress",
          "with primary level info a restart also emits an info progress"
          " report {supervisor,progress} [{supervisor,_},{started,Child}]",
          {[{error, {gen_server, terminate}}, {error, {proc_lib, crash}},
            {error, {supervisor, child_terminated}},
            {info, {supervisor, progress}}],
           [supervisor, started],
           [pid, id, mfargs, restart_type, significant, shutdown, child_type]},
          {[{L, Lb} || {L, Lb, _, _} <- L3], keys(Prog),
           keys(proplists:get_value(started, Prog))}),
    ok = logger:set_primary_config(level, notice),
    stop_sup(S), _ = logs(),

    S2 = top(r15b, one_for_one, 0, [w(a, permanent), w(b, permanent)]),
    _ = take(), _ = logs(),
    PB = pid_of(S2, b),
    kill_with(S2, b, ?OOPS),
    _ = down_reason(S2),
    L4 = logs(),
    check("R15/give_up_labels",
          "giving up: child_terminated then {supervisor,shutdown}; the"
          " supervisor's own exit (shutdown) and its terminated siblings"
          " produce no reports",
          [{error, {gen_server, terminate}}, {error, {proc_lib, crash}},
           {error, {supervisor, child_terminated}},
           {error, {supervisor, shutdown}}],
          [{L, Lb} || {L, Lb, _, _} <- L4]),
    {_, _, _, SD} = lists:last(L4),
    check("R15/shutdown_report",
          "give-up report fields (offender = the child whose failure"
          " exceeded the intensity)",
          [{supervisor, {S2, supervision}}, {errorContext, shutdown},
           {reason, reached_max_restart_intensity},
           {offender, [{pid, PB}, {id, b},
                       {mfargs, {exp_worker, start_link, [b]}},
                       {restart_type, permanent}, {significant, false},
                       {shutdown, 5000}, {child_type, worker}]}],
          SD).

keys(PL) -> [K || {K, _} <- PL].

%% logger handler callback
log(#{level := Level, msg := Msg, meta := Meta}, _Config) ->
    {Label, Report} =
        case Msg of
            {report, #{label := Lb, report := R}} -> {Lb, R};
            {report, #{label := Lb} = R} -> {Lb, R};
            Other -> {other, Other}
        end,
    case whereis(?LOGCAP) of
        undefined -> ok;
        P -> P ! {log, {Level, Label, maps:get(domain, Meta, undefined),
                        Report}}
    end,
    ok.

logcap(Acc) ->
    receive
        {log, E} -> logcap([E | Acc]);
        {take, From} -> From ! {logs, lists:reverse(Acc)}, logcap([])
    end.

logs() ->
    settle(),
    ?LOGCAP ! {take, self()},
    receive {logs, L} -> L after 5000 -> error(logcap_timeout) end.

%%====================================================================
%% helpers: child specs, supervisors
%%====================================================================
flags(Strategy, MaxR) ->
    #{strategy => Strategy, intensity => MaxR, period => ?PERIOD}.

w(Id, Restart) ->
    #{id => Id, start => {exp_worker, start_link, [Id]}, restart => Restart,
      shutdown => 5000, type => worker, modules => [exp_worker]}.

sup(Id, Restart, Strategy, MaxR, Children) ->
    #{id => Id,
      start => {supervisor, start_link,
                [?MODULE, {Id, flags(Strategy, MaxR), Children}]},
      restart => Restart, shutdown => infinity, type => supervisor,
      modules => [?MODULE]}.

top(Name, Strategy, MaxR, Children) ->
    {ok, Pid} = supervisor:start_link(?MODULE,
                                      {Name, flags(Strategy, MaxR), Children}),
    put({mon, Pid}, erlang:monitor(process, Pid)),
    settle(),
    Pid.

down_reason(Pid) ->
    Ref = get({mon, Pid}),
    receive
        {'DOWN', Ref, process, Pid, Reason} ->
            receive {'EXIT', Pid, _} -> ok after 100 -> ok end,
            Reason
    after 5000 -> still_alive
    end.

stop_sup(Pid) ->
    case is_process_alive(Pid) of
        true -> exit(Pid, shutdown), _ = down_reason(Pid);
        false -> ok
    end,
    settle(), _ = take(), ok.

flush_exits() ->
    receive {'EXIT', _, _} -> flush_exits(); {'DOWN', _, _, _, _} -> flush_exits()
    after 0 -> ok
    end.

kill_with(Sup, Id, Reason) ->
    Pid = pid_of(Sup, Id),
    true = is_pid(Pid),
    exp_worker:exit_with(Pid, Reason),
    settle().

pid_of(Sup, Id) ->
    case lists:keyfind(Id, 1, supervisor:which_children(Sup)) of
        {Id, Pid, _, _} -> Pid;
        false -> absent
    end.

pids(Sup, Ids) -> [pid_of(Sup, Id) || Id <- Ids].
ids(Sup) -> [Id || {Id, _, _, _} <- supervisor:which_children(Sup)].
sorted_ids(Sup) -> lists:sort(ids(Sup)).
id_pids(Sup) ->
    [{Id, case P of undefined -> undefined; _ when is_pid(P) -> pid end}
     || {Id, P, _, _} <- supervisor:which_children(Sup)].

status(Old, New) when is_pid(New), New =:= Old -> same;
status(_Old, New) when is_pid(New) -> restarted;
status(_Old, undefined) -> undefined;
status(_Old, absent) -> removed;
status(_Old, Other) -> Other.

statuses(Old, New) -> lists:zipwith(fun status/2, Old, New).

tag(normal) -> "normal";
tag(shutdown) -> "shutdown";
tag({shutdown, _}) -> "shutdown_tuple";
tag(_) -> "abnormal".

%%====================================================================
%% collector
%%====================================================================
start_collector() ->
    Pid = spawn(fun() -> collector([], #{}) end),
    register(?COLL, Pid).

collector(Evs, Mons) ->
    receive
        {watch, Name, Pid} ->
            Ref = erlang:monitor(process, Pid),
            collector([{sup_started, Name} | Evs], Mons#{Ref => Name});
        {'DOWN', Ref, process, _, Reason} when is_map_key(Ref, Mons) ->
            collector([{sup_down, maps:get(Ref, Mons), Reason} | Evs],
                      maps:remove(Ref, Mons));
        {count, From} ->
            From ! {count, length(Evs)}, collector(Evs, Mons);
        {take, From} ->
            From ! {events, lists:reverse(Evs)}, collector([], Mons);
        Ev ->
            collector([Ev | Evs], Mons)
    end.

take() ->
    ?COLL ! {take, self()},
    receive {events, E} -> E end.

%% Wait until nothing is left to happen: the node is idle (no process but this
%% one running or ready to run: total_active_tasks is 1, the run queues empty)
%% and the event log has not grown, at four polls 5 ms apart. These experiments
%% start no timer that matters (no shutdown time runs out), so once the node is
%% idle every reaction has run its course. It waits for the schedulers, not for
%% the clock (it used to wait for a quiet period of 4 x 40 ms: 20 s in all).
settle() -> settle(count(), 0, 0).
settle(_N, 4, _) -> ok;
settle(_N, _, Polls) when Polls > 2000 -> error(node_never_idle);
settle(N, Idle, Polls) ->
    timer:sleep(5),
    case {idle(), count()} of
        {true, N} -> settle(N, Idle + 1, Polls + 1);
        {_, M} -> settle(M, 0, Polls + 1)
    end.

idle() ->
    erlang:statistics(total_active_tasks) =:= 1 andalso erlang:statistics(run_queue) =:= 0.

count() ->
    ?COLL ! {count, self()},
    receive {count, N} -> N end.

%%====================================================================
%% checks
%%====================================================================
%% ev(Events) marks an event list whose sup_down entries may arrive later
%% than their causal position (see the module header).
ev(Events) -> {ev, Events}.

check(Id, What, Expected, Got) ->
    case matches(Expected, Got) of
        true ->
            io:format("PASS ~s: ~s; observed ~0p~n", [Id, What, unev(Got)]);
        false ->
            fail_line(Id, What, {expected, unev(Expected), got, unev(Got)})
    end.

fail_line(Id, What, {expected, E, got, G}) ->
    put(fails, get(fails) + 1),
    io:format("FAIL ~s: expected ~0p, got ~0p (~s)~n", [Id, E, G, What]);
fail_line(Id, What, Crash) ->
    put(fails, get(fails) + 1),
    io:format("FAIL ~s: expected ~s, got crash ~0p~n", [Id, What, Crash]).

matches(E, {ev, G}) when is_list(E) -> ev_match(E, G);
matches(E, G) when is_tuple(E), is_tuple(G), tuple_size(E) =:= tuple_size(G) ->
    lists:all(fun({X, Y}) -> matches(X, Y) end,
              lists:zip(tuple_to_list(E), tuple_to_list(G)));
matches(E, G) -> E =:= G.

unev({ev, G}) -> G;
unev(T) when is_tuple(T) -> list_to_tuple([unev(X) || X <- tuple_to_list(T)]);
unev(X) -> X.

%% Exact match, or: identical apart from sup_down entries, which may only
%% have moved later (more non-sup_down events before them).
ev_match(Exp, Got) ->
    Exp =:= Got orelse
        (strip(Exp) =:= strip(Got) andalso
         lists:sort(Exp) =:= lists:sort(Got) andalso
         lists:all(fun(D) -> before_count(D, Got) >= before_count(D, Exp) end,
                   [D || {sup_down, _, _} = D <- Exp])).

strip(L) -> [E || E <- L, element(1, E) =/= sup_down].

before_count(D, L) ->
    {Before, _} = lists:splitwith(fun(E) -> E =/= D end, L),
    length(strip(Before)).

fmt(T) -> lists:flatten(io_lib:format("~0p", [T])).
