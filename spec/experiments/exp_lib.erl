%% exp_lib: the harness shared by the version 2 experiments (links, monitors,
%% calls, starts, supervisor_api, significant) and by free: a runner that prints
%% one PASS/FAIL line per check and halts with the status, an event collector,
%% and the ETS tables that tell exp_actor what to do.
%%
%% Each experiment module's main/0 calls exp_lib:main(Module, [fun ...]).
%% A check prints
%%   PASS <rule-id>/<check>: <what it asserts>; observed <term>
%%   FAIL <rule-id>/<check>: expected <term>, got <term> (<what it asserts>)
%% and the node halts with 0 if every check passed, 1 if one failed, 2 if the
%% runner crashed, 3 on timeout (as supervision.erl does).
%%
%% Observation.  The process registered as exp_collector keeps a log of
%% events sent to it by the actors (exp_actor) and by the experiments. It also
%% monitors every actor that starts ({watch, Id, Pid}) and logs {down, Id, Reason}
%% when it dies. Events sent by one process arrive in the order sent; a
%% {down, ...} is a monitor signal and comes after everything its process sent.
%%
%% Synchronisation does not sleep where it can wait: wait_down/1 waits for the
%% 'DOWN' of a monitor; sync/1 makes a round trip to a process, after which that
%% process has handled every signal that was already in its queue when the
%% round trip began (ERTS handles a process's signals in arrival order, and a
%% process that died of one of them makes the round trip fail instead).
%% settle/0 waits until the node is idle (nothing left to run), for the cases
%% where there is nothing particular to wait for.
-module(exp_lib).

-export([main/2, check/4, check/5, note/1, counted/2, trials/1]).
-export([take/0, take/1, settle/0, sync/1, wait_down/1, wait_down/2]).
-export([plan/2, next_init/1, opts/2, opt/2]).
-export([watch/1]).
-export([register_actor/2, register_sup/2, pid/1, id_of/1, dead_pid/0]).
-export([down_reason/1, alive/1, kill_all/0]).

-define(COLL, exp_collector).
-define(TABLE, exp_lib_table).

%%====================================================================
%% the runner
%%====================================================================
main(Module, Exps) ->
    Self = self(),
    {_Pid, Ref} = spawn_monitor(fun() -> Self ! {result, run_all(Module, Exps)} end),
    receive
        {result, Fails} ->
            io:format("~s: ~p check(s) failed~n",
                      [case Fails of 0 -> "ALL PASS"; _ -> "SOME FAILED" end, Fails]),
            erlang:halt(case Fails of 0 -> 0; _ -> 1 end);
        {'DOWN', Ref, process, _, Reason} ->
            io:format("FAIL harness: runner crashed: ~0p~n", [Reason]),
            erlang:halt(2)
    after 300000 ->  % generous: the checks sleep, and a loaded machine stretches them
            io:format("FAIL harness: timeout~n"),
            erlang:halt(3)
    end.

run_all(Module, Exps) ->
    process_flag(trap_exit, true),
    put(fails, 0),
    %% Crash reports of processes that fail on purpose would flood the output.
    _ = (catch logger:set_handler_config(default, level, none)),
    start_collector(),
    {ok, Vsn} = application:get_key(stdlib, vsn),
    io:format("~s: OTP ~s (stdlib ~s)~n", [Module, erlang:system_info(otp_release), Vsn]),
    lists:foreach(fun run_exp/1, Exps),
    get(fails).

run_exp(F) ->
    {name, Name} = erlang:fun_info(F, name),
    try F()
    catch C:R:St ->
            fail_line(atom_to_list(Name), "experiment ran to completion", {C, R, St})
    end,
    %% nothing leaks into the next experiment
    kill_all(), settle(), _ = take(), flush(),
    ets:match_delete(?TABLE, {{plan, '_'}, '_'}),
    ets:match_delete(?TABLE, {{opts, '_'}, '_'}).

flush() ->
    receive _ -> flush() after 0 -> ok end.

%%====================================================================
%% checks
%%====================================================================
check(Id, What, Expected, Got) ->
    case Expected =:= Got of
        true -> io:format("PASS ~s: ~s; observed ~0p~n", [Id, What, Got]);
        false -> fail_line(Id, What, {expected, Expected, got, Got})
    end.

%% check/4 with Detail (a string: how Got was observed, e.g. how many trials a
%% free-run check needed) printed after it, on the PASS line as on the FAIL line.
check(Id, What, Expected, Got, Detail) ->
    case Expected =:= Got of
        true -> io:format("PASS ~s: ~s; observed ~0p; ~s~n", [Id, What, Got, Detail]);
        false -> fail_line(Id, [What, "; ", Detail], {expected, Expected, got, Got})
    end.

%% How often each outcome came up in N trials of Trial/0: #{Outcome => Count}.
counted(N, Trial) ->
    lists:foldl(fun(_, Acc) -> maps:update_with(Trial(), fun(C) -> C + 1 end, 1, Acc) end, #{},
                lists:seq(1, N)).

%% The detail line of a check on counted/2's map.
trials(N) ->
    lists:flatten(io_lib:format("outcome => trials, of ~p trials on ~p scheduler(s)",
                                [N, erlang:system_info(schedulers_online)])).

%% An observation printed for the record (not a check).
note(Text) -> io:format("  note: ~s~n", [Text]).

fail_line(Id, What, {expected, E, got, G}) ->
    put(fails, get(fails) + 1),
    io:format("FAIL ~s: expected ~0p, got ~0p (~s)~n", [Id, E, G, What]);
fail_line(Id, What, Crash) ->
    put(fails, get(fails) + 1),
    io:format("FAIL ~s: expected ~s, got crash ~0p~n", [Id, What, Crash]).

%%====================================================================
%% collector
%%====================================================================
start_collector() ->
    Parent = self(),
    Pid = spawn(fun() ->
                        ets:new(?TABLE, [named_table, public, set]),
                        Parent ! table_ready,
                        collector([], #{})
                end),
    receive table_ready -> ok end,
    register(?COLL, Pid).

collector(Evs, Mons) ->
    receive
        {watch, Id, Pid, Ack} ->
            Ref = erlang:monitor(process, Pid),
            Pid ! {Ack, watched},
            collector(Evs, Mons#{Ref => Id});
        {'DOWN', Ref, process, _, Reason} when is_map_key(Ref, Mons) ->
            collector([{down, maps:get(Ref, Mons), Reason} | Evs], maps:remove(Ref, Mons));
        {count, From} ->
            From ! {count, length(Evs)},
            collector(Evs, Mons);
        {take, From} ->
            From ! {events, lists:reverse(Evs)},
            collector([], Mons);
        Ev ->
            collector([Ev | Evs], Mons)
    end.

%% The events logged since the last take/0, oldest first, once the node is idle.
take() ->
    settle(),
    ?COLL ! {take, self()},
    receive {events, E} -> E end.

%% The events logged since the last take, as soon as at least N are logged: for a
%% check repeated many times that knows how many events each trial makes, where
%% settling (below) after every trial would take too long. Anything logged late
%% shows up in the next take.
take(N) -> take(N, erlang:monotonic_time(millisecond) + 5000).
take(N, Deadline) ->
    case count() >= N of
        true ->
            ?COLL ! {take, self()},
            receive {events, E} -> E end;
        false ->
            erlang:monotonic_time(millisecond) < Deadline orelse error({events_never_came, N}),
            timer:sleep(1),
            take(N, Deadline)
    end.

%% Waits until nothing is left to happen: the node is idle (no process but the
%% caller running or ready to run: erlang:statistics(total_active_tasks) is 1 and
%% the run queues are empty) and the log has not grown, at four polls 5 ms apart.
%% A process with a message or signal to handle is ready, so only timers can
%% still make something happen, and the few checks that start one (sleeping
%% actors, a supervisor's shutdown time) wait for it themselves. This waits for
%% the schedulers, not for the clock: fast on an idle machine, and no flakier on
%% a loaded one. (The idle test alone let a check through early with two runs
%% in parallel on two loaded cores; the log's length guards against that.)
settle() -> settle(count(), 0, 0).
settle(_, 4, _) -> ok;
settle(_, _, Polls) when Polls > 2000 -> error(node_never_idle);
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

%% A round trip to Pid through sys:get_state (every gen_server and supervisor
%% answers it). Returns alive, or dead if the process is gone.
sync(Pid) ->
    try sys:get_state(Pid, 5000) of
        _ -> alive
    catch exit:_ -> dead
    end.

%% Waits for Pid to die; returns its exit reason.
wait_down(Pid) -> wait_down(Pid, 5000).
wait_down(Pid, Timeout) ->
    Ref = erlang:monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, Reason} -> Reason
    after Timeout -> erlang:demonitor(Ref, [flush]), still_alive
    end.

down_reason(Pid) ->
    case is_process_alive(Pid) of
        true -> alive;
        false -> wait_down(Pid, 100)
    end.

alive(Pid) -> is_pid(Pid) andalso is_process_alive(Pid).

%% Kills every actor and supervisor still alive (supervisors first, so that
%% none restarts anything), forgets them, and empties the log.
kill_all() ->
    Pids = [P || [P] <- ets:match(?TABLE, {{pid, '$1'}, '_'}), is_process_alive(P)],
    Sups = [P || P <- Pids, is_supervisor(P)],
    [begin exit(P, kill), wait_down(P) end || P <- Sups ++ (Pids -- Sups)],
    ets:match_delete(?TABLE, {{pid, '_'}, '_'}),
    ets:match_delete(?TABLE, {{id, '_'}, '_'}),
    ets:match_delete(?TABLE, {{sup, '_'}, '_'}),
    _ = take(),
    ok.

is_supervisor(P) -> ets:member(?TABLE, {sup, P}).

%% A supervisor registers itself like an actor, and is marked as one.
register_sup(Id, Pid) ->
    ets:insert(?TABLE, {{sup, Pid}, true}),
    register_actor(Id, Pid).

%% Called by an actor or supervisor as it starts: the collector monitors it
%% before it goes on, so its 'DOWN' is never missed (a process that died before
%% the collector got round to monitoring it would be seen as noproc).
watch(Id) ->
    Ack = make_ref(),
    ?COLL ! {watch, Id, self(), Ack},
    receive {Ack, watched} -> ok end.

%%====================================================================
%% what actors do: init plans and options
%%====================================================================
%% plan(Id, [Outcome]): the next init attempts of actor Id end with these
%% outcomes in order (ok, ignore, {stop, Reason}, crash); once the list is
%% used up every attempt is ok.
plan(Id, Outcomes) -> ets:insert(?TABLE, {{plan, Id}, Outcomes}).

next_init(Id) ->
    case ets:lookup(?TABLE, {plan, Id}) of
        [{_, [O | Rest]}] -> ets:insert(?TABLE, {{plan, Id}, Rest}), O;
        _ -> ok
    end.

%% opts(Id, Opts): options of actor Id, read at each init (e.g. [trap]).
opts(Id, Opts) -> ets:insert(?TABLE, {{opts, Id}, Opts}).

opt(Id, Opt) ->
    case ets:lookup(?TABLE, {opts, Id}) of
        [{_, Opts}] -> lists:member(Opt, Opts);
        _ -> false
    end.

%%====================================================================
%% names of actors: Id <-> latest pid
%%====================================================================
register_actor(Id, Pid) ->
    ets:insert(?TABLE, [{{id, Id}, Pid}, {{pid, Pid}, Id}]).

pid(Id) when is_pid(Id) -> Id;
pid(Id) ->
    case ets:lookup(?TABLE, {id, Id}) of
        [{_, Pid}] -> Pid;
        [] -> whereis(Id)
    end.

id_of(Pid) when is_pid(Pid) ->
    case ets:lookup(?TABLE, {pid, Pid}) of
        [{_, Id}] -> Id;
        [] -> Pid
    end;
id_of(Other) -> Other.

%% A pid that is certainly dead.
dead_pid() ->
    {Pid, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, Pid, _} -> Pid end.
