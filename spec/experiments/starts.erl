%% starts: experiments that pin down what OTP 25 does when a child's init fails
%% ({stop, Reason} or an exception) or returns ignore: when a supervisor starts,
%% when it restarts a child, and for start_child, restart_child and an
%% unsupervised gen_server:start (SPEC §19; rules R34-R39). Run with
%% spec/experiments/run.sh starts.
%%
%% Same conventions as links.erl. An actor's init attempts follow the plan the
%% experiment made for its id (exp_lib:plan/2) and report {started, Id},
%% {init_failed, Id, Reason} or {ignored, Id}; supervisors report
%% {sup_started, Id} and are watched ({down, Id, Reason}).
-module(starts).
-export([main/0]).

-define(BOOM, {fail, 'BOOM'}).
-define(BAD, {fail, 'BAD_INIT'}).

main() ->
    exp_lib:main(?MODULE, [fun r34/0, fun r35/0, fun r36/0, fun r37/0, fun r38/0, fun r39/0]).

%%====================================================================
%% R34 a static child fails when its supervisor starts
%%====================================================================
r34() ->
    exp_lib:plan(b, [{stop, ?BAD}]),
    Res = start_sup(s, one_for_one, 5, [w(a), w(b), w(c)]),
    check("R34/stop",
          "b's init returns {stop, R}: the supervisor's start fails with"
          " {shutdown, {failed_to_start_child, b, R}}; a (started before b) is terminated"
          " with shutdown, c is never started, the supervisor exits with that reason",
          {{error, {shutdown, {failed_to_start_child, b, ?BAD}}},
           [{sup_started, s}, {started, a}, {init_failed, b, ?BAD}, {down, a, shutdown},
            {down, s, {shutdown, {failed_to_start_child, b, ?BAD}}}]},
          {Res, take()}),
    exp_lib:kill_all(),
    exp_lib:plan(b, [crash]),
    {error, {shutdown, {failed_to_start_child, b, Crash}}} = start_sup(s, one_for_one, 5, [w(a), w(b), w(c)]),
    check("R34/crash",
          "an exception in init is a failed start like {stop, R} (the reason is the"
          " exception with its stack)",
          {crash_in_init, [{sup_started, s}, {started, a}, {init_failed, b, crash}, {down, a, shutdown}]},
          {element(1, Crash), lists:droplast(take())}),
    exp_lib:kill_all(),
    exp_lib:plan(b, [ignore]),
    exp_lib:plan(t, [ignore]),
    {ok, S} = start_sup(s, one_for_one, 5, [w(a), w(b), w(c), exp_actor:spec(t, temporary)]),
    check("R34/ignore",
          "init returns ignore: the start goes on; a permanent child that ignored is kept"
          " not running (pid undefined), a temporary one is not kept",
          {[{sup_started, s}, {started, a}, {ignored, b}, {started, c}, {ignored, t}],
           [{a, pid}, {b, undefined}, {c, pid}]},
          {take(), children(S)}),
    exp_lib:kill_all(),
    exp_lib:plan(t2, [{stop, ?BAD}]),
    Inner = exp_sup:spec(t, permanent, exp_sup:flags(one_for_one, 5), [w(t1), w(t2)], false),
    Res2 = start_sup(s, one_for_one, 5, [w(a), Inner, w(c)]),
    check("R34/nested",
          "a failing child of a nested supervisor t fails t's start, which fails the"
          " parent's start: each level terminates what it had started, in reverse order",
          {{error, {shutdown, {failed_to_start_child, t, {shutdown, {failed_to_start_child, t2, ?BAD}}}}},
           [{sup_started, s}, {started, a}, {sup_started, t}, {started, t1}, {init_failed, t2, ?BAD},
            {down, t1, shutdown}, {down, t, {shutdown, {failed_to_start_child, t2, ?BAD}}},
            {down, a, shutdown}]},
          {Res2, lists:droplast(take())}).

%%====================================================================
%% R35 a failed restart counts toward intensity and is tried again
%%====================================================================
r35() ->
    exp_lib:plan(b, [ok, {stop, ?BAD}, {stop, ?BAD}]),
    {ok, S} = start_sup(s, one_for_one, 3, [w(a), w(b)]),
    _ = take(),
    exp_actor:cast(b, {stop, ?BOOM}),
    check("R35/retried",
          "one_for_one, MaxR 3: b fails; the restart's init fails twice and the third"
          " attempt starts b: every attempt is a restart (the supervisor tries again"
          " at once, through a message to itself)",
          {[{down, b, ?BOOM}, {init_failed, b, ?BAD}, {init_failed, b, ?BAD}, {started, b}], alive},
          {take(), exp_lib:sync(S)}),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R35/counted",
          "the three attempts were counted: the next failure (restart 4 > MaxR 3) gives up",
          [{down, a, ?BOOM}, {down, b, shutdown}, {down, s, shutdown}], take()),
    exp_lib:kill_all(),
    exp_lib:plan(b, [ok | lists:duplicate(10, {stop, ?BAD})]),
    {ok, _} = start_sup(s, one_for_one, 2, [w(a), w(b)]),
    _ = take(),
    exp_actor:cast(b, {stop, ?BOOM}),
    check("R35/always_fails",
          "MaxR 2, b's init always fails on restart: two attempts, then the supervisor"
          " gives up (terminates a, exits shutdown)",
          [{down, b, ?BOOM}, {init_failed, b, ?BAD}, {init_failed, b, ?BAD},
           {down, a, shutdown}, {down, s, shutdown}], take()).

%%====================================================================
%% R36 a failed restart under one_for_all and rest_for_one
%%====================================================================
r36() ->
    exp_lib:plan(b, [ok, {stop, ?BAD}]),
    {ok, S} = start_sup(s, one_for_all, 2, [w(a), w(b), w(c)]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R36/one_for_all",
          "one_for_all: a fails; c, b are terminated, a is started, b's start fails (c is"
          " not started); the retry is a restart of b by the strategy: a is terminated"
          " again and a, b, c are started",
          {[{down, a, ?BOOM}, {down, c, shutdown}, {down, b, shutdown}, {started, a},
            {init_failed, b, ?BAD}, {down, a, shutdown}, {started, a}, {started, b}, {started, c}],
           alive},
          {take(), exp_lib:sync(S)}),
    exp_actor:cast(c, {stop, ?BOOM}),
    check("R36/one_for_all_counted",
          "that was two restarts: the next failure gives up (MaxR 2)",
          shutdown, exp_lib:wait_down(S)),
    exp_lib:kill_all(),
    exp_lib:plan(c, [ok, {stop, ?BAD}]),
    {ok, S2} = start_sup(s, rest_for_one, 5, [w(a), w(b), w(c)]),
    _ = take(),
    exp_actor:cast(b, {stop, ?BOOM}),
    check("R36/rest_for_one",
          "rest_for_one: b fails; c is terminated, b started, c's start fails; the retry"
          " restarts c by the strategy (c and what follows it): b is left running",
          {[{down, b, ?BOOM}, {down, c, shutdown}, {started, b}, {init_failed, c, ?BAD},
            {started, c}], [{a, pid}, {b, pid}, {c, pid}]},
          {take(), children(S2)}).

%%====================================================================
%% R37 init returns ignore on restart
%%====================================================================
r37() ->
    exp_lib:plan(b, [ok, ignore]),
    {ok, S} = start_sup(s, one_for_one, 1, [w(a), w(b)]),
    _ = take(),
    exp_actor:cast(b, {stop, ?BOOM}),
    check("R37/ignore",
          "a permanent child whose restart returns ignore is kept not running: no retry",
          {[{down, b, ?BOOM}, {ignored, b}], [{a, pid}, {b, undefined}]},
          {take(), children(S)}),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R37/counted", "the ignored restart counted: the next failure gives up (MaxR 1)",
          shutdown, exp_lib:wait_down(S)).

%%====================================================================
%% R38 start_child and an unsupervised start
%%====================================================================
r38() ->
    {ok, S} = start_sup(s, one_for_one, 0, [w(a)]),
    _ = take(),
    exp_lib:plan(d, [{stop, ?BAD}]),
    R1 = supervisor:start_child(S, w(d)),
    check("R38/start_child_fails",
          "start_child whose init fails returns {error, {R, Child}} (no exception); the"
          " child is not added; the supervisor is untouched (MaxR 0 and alive)",
          {error, ?BAD, [{init_failed, d, ?BAD}], [{a, pid}], alive},
          {element(1, R1), element(1, element(2, R1)), take(), children(S), exp_lib:sync(S)}),
    exp_lib:plan(d, [ignore]),
    exp_lib:plan(e, [ignore]),
    R2 = supervisor:start_child(S, w(d)),
    R3 = supervisor:start_child(S, exp_actor:spec(e, temporary)),
    check("R38/start_child_ignore",
          "start_child whose init returns ignore returns {ok, undefined}; a permanent child"
          " is added not running, a temporary one is not added",
          {{ok, undefined}, {ok, undefined}, [{ignored, d}, {ignored, e}], [{a, pid}, {d, undefined}]},
          {R2, R3, take(), children(S)}),
    exp_lib:kill_all(),
    exp_lib:plan(u, [{stop, ?BAD}]),
    R4 = gen_server:start_link(exp_actor, u, []),
    Exit4 = receive {'EXIT', _, W4} -> W4 after 1000 -> none end,
    exp_lib:plan(u, [ignore]),
    R5 = gen_server:start_link(exp_actor, u, []),
    Exit5 = receive {'EXIT', _, W5} -> W5 after 1000 -> none end,
    check("R38/unsupervised",
          "gen_server:start of a process whose init fails returns {error, R} and the process"
          " exits with R; with ignore it returns ignore and the process exits normal",
          {{error, ?BAD}, ?BAD, ignore, normal}, {R4, Exit4, R5, Exit5}).

%%====================================================================
%% R39 restart_child when the start fails
%%====================================================================
r39() ->
    {ok, S} = start_sup(s, one_for_one, 0, [w(a), w(b)]),
    ok = supervisor:terminate_child(S, b),
    _ = take(),
    exp_lib:plan(b, [{stop, ?BAD}, ignore]),
    R1 = supervisor:restart_child(S, b),
    check("R39/fails",
          "restart_child whose init fails returns {error, R}; the child stays not running;"
          " nothing is counted (MaxR 0 and the supervisor is alive)",
          {{error, ?BAD}, [{init_failed, b, ?BAD}], [{a, pid}, {b, undefined}], alive},
          {R1, take(), children(S), exp_lib:sync(S)}),
    R2 = supervisor:restart_child(S, b),
    check("R39/ignore", "restart_child whose init returns ignore returns {ok, undefined}",
          {{ok, undefined}, [{ignored, b}], [{a, pid}, {b, undefined}]},
          {R2, take(), children(S)}),
    R3 = supervisor:restart_child(S, b),
    check("R39/then_ok", "the next restart_child starts it",
          {ok, [{started, b}], [{a, pid}, {b, pid}]},
          {element(1, R3), take(), children(S)}).

%%====================================================================
%% helpers
%%====================================================================
w(Id) -> exp_actor:spec(Id, permanent).

start_sup(Id, Strategy, MaxR, Specs) ->
    case exp_sup:start_link(Id, exp_sup:flags(Strategy, MaxR), Specs) of
        {ok, P} -> unlink(P), {ok, P};
        Error -> receive {'EXIT', _, _} -> ok after 1000 -> ok end, Error
    end.

%% Children in start order, each with pid or undefined.
children(S) ->
    [{Id, case P of undefined -> undefined; _ when is_pid(P) -> pid end}
     || {Id, P, _, _} <- lists:reverse(supervisor:which_children(S))].

take() -> exp_lib:take().
check(Id, What, Expected, Got) -> exp_lib:check(Id, What, Expected, Got).
