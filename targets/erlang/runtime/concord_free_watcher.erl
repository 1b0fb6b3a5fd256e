%% concord_free_watcher: the one process of a free run (SPEC §25) that learns exit
%% reasons. Every worker and supervisor incarnation links itself to it at its start
%% (concord_free_books:enter/5); it traps exits, so each incarnation's exit reaches
%% it as {'EXIT', Pid, Reason}, sent by ERTS when the process ends, wherever it
%% ended: nothing asks anyone for an exit. It writes the exit in the books, counts
%% the worker out of the process limit, and notes a supervised exit as loose until
%% its supervisor is seen to have handled it (concord_free_end).
%%
%% It is also the outside's hand at the start (SPEC §25.2): it starts the roots,
%% each complete before the next, so that the root supervisors are linked to it as
%% to their parent, as supervisor:start_link/2 links them to their caller.
-module(concord_free_watcher).
-export([start/1]).

-include("concord_free.hrl").

%% A watcher in group leader G (every process it starts inherits G: the run's
%% processes are those of group leader G, concord_free_end). It waits for its
%% context, then starts the roots and tells the run's process.
start(G) ->
    Run = self(),
    Pid = spawn(fun() -> process_flag(trap_exit, true), init(Run) end),
    group_leader(G, Pid),
    Pid.

init(Run) ->
    receive
        {ctx, Ctx = #cf{mod = Mod}} ->
            lists:foreach(fun(Root) -> start_root(Ctx, Mod, Root) end, Mod:roots()),
            Run ! {roots_started, self()},
            loop(Ctx)
    end.

%% Version 2: a root whose start fails is not alive, and the next root starts
%% (SPEC §19.2); its exit is recorded like any. Another BEAM target's program (the
%% elixir target's Concord.Prog, targets/elixir/README.md "Free runs") has a module
%% per kind (kind/1) and starts its supervisors itself (start_supervisor/2).
start_root(Ctx, Mod, {worker, Name, K, Args}) ->
    Module = case erlang:function_exported(Mod, kind, 1) of
                 true -> Mod:kind(K);
                 false -> Mod
             end,
    started(gen_server:start(Module, {worker, {Ctx, K, Name, none, Args, outside}}, []));
start_root(Ctx, Mod, {supervisor, Idx}) ->
    started(case erlang:function_exported(Mod, start_supervisor, 2) of
                true -> Mod:start_supervisor(Idx, Ctx);
                false -> concord_free_sup:start_link(Ctx, Idx)
            end).

started({ok, _}) -> ok;
started(ignore) -> ok;
started({error, _}) -> ok.

loop(Ctx) ->
    receive
        {'EXIT', Pid, Reason} ->
            exited(Ctx, Pid, Reason),
            loop(Ctx);
        _ ->
            loop(Ctx)
    end.

exited(Ctx = #cf{meta = M, live = Live, busy = B, loose = L, counters = A}, Pid, Signalled) ->
    case concord_free_books:whois(Ctx, Pid) of
        {Name, Inc, Type} ->
            %% A start that failed or was ignored ended with its own reason, whatever
            %% overtook its last steps (concord_free_worker:start_ended/4).
            Reason = case ets:lookup(M, {start_ended, Name, Inc}) of
                         [{_, Own}] -> Own;
                         [] -> Signalled
                     end,
            ets:insert(M, {{exit, Name, Inc}, Reason}),
            ets:delete(M, {calling, Name, Inc}),  % a caller that died waiting waits no more
            ets:delete(M, {api, Pid}),
            Type =:= worker andalso atomics:sub(A, ?C_LIVE, 1),
            %% A spawner killed in the middle of its spawn is done with it; a
            %% supervisor that died in the middle of an input died of it.
            case ets:take(B, {Name, Inc}) of
                [{_, What, GaveUp}] when Type =:= supervisor -> died_handling(Ctx, Name, Inc, What, GaveUp, Reason);
                _ -> ok
            end,
            [{_, _, _, By, _}] = ets:lookup(M, {inc, Name, Inc}),
            case supervised(M, By) of
                true -> ets:insert(L, {{Name, Inc}, Pid, By});
                false -> ok
            end,
            ets:delete(Live, Pid),
            concord_free_books:bump(Ctx);
        none ->
            ok
    end.

supervised(M, {SName, SInc}) -> ets:lookup_element(M, {inc, SName, SInc}, 2) =:= supervisor;
supervised(_, null) -> false.

%% Giving up is recorded by the supervisor itself (concord_free_sup:log/2). A
%% version 2 supervisor whose auto_shutdown flag is set shuts down by itself
%% without a report (SPEC §21): that decision is added after its events.
died_handling(_Ctx, _Name, _Inc, _Input, true, _Reason) ->
    ok;
%% A supervisor whose report of giving up this node's logger does not pass (Elixir's
%% DynamicSupervisor, concord_free_dynsup: its inputs are `silent`) gives up when it
%% exits shutdown inside a child's exit or a retry, its only stop there.
died_handling(Ctx = #cf{trace = T}, Name, Inc, Input, silent, shutdown)
  when element(1, Input) =:= exit; element(1, Input) =:= retry ->
    ets:insert(T, {{Name, Inc, final}, {decision, element(2, Input), give_up}}),
    concord_free_books:bump(Ctx);
died_handling(Ctx = #cf{trace = T, v2 = true}, Name, Inc, {exit, Child, _}, false, shutdown) ->
    ets:insert(T, {{Name, Inc, final}, {decision, Child, auto_shutdown}}),
    concord_free_books:bump(Ctx);
died_handling(Ctx, Name, Inc, What, _, Reason) ->
    concord_free_books:internal(Ctx, io_lib:format("supervisor ~s#~b exited with ~0p while handling ~0p",
                                                   [Name, Inc, Reason, What])).
