%% concord_free_dynsup: an Elixir DynamicSupervisor in a free run (SPEC §25): the
%% sys debug hook that records, in the supervisor's own process, each input it
%% handles and the decision read from Elixir's state after it, as concord_free_sup
%% does for OTP's supervisor (targets/erlang/runtime), whose books, trace and end
%% it shares; and the calls the free runtime makes on a DynamicSupervisor through
%% the emitted Concord.Prog (start_child/3, free_children/1, api/5).
%%
%% Elixir 1.14's DynamicSupervisor (lib/elixir/lib/dynamic_supervisor.ex) keeps its
%% children in a map by pid (%DynamicSupervisor{children: %{pid => {mfa, restart,
%% shutdown, type, modules}}}), a child whose restart failed as {:restarting, child}
%% under the pid of the exit it restarts, retried by a message to itself,
%% {:"$gen_restart", pid}; its restarts are a list of timestamps filtered by a period
%% that never expires here (SPEC §7.4): its length counts the restarts. So after an
%% input: the count grew -> restart; the exited pid no longer a key -> remove (a
%% DynamicSupervisor keeps no child that is not running). It gives up by
%% {:stop, :shutdown, state} inside a child's 'EXIT' or a retry, the only place it
%% stops with shutdown; its report (reached_max_restart_intensity) is logged with
%% no location, which the node's logger (primary level none) does not pass to
%% concord_free_sup:log/2, so its inputs are marked `silent` in the books and the
%% watcher records the give_up when it records that exit.
-module(concord_free_dynsup).
-export([hook/3, children/1, start_child/2, call/1]).

-include("concord_free.hrl").  % the free runtime's (targets/erlang/runtime): erlc -I

-define(STRUCT, 'Elixir.DynamicSupervisor').

%% gen_server's sys events: {in, Msg} before a message is handled, {noreply, State}
%% or {out, Reply, To, State} after.
hook(Hook, {in, Msg}, _Name) ->
    input(Msg),
    Hook;
hook(Hook, {noreply, State}, _Name) ->
    output(State),
    Hook;
hook(Hook, {out, _Reply, _To, State}, _Name) ->
    output(State),
    Hook;
hook(Hook, _Event, _Name) ->
    Hook.

input(Msg) ->
    Ctx = #cf{meta = M, kids = Kids, busy = B} = concord_free_books:ctx(),
    Me = concord_free_books:me(),
    Input = case Msg of
                %% A child's exit; not a child any more (one it terminated, one whose
                %% start failed), it ignores the 'EXIT' (maybe_restart_child/3).
                {'EXIT', Pid, Reason} ->
                    case {ets:take(Kids, {Me, Pid}), concord_free_books:whois(Ctx, Pid)} of
                        {[_], {Name, Inc, _}} ->
                            concord_free_books:record({exit, {Name, Inc}, Reason}),
                            {exit, Name, Pid};
                        _ ->
                            other
                    end;
                %% The retry of a failed restart (SPEC §19.3), under the pid of the exit.
                {'$gen_restart', Pid} ->
                    case concord_free_books:whois(Ctx, Pid) of
                        {Child, _, _} ->
                            concord_free_books:record({retry, Child}),
                            {retry, Child};
                        none ->
                            other
                    end;
                %% A spawn under it (DynamicSupervisor.start_child/2 sends the validated
                %% child, a tuple whose first element is the start).
                {'$gen_call', _From, {start_child, Child}} when is_tuple(Child) ->
                    {_, _, [_, {worker, Start}, _]} = element(1, Child),
                    {spawned, Spawner, N} = element(6, Start),
                    {new, Ref} = element(3, Start),
                    {start_child, Spawner, N, Ref};
                %% The API (SPEC §20): terminate_child by pid, and which_children for the
                %% answers to restart_child and delete_child (Concord.Prog.S<i>), from a
                %% caller that announced itself (concord_free_calls:api/3).
                {'$gen_call', {Caller, _}, Request}
                  when element(1, Request) =:= terminate_child; Request =:= which_children ->
                    case ets:lookup(M, {api, Caller}) of
                        [{_, CName, CInc, N}] -> concord_free_books:record({api_request, {CName, CInc}, N});
                        [] -> ok
                    end,
                    other;
                _ ->
                    other
            end,
    put('$cf_input', Input),
    concord_free_books:busy(Ctx, Input),
    ets:update_element(B, Me, {3, silent}).

output(State = #{'__struct__' := ?STRUCT, restarts := RestartList}) ->
    #cf{meta = M, kids = Kids} = concord_free_books:ctx(),
    Children = maps:get(children, State),
    Restarts = length(RestartList),
    Grew = Restarts > get('$cf_restarts'),
    case erase('$cf_input') of
        {exit, Child, Pid} ->
            case {Grew, maps:is_key(Pid, Children)} of
                {true, _} -> concord_free_books:record({decision, Child, restart});
                {false, false} -> concord_free_books:record({decision, Child, remove});
                {false, true} -> ok
            end;
        {retry, Child} when Grew ->
            concord_free_books:record({decision, Child, restart});
        {start_child, Spawner, N, Ref} ->
            %% The child took its name at its start, failed or not (SPEC §19.4).
            Child = ets:lookup_element(M, {spawn_id, Ref}, 2),
            concord_free_books:record({start_child, Spawner, N, Child});
        _ ->
            ok
    end,
    put('$cf_restarts', Restarts),
    Me = concord_free_books:me(),
    [ets:delete(Kids, {Me, P}) || [P] <- ets:match(Kids, {{Me, '$1'}}), not running(P, Children)],
    concord_free_books:unbusy().

running(Pid, Children) ->
    case Children of
        #{Pid := {restarting, _}} -> false;
        #{Pid := _} -> true;
        #{} -> false
    end.

%% The final children of a DynamicSupervisor (concord_free_run): {pids, [{Pid,
%% Running}]} in the order which_children lists them (its map's); a child being
%% restarted is not running, under the pid of the exit. Another supervisor's state
%% is OTP's: otp.
children(#{'__struct__' := ?STRUCT, children := Children}) ->
    {pids, [{Pid, not is_tuple(Child) orelse element(1, Child) =/= restarting} || {Pid, Child} <- maps:to_list(Children)]};
children(_) ->
    otp.

%% A spawn under a DynamicSupervisor: Elixir's DynamicSupervisor.start_child/2 of
%% the free runtime's child spec (concord_free_worker), answering as OTP's
%% supervisor:start_child/2 does (ignored: {ok, undefined}).
start_child(Sup, Spec) ->
    case call(fun() -> 'Elixir.DynamicSupervisor':start_child(Sup, Spec) end) of
        ignore -> {ok, undefined};
        Other -> Other
    end.

%% Elixir's GenServer.call exits {Reason, {GenServer, :call, Args}} where
%% gen_server:call exits {Reason, {gen_server, call, Args}}: the free runtime reads
%% OTP's (a supervisor that died with the request in its mailbox).
call(F) ->
    try
        F()
    catch
        exit:{Reason, {'Elixir.GenServer', call, Args}} -> exit({Reason, {gen_server, call, Args}})
    end.
