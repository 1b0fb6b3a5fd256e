%% calls: experiments that pin down gen_server:call with an infinite timeout on a
%% real OTP node (SPEC §18, §16.6; rules R28-R33, R50). Run with spec/experiments/run.sh calls.
%%
%% Same conventions as links.erl. A caller is an exp_actor told (by a cast) to
%% call another; it reports {reply, Caller, Value}, or dies as gen_server:call
%% makes it die (the check reads its exit reason). The callee answers as its
%% request says ({req, Plan}, see exp_actor).
-module(calls).
-export([main/0]).

-define(BOOM, {fail, 'BOOM'}).

main() ->
    exp_lib:main(?MODULE, [fun r28/0, fun r29/0, fun r30/0, fun r31/0, fun r32/0, fun r33/0,
                           fun r50/0]).

%%====================================================================
%% R28 a reply, and the caller is blocked until it comes
%%====================================================================
r28() ->
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, {reply, 42}}}),
    check("R28/reply", "c calls b, b replies 42: the call returns 42",
          [{reply, c, 42}], take()),
    exp_lib:kill_all(),
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, {reply_after, 60, 7}}}),
    timer:sleep(20),
    exp_lib:pid(c) ! hello,
    timer:sleep(80),
    check("R28/blocked",
          "while c waits for its reply, a message sent to c is not handled: c handles it"
          " only after the call has returned",
          [{reply, c, 7}, {got, c, hello}], take()).

%%====================================================================
%% R29 no reply; replies nobody waits for
%%====================================================================
r29() ->
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, noreply}}),
    exp_lib:settle(),
    C = exp_lib:pid(c),
    check("R29/no_reply",
          "b's handler returns without replying: c waits for ever (infinity), blocked in"
          " gen:do_call",
          {[], {current_function, {gen, do_call, 4}}, {status, waiting}},
          {take(), erlang:process_info(C, current_function), erlang:process_info(C, status)}),
    exp_lib:kill_all(),
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, {reply_twice, 1, 2}}}),
    check("R29/reply_twice",
          "b replies twice: the call returns the first reply; the second arrives in c's"
          " mailbox as a stray {Ref, 2} that no call waits for (a gen_server gives it to"
          " handle_info, where concord's workers ignore it)",
          [{reply, c, 1}, {got, c, {stray_reply, 2}}], take()),
    exp_lib:kill_all(),
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, {reply_after, 60, 7}}}),
    timer:sleep(20),
    exit(exp_lib:pid(c), kill),
    timer:sleep(80),
    check("R29/caller_gone",
          "c is killed while b is about to reply: b's reply goes nowhere and b lives on",
          {[{down, c, killed}], alive}, {take(), exp_lib:sync(exp_lib:pid(b))}).

%%====================================================================
%% R30 the callee exits before replying
%%====================================================================
r30() ->
    lists:foreach(
      fun(R) ->
              actor(b, []), actor(c, []),
              _ = take(),
              exp_actor:cast(c, {call, b, {req, {stop, R}}}),
              Why = exp_lib:wait_down(exp_lib:pid(c)),
              check("R30/" ++ tag(R),
                    "b stops with " ++ fmt(R) ++ " before replying: the caller exits with"
                    " {" ++ fmt(R) ++ ", {gen_server, call, _}}",
                    {R, gen_server, call}, call_exit(Why)),
              exp_lib:kill_all()
      end, [normal, shutdown, ?BOOM]),
    actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, noreply}}),
    timer:sleep(20),
    exit(exp_lib:pid(b), kill),
    check("R30/killed", "b is killed while c waits: c exits {killed, {gen_server, call, _}}",
          {killed, gen_server, call}, call_exit(exp_lib:wait_down(exp_lib:pid(c)))),
    exp_lib:kill_all(),
    actor(b, []), actor(c, []),
    _ = take(),
    %% b is busy, then exits, while c's request is still in its mailbox
    exp_actor:cast(b, [{sleep, 60}, {exit, b, ?BOOM}]),
    exp_actor:cast(c, {call, b, {req, {reply, 1}}}),
    check("R30/unhandled",
          "b exits with c's request still unhandled in its mailbox: c exits the same way",
          {?BOOM, gen_server, call}, call_exit(exp_lib:wait_down(exp_lib:pid(c)))),
    exp_lib:kill_all(),
    sup(s, one_for_one, 5, [exp_actor:spec(c, transient)]),
    actor(b, []),
    _ = take(),
    exp_actor:cast(c, {call, b, {req, {stop, normal}}}),
    check("R30/abnormal_for_supervisor",
          "the caller's exit reason is abnormal even when the callee stopped normal: a"
          " transient caller is restarted",
          [{down, b, normal}, {started, c}],
          [E || E <- take(), element(1, E) =/= down orelse element(2, E) =/= c]).

call_exit({{R, {gen_server, call, _}}, _}) -> {R, gen_server, call};  % crash with stack
call_exit({R, {gen_server, call, _}}) -> {R, gen_server, call};
call_exit(Other) -> Other.

%%====================================================================
%% R31 a call to a dead or unknown process, or to itself
%%====================================================================
r31() ->
    dead(z),
    actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, z, {req, {reply, 1}}}),
    check("R31/dead", "a call to a dead process: the caller exits {noproc, {gen_server, call, _}}",
          {noproc, gen_server, call}, call_exit(exp_lib:wait_down(exp_lib:pid(c)))),
    exp_lib:kill_all(),
    actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, concord_no_such_name, {req, {reply, 1}}}),
    check("R31/unknown", "a call to a name nobody has: the same noproc exit",
          {noproc, gen_server, call}, call_exit(exp_lib:wait_down(exp_lib:pid(c)))),
    exp_lib:kill_all(),
    actor(c, []),
    _ = take(),
    exp_actor:cast(c, {call, c, {req, {reply, 1}}}),
    check("R31/self", "a call to itself: the caller exits {calling_self, {gen_server, call, _}}",
          {calling_self, gen_server, call}, call_exit(exp_lib:wait_down(exp_lib:pid(c)))).

%%====================================================================
%% R32 call cycles
%%====================================================================
r32() ->
    actor(a, []), actor(b, []),
    _ = take(),
    exp_actor:cast(a, {call, b, {req, {call, a, {req, {reply, 1}}}}}),
    exp_lib:settle(),
    check("R32/two",
          "a calls b, whose handler calls a: both wait for ever (a deadlock; nothing"
          " ever happens again)",
          {[], waiting_in_call, waiting_in_call}, {take(), in_call(a), in_call(b)}),
    exp_lib:kill_all(),
    actor(a, []), actor(b, []), actor(c, []),
    _ = take(),
    exp_actor:cast(a, {call, b, {req, {call, c, {req, {call, a, {req, {reply, 1}}}}}}}),
    exp_lib:settle(),
    check("R32/three", "a calls b calls c calls a: all three wait for ever",
          {[], waiting_in_call, waiting_in_call, waiting_in_call},
          {take(), in_call(a), in_call(b), in_call(c)}).

in_call(Id) ->
    case erlang:process_info(exp_lib:pid(Id), [current_function, status]) of
        [{current_function, {gen, do_call, 4}}, {status, waiting}] -> waiting_in_call;
        Other -> Other
    end.

%%====================================================================
%% R33 a caller linked to its callee
%%====================================================================
r33() ->
    lists:foreach(
      fun({Opts, R, Expected}) ->
              actor(b, []), actor(c, Opts),
              ok = exp_actor:do(c, {link, b}),
              _ = take(),
              exp_actor:cast(c, {call, b, {req, {stop, R}}}),
              check("R33/" ++ trap(Opts) ++ "_" ++ tag(R),
                    "c (" ++ trap(Opts) ++ ") is linked to b and calls it; b stops with "
                    ++ fmt(R) ++ ": the link signal comes before the 'DOWN' of the call,"
                    " so a non-trapping c dies by the link when the reason is not normal",
                    Expected, call_exit(exp_lib:wait_down(exp_lib:pid(c)))),
              exp_lib:kill_all()
      end,
      [{[], shutdown, shutdown},
       {[], ?BOOM, ?BOOM},
       {[], normal, {normal, gen_server, call}},
       {[trap], shutdown, {shutdown, gen_server, call}},
       {[trap], ?BOOM, {?BOOM, gen_server, call}}]).

%%====================================================================
%% R50 a supervisor terminates a child that waits in a call
%%====================================================================
%% The child specs here have shutdown => 100 (ms) instead of 5000, so that the
%% supervisor's patience runs out quickly; the outcome does not depend on it.
r50() ->
    lists:foreach(
      fun({Opts, Expected}) ->
              exp_lib:opts(w, Opts),
              {ok, S} = exp_sup:start_link(s, exp_sup:flags(one_for_one, 5),
                                           [(exp_actor:spec(w, permanent))#{shutdown => 100}]),
              unlink(S),
              actor(b, []),
              _ = take(),
              exp_actor:cast(w, {call, b, {req, noreply}}),
              timer:sleep(20),
              R = supervisor:terminate_child(S, w),
              check("R50/" ++ trap(Opts),
                    "w (" ++ trap(Opts) ++ ") waits in a call when its supervisor terminates it:"
                    " a non-trapping w dies with shutdown at once; a trapping w cannot take the"
                    " 'EXIT' from its parent while gen:do_call waits for the reply, so the"
                    " supervisor's shutdown time runs out and it kills w (killed)",
                    {ok, Expected}, {R, take()}),
              exp_lib:kill_all()
      end,
      [{[], [{down, w, shutdown}]}, {[trap], [{down, w, killed}]}]),
    lists:foreach(
      fun({Opts, Expected}) ->
              exp_lib:opts(w, Opts),
              {ok, S} = exp_sup:start_link(s, exp_sup:flags(one_for_one, 5),
                                           [(exp_actor:spec(w, permanent))#{shutdown => 100}]),
              unlink(S),
              _ = take(),
              exp_actor:cast(w, {call, s, {terminate_child, w}}),
              timer:sleep(150),
              check("R50/self_" ++ trap(Opts),
                    "w (" ++ trap(Opts) ++ ") calls terminate_child(s, w) on itself: the same"
                    " (the call it waits in is the one to its supervisor); it is not restarted",
                    {Expected, [{w, undefined}]}, {take(), children(S)}),
              exp_lib:kill_all()
      end,
      [{[], [{down, w, shutdown}]}, {[trap], [{down, w, killed}]}]).

children(S) ->
    [{Id, case P of undefined -> undefined; _ when is_pid(P) -> pid end}
     || {Id, P, _, _} <- lists:reverse(supervisor:which_children(S))].

%%====================================================================
%% helpers
%%====================================================================
actor(Id, Opts) ->
    exp_lib:opts(Id, Opts),
    {ok, P} = exp_actor:start(Id),
    P.

dead(Id) ->
    actor(Id, []),
    exp_actor:cast(Id, {stop, normal}),
    _ = exp_lib:wait_down(exp_lib:pid(Id)),
    ok.

sup(Id, Strategy, MaxR, Specs) ->
    {ok, P} = exp_sup:start_link(Id, exp_sup:flags(Strategy, MaxR), Specs),
    unlink(P),
    P.

take() -> exp_lib:take().
check(Id, What, Expected, Got) -> exp_lib:check(Id, What, Expected, Got).

tag(normal) -> "normal";
tag(shutdown) -> "shutdown";
tag(_) -> "abnormal".

trap([trap]) -> "trapping";
trap([]) -> "non_trapping".

fmt(T) -> lists:flatten(io_lib:format("~0p", [T])).
