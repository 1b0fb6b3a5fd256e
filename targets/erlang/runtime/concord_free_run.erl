%% concord_free_run: one free run (SPEC §25) of a loaded program: the run's tables,
%% its watcher (which starts the roots for the outside), the given messages, the
%% wait for its end (concord_free_end), the final states, the trace
%% (concord_free_trace), and a clean-up after which nothing of the run is left:
%% every process killed, every table deleted. This process orders nothing: between
%% the given messages and the end it only looks.
-module(concord_free_run).
-export([run/4]).

-include("concord_free.hrl").

-define(FINAL_TIMEOUT, 10000).  % a live process answers its final state at once: it is idle

%% Returns the trace line, or an error line, as iodata.
run(Mod, Seed, Limit, Max) -> run_program(Mod, Seed, Limit, Max, Mod:version() >= 2).

run_program(Mod, Seed, Limit, Max, V2) ->
    ok = concord_free_sup:install(),
    G = spawn(fun io_sink/0),
    W = concord_free_watcher:start(G),
    Ctx = (concord_free_books:new(Mod, Limit, Max, V2))#cf{watcher = W},
    try
        Ref = erlang:monitor(process, W),
        W ! {ctx, Ctx},
        receive
            {roots_started, W} -> erlang:demonitor(Ref, [flush]);
            {'DOWN', Ref, process, W, Why} -> error({watcher_died, Why})
        end,
        Given = given(Ctx, Mod:given(), 1),
        Pids = concord_free_end:await(Ctx, G),
        put('$cf_ended', Pids),
        Outcome = case {atomics:get(Ctx#cf.counters, ?C_TURNS) > Limit, [P || P <- Pids, calling(Ctx, P) =/= no]} of
                      {true, _} -> turn_limit;
                      {false, [_ | _]} -> deadlock;  % SPEC §18.3: nothing more can happen, and a caller waits
                      {false, []} -> quiescent
                  end,
        Finals = finals(Ctx, Pids),
        trace(Ctx, {Seed, Limit, Max}, Outcome, Given, Finals)
    after
        cleanup(Ctx, G)
    end.

%% The run's group leader: every process of the run inherits it (concord_free_end).
%% Nothing of a program prints; an io request is answered all the same, so that
%% nothing can wait on it.
io_sink() ->
    receive
        {io_request, From, ReplyAs, _} -> From ! {io_reply, ReplyAs, ok};
        _ -> ok
    end,
    io_sink().

%% The outside sends the given messages in order, after the roots (SPEC §8.2): to
%% the name's live incarnation, as a send does, from null with the index as its n.
given(_Ctx, [], _I) -> [];
given(Ctx = #cf{meta = M}, [{To, Tag, Args} | Rest], I) ->
    Reached = case concord_free_books:lookup(Ctx, To) of
                  {Pid, Inc} ->
                      Pid ! {'$cf_msg', null, I, Tag, Args},
                      ets:update_counter(M, {rx, To, Inc}, {2, 1}),
                      Inc;
                  none ->
                      null
              end,
    concord_free_books:bump(Ctx),
    [{To, Reached} | given(Ctx, Rest, I + 1)].

%% The end states: each live worker's state (its gen_server answers it: it is
%% idle), each live supervisor's child list from its OTP state, in start order
%% (SPEC §7.7: OTP's is newest first). pid -> {state, Fields} | {children, List}.
finals(Ctx = #cf{mod = Mod}, Pids) ->
    maps:from_list(
      [{P, case {Type, calling(Ctx, P)} of
               {worker, {yes, K, S}} ->  % it waits in a call: its state so far (SPEC §25.6)
                   {state, Mod:fields(K, S)};
               {worker, no} ->
                   {K, S} = gen_server:call(P, '$cf_state', ?FINAL_TIMEOUT),
                   {state, Mod:fields(K, S)};
               {supervisor, _} ->
                   {children, children(Ctx, sys:get_state(P, ?FINAL_TIMEOUT))}
           end}
       || P <- Pids, {_, _, Type} <- [concord_free_books:whois(Ctx, P)]]).

%% A supervisor's children [{Name, Running}] from its state: OTP's in start order,
%% or, where another BEAM target's program reads them (the elixir target's
%% free_children/1: a DynamicSupervisor, whose children have no ids and no order: a
%% map, in hash order past 32 entries), by pid in the order their incarnations
%% started, as the conducted elixir target lists them (targets/elixir/README.md).
children(Ctx = #cf{mod = Mod, meta = M}, State) ->
    case erlang:function_exported(Mod, free_children, 1) andalso Mod:free_children(State) of
        {pids, Children} ->
            Started = fun(Pid) -> ets:lookup_element(M, {started, Pid}, 2) end,
            [{element(1, concord_free_books:whois(Ctx, Pid)), Running}
             || {_, Pid, Running} <- lists:sort([{Started(P), P, R} || {P, R} <- Children])];
        _ ->
            [{concord_free_books:child_name(Ctx, Id), is_pid(Pid)}
             || {Id, Pid} <- lists:reverse(concord_worker:otp_children(State))]
    end.

%% Whether live worker P waits in a call: {yes, Kind, StateSoFar} or no.
calling(Ctx = #cf{meta = M}, P) ->
    case concord_free_books:whois(Ctx, P) of
        {Name, Inc, worker} ->
            case ets:lookup(M, {calling, Name, Inc}) of
                [{_, S}] -> {yes, ets:lookup_element(M, {inc, Name, Inc}, 3), S};
                [] -> no
            end;
        _ -> no
    end.

%% The trace from the books, or INTERNAL when the run saw something this runtime
%% cannot explain.
trace(#cf{meta = M, trace = T}, Run, Outcome, Given, Finals) ->
    Events = group(ets:tab2list(T)),
    Incs = lists:sort(ets:match_object(M, {{inc, '_', '_'}, '_', '_', '_', '_'})),
    Exits = maps:from_list([{{N, I}, R} || [N, I, R] <- ets:match(M, {{exit, '$1', '$2'}, '$3'})]),
    Entries = [{Type, {Name, Inc, By, maps:get({Name, Inc}, Events, []), maps:get({Name, Inc}, Exits, alive),
                       final(maps:get(Pid, Finals, none))}}
               || {{inc, Name, Inc}, Type, _Kind, By, Pid} <- Incs],
    Problems = [Text || [Text] <- ets:match(M, {{internal, '_'}, '$1'})]
        ++ [io_lib:format("~s#~b exited with ~0p, which is no reason of SPEC 15", [N, I, R])
            || {_, {N, I, _, _, R, _}} <- Entries, R =/= alive, concord_free_trace:reason(R) =:= error]
        ++ [io_lib:format("~s#~b is neither alive at the end nor recorded as exited", [N, I])
            || {_, {N, I, _, _, alive, none}} <- Entries],
    case Problems of
        [] ->
            concord_free_trace:line(#{run => Run, outcome => Outcome, given => Given,
                                      workers => [E || {worker, E} <- Entries],
                                      supervisors => [E || {supervisor, E} <- Entries]});
        [First | _] ->
            concord_json:error_line(<<"INTERNAL">>, [<<"erlang: free run: ">>, First])
    end.

final({state, Fields}) -> Fields;
final({children, Children}) -> Children;
final(none) -> none.

%% {{Name, Inc, Seq}, Event} in key order -> #{{Name, Inc} => [Event]}.
group(Rows) ->
    lists:foldr(fun({{Name, Inc, _}, Event}, Acc) ->
                        maps:update_with({Name, Inc}, fun(Es) -> [Event | Es] end, [Event], Acc)
                end, #{}, Rows).

%% Nothing of the run is left for the next: supervisors are killed first (so that
%% none restarts what is killed after it), then every other process of the run,
%% the watcher last; then the tables. A run that ended has its processes listed
%% (concord_free_end checked that the books miss none); after a crash, every
%% process of the run's group leader is looked for, until none is left.
cleanup(Ctx, G) ->
    case erase('$cf_ended') of
        undefined -> kill_all(Ctx, G);
        Pids -> kill(Ctx, Pids)
    end,
    exit(G, kill),
    concord_free_books:delete(Ctx).

kill_all(Ctx, G) ->
    case [P || P <- processes(), process_info(P, group_leader) =:= {group_leader, G}] of
        [] -> ok;
        Procs -> kill(Ctx, Procs), kill_all(Ctx, G)
    end.

kill(Ctx = #cf{watcher = W}, Procs) ->
    {Sups, Others} = lists:partition(fun(P) ->
                                             case concord_free_books:whois(Ctx, P) of
                                                 {_, _, supervisor} -> true;
                                                 _ -> false
                                             end
                                     end, Procs -- [W]),
    [kill(P) || P <- Sups ++ Others ++ [W]],
    ok.

kill(P) ->
    Ref = erlang:monitor(process, P),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, _} -> ok end.
