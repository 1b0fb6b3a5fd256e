%% supervisor_api: experiments that pin down terminate_child, restart_child and
%% delete_child on a real OTP 25 node, with their results, and the one window in
%% which OTP answers {error, restarting} (SPEC §20; rules R40-R44). Run with
%% spec/experiments/run.sh supervisor_api.
%%
%% Same conventions as starts.erl.
-module(supervisor_api).
-export([main/0]).

-define(BOOM, {fail, 'BOOM'}).
-define(BAD, {fail, 'BAD_INIT'}).

main() ->
    exp_lib:main(?MODULE, [fun r40/0, fun r41/0, fun r42/0, fun r43/0, fun r44/0]).

%%====================================================================
%% R40 terminate_child
%%====================================================================
r40() ->
    {ok, S} = start_sup(s, one_for_one, 0,
                        [w(a, permanent), w(b, transient), w(c, temporary)]),
    _ = take(),
    R1 = supervisor:terminate_child(S, a),
    check("R40/running",
          "terminate_child of a running permanent child: ok; it exits shutdown and stays"
          " in the list not running; no restart, nothing counted (MaxR 0, still alive)",
          {ok, [{down, a, shutdown}], [{a, undefined}, {b, pid}, {c, pid}], alive},
          {R1, take(), children(S), exp_lib:sync(S)}),
    check("R40/not_running",
          "terminate_child of a child that is not running: ok, nothing happens",
          {ok, [], [{a, undefined}, {b, pid}, {c, pid}]},
          {supervisor:terminate_child(S, a), take(), children(S)}),
    check("R40/transient_temporary",
          "terminate_child of a transient child keeps it not running; of a temporary"
          " child removes it",
          {ok, ok, [{down, b, shutdown}, {down, c, shutdown}], [{a, undefined}, {b, undefined}]},
          {supervisor:terminate_child(S, b), supervisor:terminate_child(S, c), take(), children(S)}),
    check("R40/not_found", "terminate_child of an unknown id: {error, not_found}",
          {error, not_found}, supervisor:terminate_child(S, nope)),
    {ok, _} = supervisor:start_child(S, w(d, permanent)),
    _ = take(),
    check("R40/dynamic",
          "a child added by start_child is terminated the same way (kept not running)",
          {ok, [{down, d, shutdown}], [{a, undefined}, {b, undefined}, {d, undefined}]},
          {supervisor:terminate_child(S, d), take(), children(S)}).

%%====================================================================
%% R41 restart_child
%%====================================================================
r41() ->
    {ok, S} = start_sup(s, one_for_one, 0,
                        [w(a, permanent), w(b, transient), w(c, temporary)]),
    ok = supervisor:terminate_child(S, a),
    exp_actor:cast(b, {stop, normal}),
    exp_actor:cast(c, {stop, normal}),
    _ = take(),
    RA = supervisor:restart_child(S, a),
    RB = supervisor:restart_child(S, b),
    check("R41/not_running",
          "restart_child of a child that is not running (terminated permanent a,"
          " transient b that ended normally) starts it: {ok, Pid}, same position;"
          " nothing counted (MaxR 0, alive)",
          {ok, ok, [{started, a}, {started, b}], [{a, pid}, {b, pid}], alive},
          {element(1, RA), element(1, RB), take(), children(S), exp_lib:sync(S)}),
    check("R41/running", "restart_child of a running child: {error, running}",
          {error, running}, supervisor:restart_child(S, a)),
    check("R41/not_found",
          "restart_child of an unknown id, or of a temporary child that ended (it was"
          " removed): {error, not_found}",
          {{error, not_found}, {error, not_found}},
          {supervisor:restart_child(S, nope), supervisor:restart_child(S, c)}).

%%====================================================================
%% R42 delete_child
%%====================================================================
r42() ->
    {ok, S} = start_sup(s, one_for_one, 5, [w(a, permanent), w(b, permanent), w(c, permanent)]),
    _ = take(),
    check("R42/running", "delete_child of a running child: {error, running}",
          {error, running}, supervisor:delete_child(S, b)),
    ok = supervisor:terminate_child(S, b),
    _ = take(),
    check("R42/not_running",
          "delete_child of a child that is not running: ok, its entry is gone, and"
          " restart_child then says not_found",
          {ok, [{a, pid}, {c, pid}], {error, not_found}},
          {supervisor:delete_child(S, b), children(S), supervisor:restart_child(S, b)}),
    check("R42/not_found", "delete_child of an unknown id: {error, not_found}",
          {error, not_found}, supervisor:delete_child(S, b)),
    {ok, _} = supervisor:start_child(S, w(b, permanent)),
    check("R42/re_added", "a child added again after delete_child comes last in start order",
          [{a, pid}, {c, pid}, {b, pid}], children(S)).

%%====================================================================
%% R43 {error, restarting}: only for a request queued behind a failed restart
%%====================================================================
r43() ->
    exp_lib:plan(b, [ok, {stop, ?BAD}]),
    {ok, S} = start_sup(s, one_for_one, 5, [w(a, permanent), w(b, permanent)]),
    _ = take(),
    ok = sys:suspend(S),
    exit(exp_lib:pid(b), kill),
    timer:sleep(20),
    Me = self(),
    %% both requests reach the suspended supervisor after b's 'EXIT'
    [spawn(fun() -> Me ! {Tag, catch supervisor:F(S, b)} end)
     || {Tag, F} <- [{r, restart_child}, {d, delete_child}]],
    timer:sleep(20),
    ok = sys:resume(S),
    Rs = [receive {Tag, X} -> X after 2000 -> timeout end || Tag <- [r, d]],
    check("R43/restarting",
          "b is killed while its supervisor is suspended, and restart_child and"
          " delete_child for b are queued behind the 'EXIT': the restart fails, the"
          " retry is queued behind them, and both answer {error, restarting}; then"
          " the retry starts b",
          {[{error, restarting}, {error, restarting}],
           [{down, b, killed}, {init_failed, b, ?BAD}, {started, b}]},
          {Rs, take()}).

%%====================================================================
%% R44 the API on a supervisor that no longer exists
%%====================================================================
r44() ->
    {ok, S} = start_sup(s, one_for_one, 5, [w(a, permanent)]),
    exit(S, kill),
    _ = exp_lib:wait_down(S),
    check("R44/dead",
          "terminate_child, restart_child and delete_child on a dead supervisor raise"
          " exit({noproc, {gen_server, call, _}}) in the caller, as start_child does [R13]",
          [noproc, noproc, noproc],
          [case catch supervisor:F(S, a) of
               {'EXIT', {noproc, {gen_server, call, _}}} -> noproc;
               Other -> Other
           end || F <- [terminate_child, restart_child, delete_child]]).

%%====================================================================
%% helpers
%%====================================================================
w(Id, Restart) -> exp_actor:spec(Id, Restart).

start_sup(Id, Strategy, MaxR, Specs) ->
    {ok, P} = exp_sup:start_link(Id, exp_sup:flags(Strategy, MaxR), Specs),
    unlink(P),
    {ok, P}.

children(S) ->
    [{Id, case P of undefined -> undefined; _ when is_pid(P) -> pid; _ -> P end}
     || {Id, P, _, _} <- lists:reverse(supervisor:which_children(S))].

take() -> exp_lib:take().
check(Id, What, Expected, Got) -> exp_lib:check(Id, What, Expected, Got).
