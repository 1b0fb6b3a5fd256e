%% significant: experiments that pin down significant children and the
%% auto_shutdown supervisor flag of OTP 25 (SPEC §21; rules R45-R48). Run with
%% spec/experiments/run.sh significant.
%%
%% Same conventions as starts.erl.
-module(significant).
-export([main/0]).

-define(BOOM, {fail, 'BOOM'}).

main() ->
    exp_lib:main(?MODULE, [fun r45/0, fun r46/0, fun r47/0, fun r48/0]).

%%====================================================================
%% R45 which combinations OTP accepts
%%====================================================================
r45() ->
    check("R45/permanent_significant",
          "a significant permanent child is invalid: the supervisor does not start",
          {error, {start_spec, {bad_combination, [{restart, permanent}, {significant, true}]}}},
          start_sup(s, one_for_one, 5, any_significant, [sig(a, permanent)])),
    check("R45/never_significant",
          "a significant child under auto_shutdown never (the default) is invalid",
          {error, {start_spec, {bad_combination, [{auto_shutdown, never}, {significant, true}]}}},
          start_sup(s, one_for_one, 5, never, [sig(a, transient)])),
    check("R45/bad_flag", "auto_shutdown must be never, any_significant or all_significant",
          {error, {supervisor_data, {invalid_auto_shutdown, sometimes}}},
          start_sup(s, one_for_one, 5, sometimes, [w(a, permanent)])),
    {ok, S} = start_sup(s, one_for_one, 5, any_significant,
                        [sig(a, transient), sig(b, temporary), w(c, permanent)]),
    check("R45/valid",
          "significant transient and temporary children under any_significant start"
          " (also permanent non-significant ones)",
          [{a, pid}, {b, pid}, {c, pid}], children(S)),
    check("R45/start_child",
          "start_child checks the same rules: a significant permanent child is refused"
          " with {error, {bad_combination, _}} and not added",
          {{error, {bad_combination, [{restart, permanent}, {significant, true}]}}, [{a, pid}, {b, pid}, {c, pid}]},
          {supervisor:start_child(S, sig(d, permanent)), children(S)}),
    exp_lib:kill_all(),
    {ok, S2} = start_sup(s, one_for_one, 5, never, [w(a, permanent)]),
    check("R45/start_child_never",
          "start_child of a significant child under never is refused the same way",
          {error, {bad_combination, [{auto_shutdown, never}, {significant, true}]}},
          supervisor:start_child(S2, sig(d, transient))).

%%====================================================================
%% R46 any_significant
%%====================================================================
r46() ->
    lists:foreach(
      fun({Restart, Reason, Expected}) ->
              {ok, S} = start_sup(s, one_for_one, 5, any_significant,
                                  [w(a, permanent), sig(t, Restart), w(x, temporary)]),
              _ = take(),
              exp_actor:cast(t, {stop, Reason}),
              check("R46/" ++ atom_to_list(Restart) ++ "_" ++ tag(Reason),
                    "any_significant: significant " ++ atom_to_list(Restart) ++ " child t exits "
                    ++ tag(Reason),
                    Expected, {take(), exp_lib:sync(S)}),
              exp_lib:kill_all()
      end,
      [{transient, normal, {[{down, t, normal}, {down, x, shutdown}, {down, a, shutdown},
                             {down, s, shutdown}], dead}},
       {transient, shutdown, {[{down, t, shutdown}, {down, x, shutdown}, {down, a, shutdown},
                               {down, s, shutdown}], dead}},
       {transient, ?BOOM, {[{down, t, ?BOOM}, {started, t}], alive}},
       {temporary, normal, {[{down, t, normal}, {down, x, shutdown}, {down, a, shutdown},
                             {down, s, shutdown}], dead}},
       {temporary, ?BOOM, {[{down, t, ?BOOM}, {down, x, shutdown}, {down, a, shutdown},
                            {down, s, shutdown}], dead}}]),
    {ok, S} = start_sup(s, one_for_one, 5, any_significant, [w(a, permanent), w(t, transient), sig(u, transient)]),
    _ = take(),
    exp_actor:cast(t, {stop, normal}),
    check("R46/not_significant",
          "a child that is not significant changes nothing (transient t exits normal: kept)",
          {[{down, t, normal}], alive}, {take(), exp_lib:sync(S)}).

%%====================================================================
%% R47 all_significant
%%====================================================================
r47() ->
    {ok, S} = start_sup(s, one_for_one, 5, all_significant,
                        [w(a, permanent), sig(t1, transient), sig(t2, temporary)]),
    _ = take(),
    exp_actor:cast(t1, {stop, normal}),
    check("R47/not_last",
          "all_significant: t1 exits normal while significant t2 still runs: t1 is kept"
          " not running, nothing else",
          {[{down, t1, normal}], [{a, pid}, {t1, undefined}, {t2, pid}]},
          {take(), children(S)}),
    exp_actor:cast(t2, {stop, ?BOOM}),
    check("R47/last",
          "then t2 (temporary) exits: no significant child runs any more, the supervisor"
          " terminates the rest and exits shutdown",
          {[{down, t2, ?BOOM}, {down, a, shutdown}, {down, s, shutdown}], dead},
          {take(), exp_lib:sync(S)}),
    exp_lib:kill_all(),
    exp_lib:plan(t1, [ignore]),
    {ok, S2} = start_sup(s, one_for_one, 5, all_significant,
                         [w(a, permanent), sig(t1, transient), sig(t2, transient)]),
    _ = take(),
    exp_actor:cast(t2, {stop, normal}),
    check("R47/never_started",
          "a significant child that is not running (its init returned ignore) does not"
          " count: when t2, the only running one, exits normal, the supervisor shuts down",
          {[{down, t2, normal}, {down, a, shutdown}, {down, s, shutdown}], dead},
          {take(), exp_lib:sync(S2)}).

%%====================================================================
%% R48 terminate_child, and the parent of a supervisor that shut itself down
%%====================================================================
r48() ->
    {ok, S} = start_sup(s, one_for_one, 5, any_significant, [w(a, permanent), sig(t, transient)]),
    _ = take(),
    check("R48/terminate_child",
          "terminate_child of a significant child does not shut the supervisor down",
          {ok, [{down, t, shutdown}], alive},
          {supervisor:terminate_child(S, t), take(), exp_lib:sync(S)}),
    exp_lib:kill_all(),
    lists:foreach(
      fun({Restart, Expected}) ->
              Inner = exp_sup:spec(i, Restart, exp_sup:flags(one_for_one, 5, any_significant),
                                   [sig(t, transient)], false),
              {ok, P} = start_sup(p, one_for_one, 5, never, [Inner]),
              _ = take(),
              exp_actor:cast(t, {stop, normal}),
              check("R48/parent_" ++ atom_to_list(Restart),
                    "i shuts itself down (any_significant); to its parent p it is a child"
                    " that exited shutdown: " ++ atom_to_list(Restart),
                    Expected, {take(), children(P)}),
              exp_lib:kill_all()
      end,
      [{permanent, {[{down, t, normal}, {down, i, shutdown}, {sup_started, i}, {started, t}], [{i, pid}]}},
       {transient, {[{down, t, normal}, {down, i, shutdown}], [{i, undefined}]}}]),
    Inner = exp_sup:spec(i, transient, exp_sup:flags(one_for_one, 5, any_significant),
                         [sig(t, transient)], true),
    {ok, P} = start_sup(p, one_for_one, 5, any_significant, [w(a, permanent), Inner]),
    _ = take(),
    exp_actor:cast(t, {stop, normal}),
    check("R48/cascade",
          "a significant child supervisor that shuts itself down makes its any_significant"
          " parent shut down in turn",
          {[{down, t, normal}, {down, i, shutdown}, {down, a, shutdown}, {down, p, shutdown}], dead},
          {take(), exp_lib:sync(P)}),
    exp_lib:kill_all(),
    {ok, S3} = start_sup(s, one_for_all, 5, any_significant, [w(a, permanent), sig(t, transient)]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R48/terminated_by_strategy",
          "one_for_all: a fails, the supervisor terminates the significant t for the"
          " restart; that is no exit of t by itself, so no shutdown: both are started again",
          {[{down, a, ?BOOM}, {down, t, shutdown}, {started, a}, {started, t}], alive},
          {take(), exp_lib:sync(S3)}).

%%====================================================================
%% helpers
%%====================================================================
w(Id, Restart) -> exp_actor:spec(Id, Restart).
sig(Id, Restart) -> exp_actor:spec(Id, Restart, true).

start_sup(Id, Strategy, MaxR, Auto, Specs) ->
    case exp_sup:start_link(Id, exp_sup:flags(Strategy, MaxR, Auto), Specs) of
        {ok, P} -> unlink(P), {ok, P};
        Error -> receive {'EXIT', _, _} -> ok after 1000 -> ok end, Error
    end.

children(S) ->
    [{Id, case P of undefined -> undefined; _ when is_pid(P) -> pid; _ -> P end}
     || {Id, P, _, _} <- lists:reverse(supervisor:which_children(S))].

take() -> exp_lib:take().
check(Id, What, Expected, Got) -> exp_lib:check(Id, What, Expected, Got).

tag(normal) -> "normal";
tag(shutdown) -> "shutdown";
tag(_) -> "abnormal".
