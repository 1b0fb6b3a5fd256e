%% concord_dynsup: the sys debug hook of an Elixir DynamicSupervisor in a version 2
%% program, and its reader of the DynamicSupervisor's own state. It plays the part
%% concord_worker:sup_hook/3 plays for OTP's supervisor (SPEC §17.2,
%% spec/V2_IMPLEMENTATION_NOTES.md §3): before the supervisor handles a child's
%% 'EXIT' or a retry, and after each message it handled, it tells the conductor,
%% which holds it there while other supervisors or signals go first.
%%
%% Elixir 1.14's lib/elixir/lib/dynamic_supervisor.ex keeps its children in a map
%% by pid (%DynamicSupervisor{children: %{pid => {mfa, restart, shutdown, type,
%% modules}}}); a child whose restart failed stays under the pid of the exit it
%% restarts as {:restarting, child}, and is retried by a message to itself,
%% {:"$gen_restart", pid} (OTP's is the cast try_again_restart). Its restarts are
%% a list of timestamps (%DynamicSupervisor{restarts: [...]}), filtered by its
%% period, which concord's never expires (SPEC §7.4): its length is the count of
%% restarts in this incarnation. Children have no ids: the conductor names them by
%% pid (concord_target, {pids, _}).
-module(concord_dynsup).
-export([hook/3, children/1]).

-define(STRUCT, 'Elixir.DynamicSupervisor').

hook(Hook = {concord_hook, C, Idx}, {in, Msg = {'EXIT', _, _}}, _Name) ->
    ok = concord_worker:sync(C, {sup_in, Idx, Msg}),
    Hook;
hook(Hook = {concord_hook, C, Idx}, {in, {'$gen_restart', Pid}}, _Name) ->
    ok = concord_worker:sync(C, {sup_in, Idx, {retry_of, Pid}}),
    Hook;
hook(Hook = {concord_hook, C, Idx}, {noreply, State = #{'__struct__' := ?STRUCT, restarts := Restarts}}, _Name) ->
    ok = concord_worker:sync(C, {sup_out, Idx, {pids, children(State)}, length(Restarts)}),
    Hook;
hook(Hook, _Event, _Name) ->
    Hook.

%% Its children: Pid, or {restarting, Pid} (SPEC §19.3).
children(#{'__struct__' := ?STRUCT, children := Children}) ->
    [case Child of
         {restarting, _} -> {restarting, Pid};
         _ -> Pid
     end || {Pid, Child} <- maps:to_list(Children)].
