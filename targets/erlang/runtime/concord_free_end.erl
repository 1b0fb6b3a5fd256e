%% concord_free_end: when a free run (SPEC §25) has ended. No conductor knows it:
%% the run has ended when nothing can happen any more, and this module tells it
%% from outside, without ordering anything and without guessing a time.
%%
%% It polls, with growing intervals, a *snapshot* of the run: the watcher and every
%% incarnation alive in the books, with its status and mailbox length, and the
%% activity counter, which every recorded event moves. A snapshot is *settled* when
%%   1. every process of the run is idle (waits in the receive of its loop: not in a
%%      start, not for the code server) with an empty mailbox, or is a worker that
%%      waits in its call (version 2: only the callee can end that wait);
%%   2. no incarnation is busy (a spawner waiting for its child's start, a
%%      supervisor inside an input: each waits in a receive that is not idleness);
%%   3. the trace is complete: every incarnation that ended has its exit recorded by
%%      the watcher (none is dead in the snapshot); every supervised exit the watcher
%%      recorded was handled by its supervisor (its hook saw the 'EXIT') or consumed
%%      by it (the pid left its child list), unless that supervisor is dead too; and
%%      every message recorded as sent to a live worker incarnation was delivered
%%      by it (not checked once the turn limit was reached: those stay unhandled);
%%   4. the activity counter did not move while the snapshot was taken.
%% The run has ended at the second of two successive settled snapshots that are
%% identical (same activity, same processes in the same states), if then no process
%% of the run is missing from the books (strays/2: every process inherits the run's
%% group leader from the one that spawned it).
%%
%% Why this is sound: a process acts only on a signal from another process (or its
%% own start); every process records something (and so moves the counter) after
%% each message it sends and before it waits again, and the waits that are not
%% idle (a start, an input in progress) are marked busy; a process is started only
%% by a busy incarnation (or before the wait begins), so one not yet in the books
%% has a busy starter, or a dead one (strays/2). If a process of a settled
%% snapshot could still act, some signal reaching it would have to be sent after
%% it was looked at, by a process that acted after that, whose record would move
%% the counter before the snapshot ends, or by one that had ended, whose exit
%% signals are covered by 3. The second snapshot, taken after a longer pause,
%% covers what a snapshot cannot see atomically (a signal on its way between two
%% schedulers). process_info/2 on an idle process does not change its status or
%% mailbox (measured: only its reductions move, once), so looking is not acting.
-module(concord_free_end).
-export([await/2]).

-include("concord_free.hrl").

-define(FIRST_MS, 1).
-define(MAX_MS, 64).

%% Waits until the run has ended; returns the pids of its processes at the end.
await(Ctx, G) -> await(Ctx, G, ?FIRST_MS, none).

await(Ctx = #cf{watcher = W}, G, Ms, Previous) ->
    receive after Ms -> ok end,
    is_process_alive(W) orelse error(watcher_died),  % this runtime's bug: the exits would go unrecorded
    Next = min(2 * Ms, ?MAX_MS),
    case snapshot(Ctx) of
        {settled, Key = {_, Procs}} when Previous =:= {settled, Key} ->
            case strays(Ctx, G) of
                [] -> [P || {P, _, _} <- Procs];
                _ -> await(Ctx, G, Next, none)
            end;
        Snapshot ->
            await(Ctx, G, Next, Snapshot)
    end.

snapshot(Ctx = #cf{counters = A, busy = B}) ->
    Before = atomics:get(A, ?C_ACTIVITY),
    Procs = run_processes(Ctx),
    Settled = lists:all(fun({_, idle, 0}) -> true;
                           ({P, calling, _}) -> waits_in_call(Ctx, P);
                           (_) -> false  % running, waiting elsewhere, or dead and not yet recorded so
                        end, Procs)
        andalso ets:info(B, size) =:= 0
        andalso loose_settled(Ctx)
        andalso delivered(Ctx, Procs)
        andalso atomics:get(A, ?C_ACTIVITY) =:= Before,
    case Settled of
        true -> {settled, {Before, Procs}};
        false -> unsettled
    end.

%% The watcher and every incarnation the books have alive: {Pid, Status,
%% MessageQueueLen}, the status `idle` for a process that waits in the receive of its
%% loop: a gen_server's (workers, supervisors) or the watcher's. A process that waits
%% anywhere else is in the middle of something that will go on: a start (proc_lib's),
%% a call, or the code server loading a module it needs (measured: a gen_server's
%% first failure in a fresh node waits for the code server for milliseconds in its
%% exit). A dead one (`dead`) has an exit the watcher has not recorded yet.
run_processes(#cf{live = Live, watcher = W}) ->
    [case process_info(P, [status, message_queue_len, current_function]) of
         [{status, S}, {message_queue_len, Q}, {current_function, F}] -> {P, status(S, F), Q};
         undefined -> {P, dead, 0}
     end || P <- [W | ets:select(Live, [{{'$1'}, [], ['$1']}])]].

status(waiting, {gen_server, loop, 7}) -> idle;  % OTP 25's gen_server:loop/7 receives
status(waiting, {concord_free_watcher, loop, 1}) -> idle;
status(waiting, {concord_free_worker, stall, 1}) -> idle;  % past the turn limit, for good
status(waiting, {gen, do_call, 4}) -> calling;             % a caller waiting (SPEC §18; checked below)
status(S, _) -> S.

%% The processes of the run that the books do not have: those of the run's group
%% leader (which every process inherits from the one that spawns it) other than the
%% watcher and the live incarnations: a process being started before it entered the
%% books, whose starter was killed (a starter is busy otherwise). Looked at once, at
%% the end: erlang:processes/0 costs time in the size of the node's process table
%% (measured: 2 ms with +P 4194304, the node's flag).
strays(#cf{live = Live, watcher = W}, G) ->
    [P || P <- processes(), P =/= W, not ets:member(Live, P), process_info(P, group_leader) =:= {group_leader, G}].

%% A worker waiting in its call (SPEC §18), which only the callee's reply or exit
%% can end: the messages that came meanwhile stay in its mailbox [R28/blocked].
%% (A process in a call for a spawn or an API request is busy instead.)
waits_in_call(Ctx = #cf{meta = M}, P) ->
    case concord_free_books:whois(Ctx, P) of
        {Name, Inc, worker} -> ets:member(M, {calling, Name, Inc});
        _ -> false
    end.

%% The supervised exits that the watcher recorded and the supervisor may not have
%% seen yet: settled once the child is no longer among its supervisor's children
%% in the books (its hook handled the exit, or the child left OTP's list: consumed
%% by a termination, a failed start), or the supervisor is dead too. Those settled
%% are taken off the list.
loose_settled(#cf{loose = L, meta = M, kids = Kids}) ->
    lists:foreach(fun(Entry = {_Child, Pid, Sup = {SName, SInc}}) ->
                          Settled = not ets:member(Kids, {Sup, Pid}) orelse ets:member(M, {exit, SName, SInc}),
                          Settled andalso ets:delete_object(L, Entry)
                  end, ets:tab2list(L)),
    ets:info(L, size) =:= 0.

%% Every message sent to a live worker incarnation was delivered, unless the turn
%% limit was reached. A sender counts its message after sending it, so a sender
%% killed in between leaves one more delivered than counted: at least, not equal.
delivered(Ctx = #cf{counters = A, turns = Limit, meta = M}, Procs) ->
    atomics:get(A, ?C_TURNS) > Limit
        orelse lists:all(fun({_, calling, _}) -> true;  % what came while it waits stays [R28/blocked]
                            ({P, _, _}) ->
                                 case concord_free_books:whois(Ctx, P) of
                                     {Name, Inc, worker} ->
                                         [{_, Sent, Delivered}] = ets:lookup(M, {rx, Name, Inc}),
                                         Delivered >= Sent;
                                     _ -> true
                                 end
                         end, Procs).
