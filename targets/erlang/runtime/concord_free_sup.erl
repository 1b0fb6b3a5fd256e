%% concord_free_sup: the supervisors of a free run (SPEC §25) are OTP's own
%% `supervisor`, started as supervisor:start_link/2 starts one, plus a sys debug
%% hook (hook/3) that only records: in the supervisor's own process, each input it
%% handles (a child's 'EXIT', a start_child request; version 2: the retry of a
%% failed restart, an API request) and, after it, the decisions
%% read from OTP's own state, as the conductor's hook does (concord_worker:sup_hook/3):
%% the restart count grew -> restart, the entry kept with pid undefined -> keep,
%% the entry gone -> remove. A supervisor that gives up dies inside its input: OTP
%% logs reached_max_restart_intensity first, from the supervisor's process, where
%% this module's logger handler (log/2) records the give_up.
-module(concord_free_sup).
-export([started/3, hook/3, start_link/2, install/0, log/2]).

-include("concord_free.hrl").

%% Called from the emitted supervisor's init/1 (its {supervisor, Ctx, Idx} clause),
%% before OTP starts its children: the incarnation enters the books, so that its
%% children can name it as their `by`.
started(Ctx = #cf{mod = Mod, meta = M, watcher = W}, Idx, _AutoShutdown) ->
    {Name, _} = element(Idx + 1, Mod:supervisors()),
    By = case hd(get('$ancestors')) of
             W -> null;  % a root: the watcher starts the roots for the outside
             Parent ->
                 {PName, PInc, supervisor} = concord_free_books:whois(Ctx, Parent),
                 {PName, PInc}
         end,
    Inc = concord_free_books:enter(Ctx, supervisor, Name, Idx, By, By =/= null),
    ets:insert(M, {{sup, Idx}, self(), Inc}),
    put('$cf_restarts', 0),
    ok.

%% A root supervisor, started by the watcher as OTP's supervisor:start_link/2
%% would, with the hook (the emitted child specs start child supervisors the same
%% way).
start_link(Ctx = #cf{mod = Mod}, Idx) ->
    gen_server:start_link(supervisor, {self, Mod, {supervisor, Ctx, Idx}},
                          [{debug, [{install, {fun ?MODULE:hook/3, {concord_free_hook, Ctx, Idx}}}]}]).

%% The sys debug hook (gen_server's events: {in, Msg} before a message is handled,
%% {noreply, State} or {out, Reply, To, State} after). Only the supervisor's own
%% process runs it.
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
    Ctx = #cf{meta = M, kids = Kids} = concord_free_books:ctx(),
    Me = concord_free_books:me(),
    Input = case Msg of
                %% The exit of one of its children. OTP ignores the 'EXIT' of a process
                %% that is not (any more) a child: one whose start failed (SPEC §19.1:
                %% not an exit the supervisor handles), one it terminated.
                {'EXIT', Pid, Reason} ->
                    case {ets:take(Kids, {Me, Pid}), concord_free_books:whois(Ctx, Pid)} of
                        {[_], {Name, Inc, _}} ->
                            concord_free_books:record({exit, {Name, Inc}, Reason}),
                            {exit, Name, Pid};
                        _ ->
                            other
                    end;
                %% A spawn under this supervisor (concord_free_worker:spawn/5): who asked
                %% is in the child's start arguments; the child's name is known once it
                %% started (recorded after the input).
                {'$gen_call', _From, {start_child, #{start := {_, _, [_, {worker, Start}, _]}}}} ->
                    {spawned, Spawner, N} = element(6, Start),
                    {new, Ref} = element(3, Start),
                    {start_child, Spawner, N, Ref};
                %% Version 2: the retry of a failed restart (SPEC §19.3, OTP's
                %% try_again_restart/1), and the API (SPEC §20), whose caller
                %% announced itself in the books (concord_free_calls:api/3).
                {'$gen_cast', {try_again_restart, Id}} ->
                    Child = concord_free_books:child_name(Ctx, Id),
                    concord_free_books:record({retry, Child}),
                    {retry, Child};
                {'$gen_call', {Caller, _}, {Op, _Id}}
                  when Op =:= terminate_child; Op =:= restart_child; Op =:= delete_child ->
                    case ets:lookup(M, {api, Caller}) of
                        [{_, CName, CInc, N}] -> concord_free_books:record({api_request, {CName, CInc}, N});
                        [] -> ok
                    end,
                    other;
                _ ->
                    other
            end,
    put('$cf_input', Input),
    concord_free_books:busy(Ctx, Input).

%% After an input: the decision it took, read from OTP's state (#state.children,
%% #state.restarts of OTP 25's stdlib 4.2, as concord_worker:otp_children/1 reads
%% them), and its children in the books brought to OTP's list: a child it
%% terminated, or whose start failed, is no child any more (its exit, handled or
%% not, is done with: concord_free_end).
output(State) ->
    Ctx = #cf{meta = M, kids = Kids} = concord_free_books:ctx(),
    Children = [{concord_free_books:child_name(Ctx, Id), P} || {Id, P} <- concord_worker:otp_children(State)],
    Restarts = length(element(8, State)),
    Grew = Restarts > get('$cf_restarts'),
    case erase('$cf_input') of
        {exit, Child, Pid} ->
            case decision(Child, Pid, Grew, Children) of
                none -> ok;
                Action -> concord_free_books:record({decision, Child, Action})
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
    Now = [P || {_, P} <- Children, is_pid(P)],
    [ets:delete(Kids, {Me, P}) || [P] <- ets:match(Kids, {{Me, '$1'}}), not lists:member(P, Now)],
    concord_free_books:unbusy().

%% SPEC §7.2-§7.4 as OTP took it. An 'EXIT' of a pid that is still the child's
%% (not a child any more, OTP ignores it) decides nothing.
decision(_Child, _Pid, true, _Children) -> restart;
decision(Child, _Pid, false, Children) ->
    case lists:keyfind(Child, 1, Children) of
        false -> remove;
        {_, undefined} -> keep;
        {_, _} -> none
    end.

%% --- giving up ----------------------------------------------------------------------

%% A logger handler beside concord_reports (installed once per node; the node's
%% logger passes supervisor's error reports only).
install() ->
    case logger:add_handler(?MODULE, ?MODULE, #{level => error}) of
        ok -> ok;
        {error, {already_exist, _}} -> ok
    end.

%% OTP logs reached_max_restart_intensity from the supervisor that gives up, just
%% before it terminates its children and exits (supervisor.erl's restart/2): the
%% give_up decision, for the child whose exit it was handling, in its own events.
%% The busy entry says so to the watcher, which records the supervisor's exit.
log(#{msg := {report, #{label := {supervisor, _}, report := Report}}}, _Config) ->
    case {proplists:get_value(reason, Report), get('$cf_input'), get('$cf')} of
        {reached_max_restart_intensity, Input, #cf{busy = B}} when element(1, Input) =:= exit;
                                                                 element(1, Input) =:= retry ->
            concord_free_books:record({decision, element(2, Input), give_up}),
            ets:update_element(B, concord_free_books:me(), {3, true});
        _ ->
            ok
    end;
log(_, _) ->
    ok.
