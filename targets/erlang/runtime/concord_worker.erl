%% concord_worker: what every worker of an emitted program shares, on every BEAM
%% target. The worker's gen_server callback module (erlang: concord_prog; elixir:
%% the kind's module) delegates its callbacks here, and its handler code calls
%% send/3 and spawn/5 (spawn with the program's module, which the target's start
%% functions are given: concord_target).
%%
%% Everything a worker does that the journal records is a message to the
%% conductor. Sends are collected and go with the next message the worker sends
%% the conductor anyway (the end of its turn, a spawn request, the end of its
%% init): one message per turn instead of one per send, in the same order.
%% Messages from one process arrive in the order sent; the events whose
%% order against *other* processes matters (a start, a termination, a spawn, a
%% supervisor's start) are synchronous (sync/2): the process waits until the
%% conductor has recorded the event, so the conductor sees them in the order they
%% happened, whichever process they come from.
-module(concord_worker).
%% The gen_server callbacks of the worker's module, each called with that module first.
-export([init/2, handle_info/3, handle_call/4, handle_cast/3, terminate/3]).
-export([supervisor_started/2, supervisor_started/3, send/3, spawn/5, sync/2]).
%% Version 2 (SPEC §16.2): links, monitors, exit signals, trapping exits.
-export([trap_exit/1, link/1, unlink/1, monitor/1, demonitor/1, exit_signal/2]).
-export([sup_hook/3, otp_children/1, call/5, reply/1, code/1, call_failure/1, api/3, api/4]).

-ifdef('FAULT_SENDS_LOST_ON_FAIL').
-define(SENT(Reason, Out), case Reason of normal -> Out; _ -> [] end).  % planted fault: a failure loses its sends
-else.
-define(SENT(Reason, Out), Out).
-endif.
-ifdef('FAULT_FAILED_CALL_EXITS_WITH_REASON').
%% Planted fault: a caller whose callee exits before replying exits with the 'DOWN'
%% reason R itself, not as gen_server:call's exit (failing with code(R)).
-define(CALL_FAILURE(R), R).
-else.
-define(CALL_FAILURE(R), {fail, code(R)}).
-endif.
-ifdef('FAULT_TRAPPED_LINK_KILLS').
%% Planted fault: the program's trap flag is consulted for exit/2's signals only; a
%% link's signal is replayed as if the worker did not trap (it dies, or ignores normal).
-define(TRAPS(Kind), Kind =:= exit andalso get('$concord_trap')).
-else.
-define(TRAPS(Kind), get('$concord_trap')).
-endif.

-ifdef('FAULT_REPLY_TYPE_UNCHECKED').
%% Planted fault (held out 2): a reply is stored in the caller's field whatever its
%% type: no BAD_REPLY.
-define(REPLY_FITS(Type, Value), true).
-else.
-define(REPLY_FITS(Type, Value), has_type(Type, Value)).
-endif.
-ifdef('FAULT_IGNORE_TAKEN_AS_FAILURE').
%% Planted fault (held out): init's `ignore` is answered to OTP as {stop, normal}, a
%% start that failed with reason normal, not an ignored one.
-define(IGNORED, {stop, normal}).
-else.
-define(IGNORED, ignore).
-endif.
-ifdef('FAULT_LINK_TO_DEAD_FAILS_TRAPPING').
%% Planted fault (held out): link/1 is made with the real trap flag off whatever the
%% program's, so a link to a dead name fails a trapping worker with noproc too.
-define(LINK_TRAP(Trap), (Trap andalso false)).
-else.
-define(LINK_TRAP(Trap), Trap).
-endif.

-record(w, {
    mod,              % the emitted module
    kind,             % kind index
    state,            % the state tuple {Self, Params..., Fields...}
    conductor,        % pid
    own_exit = false  % true once the worker ended itself (stop, fail): nothing left to report
}).

%% gen_server:init/1 of a worker. Start = {Conductor, Kind, Name, SupIdx | none, Args}.
init(Mod, {C, K, Name, Sup, Args}) ->
    %% A supervised worker traps exits so that its supervisor's `shutdown` reaches
    %% terminate/2, which reports it (SPEC §7.5). Every worker traps at the OTP
    %% level, so that each link signal, exit/2 signal and 'DOWN' reaching it is a
    %% message the glue holds until the conductor says it is its turn (SPEC §17;
    %% apply_signal/3). The program's own flag is '$concord_trap'.
    process_flag(trap_exit, true),
    put('$concord_trap', false),
    put('$concord_sup', Sup),
    Sup =/= none andalso put('$concord_parent', hd(get('$ancestors'))),
    put('$concord_held', []),
    put('$concord_monitors', #{}),
    put('$concord_conductor', C),
    put('$concord_self', Name),
    put('$concord_out', []),
    C ! {start, self(), Name, K, Sup},                    % journaled before init's sends (§6.7)
    try Mod:init_body(K, Mod:new_state(K, Name, Args)) of
        State ->
            flush(C),
            ok = sync(C, started),                         % init's sends are in the conductor's books
            {ok, #w{mod = Mod, kind = K, state = State, conductor = C}}
    catch
        %% SPEC §19.1 (version 2): the start fails with R, or is ignored. OTP
        %% decides what follows (gen_server's init_it/6 acks {error, R} or ignore
        %% and exits R or normal); the conductor journals the exit now.
        throw:{concord_exit, R} ->
            flush(C),
            ok = sync(C, {start_ended, R}),
            {stop, R};
        throw:concord_ignore ->
            flush(C),
            ok = sync(C, {start_ended, normal}),
            ?IGNORED
    end.

%% A turn (SPEC §8.2 steps 5-6): the conductor popped the message and journaled
%% the delivery; run the handler and answer with how it ended.
%% A turn for a call message (SPEC §18.1): its handler's first reply answers the
%% caller's real gen_server:call.
handle_info(Mod, {'$concord_turn', Tag, Args, CallId}, W) ->
    put('$concord_call', {CallId, unanswered}),
    Result = handle_info(Mod, {'$concord_turn', Tag, Args}, W),
    erase('$concord_call'),
    Result;
handle_info(_, {'$concord_turn', Tag, Args}, W = #w{mod = Mod, kind = K, state = S, conductor = C}) ->
    try Mod:dispatch(K, Tag, Args, S) of
        no_handler -> end_turn({fail, <<"NO_HANDLER">>}, W);
        S1 ->
            case erase('$concord_self_exit') of
                true ->  % SPEC §16.3: gen_server stops on its own 'EXIT' once the callback is done
                    C ! {done, self(), self_exit, take_out()},
                    {noreply, W#w{state = S1, own_exit = true}};
                _ ->
                    C ! {done, self(), alive, take_out()},
                    {noreply, W#w{state = S1}}
            end
    catch
        throw:{concord_exit, Reason} -> end_turn(Reason, W);
        throw:{concord_terminated, Reason} ->  % by its supervisor, while blocked: terminate/2 reports it
            take_out(),
            {stop, Reason, W};
        throw:{concord_call_failed, Reason} ->  % the conductor has journaled this exit (SPEC §18.2)
            take_out(),
            {stop, Reason, W#w{own_exit = true}};
        Class:Error:Stack ->
            C ! {crashed, self(), {Class, Error, Stack}},
            {stop, normal, W#w{own_exit = true}}
    end;
handle_info(_, {'$concord_signal', Kind, From}, W) ->
    apply_signal(Kind, From, W#w.conductor),
    {noreply, W};
handle_info(_, Signal = {'EXIT', _, _}, W) -> hold(Signal), {noreply, W};
handle_info(_, Signal = {'DOWN', _, process, _, _}, W) -> hold(Signal), {noreply, W};
handle_info(_, _Other, W) ->
    {noreply, W}.

%% The process exits with Reason, which its supervisor sees as OTP does: `normal`
%% for stop, `{fail, Code}` (abnormal) for a failure.
end_turn(Reason, W) ->
    W#w.conductor ! {done, self(), {exit, Reason}, ?SENT(Reason, take_out())},  % sends before a failure stay sent (§6)
    {stop, Reason, W#w{own_exit = true}}.

handle_call(_, concord_state, _From, W) -> {reply, {W#w.kind, W#w.state}, W};
handle_call(_, {'$concord_call', CallId}, From, W) ->  % answered by the handler's reply (reply/1)
    put({'$concord_from', CallId}, From),
    {noreply, W};
handle_call(_, _Other, _From, W) -> {reply, unknown, W}.

handle_cast(_, _Msg, W) -> {noreply, W}.

%% Terminated by its supervisor: report the exit and its reason before dying. A
%% `killed` comes only from the conductor cleaning up after the run.
terminate(_, _Reason, #w{own_exit = true}) -> ok;
terminate(_, killed, _W) -> ok;
terminate(_, Reason, #w{conductor = C}) -> sync(C, {exit, Reason}).

%% Called from an emitted supervisor's init/1, before OTP starts its children.
%% The supervisor keeps its conductor for concord_reports. AutoShutdown is its
%% auto_shutdown flag (SPEC §21): only one that is not `never` can shut down by
%% itself without giving up.
supervisor_started(C, Idx) -> supervisor_started(C, Idx, never).

supervisor_started(C, Idx, AutoShutdown) ->
    put('$concord_conductor', C),
    ok = sync(C, {supervisor_start, Idx, AutoShutdown =/= never}).

%% SPEC §6.5: the conductor appends to the receiver's mailbox or journals a drop,
%% when it gets the send with the worker's next message.
send(To, Tag, Args) ->
    put('$concord_out', [{To, Tag, Args} | get('$concord_out')]),
    ok.

take_out() -> lists:reverse(put('$concord_out', [])).

flush(C) ->
    case take_out() of
        [] -> ok;
        Out -> C ! {sends, get('$concord_self'), Out}
    end.

%% SPEC §6.6. The conductor checks the process limit and names the child; the
%% child is then started by this process, the target's way (concord_target):
%% start_child under a supervisor (which exits with `noproc` if it is dead, SPEC
%% [R13]), an unlinked gen_server otherwise. Returns the new name.
spawn(Mod, K, Args, Sup, Restart) ->
    C = get('$concord_conductor'),
    flush(C),
    case sync(C, {spawn, K, Sup}) of
        system_limit ->
            throw({concord_exit, {fail, <<"SYSTEM_LIMIT">>}});
        {ok, Name, SupPid, Target} ->
            case start(Target, Mod, {C, K, Name, Sup, Args}, SupPid, Restart) of
                ok ->
                    %% SPEC §17.2: the run settles, the spawner blocked meanwhile
                    %% (§16.6); a version 1 program has nothing to settle.
                    erlang:function_exported(Mod, version, 0) andalso Mod:version() >= 2 andalso
                        (ok = sync(C, settle)),
                    Name;
                noproc ->
                    C ! {spawn_failed, self()},
                    throw({concord_exit, {fail, <<"NOPROC">>}})
            end
    end.

%% A start that fails or is ignored does not fail the spawner (SPEC §19.4 [R38]):
%% gen_server:start returns {error, R} or ignore, start_child {error, {R, _}} or
%% {ok, undefined}; the name is consumed all the same.
%% In a version 1 program every start succeeds: anything else is the target's bug
%% (a crash, INTERNAL), as before version 2.
start(Target, Mod, Start, none, _Restart) ->
    case Target:start_worker(Mod, Start) of
        {ok, _} -> ok;
        Failed when Failed =:= ignore; element(1, Failed) =:= error -> version_2(Mod, Failed)
    end;
start(Target, Mod, Start = {_, _, _, Sup, _}, SupPid, Restart) ->
    try Target:start_child(Mod, Sup, SupPid, Start, Restart) of
        {ok, Pid} when is_pid(Pid) -> ok;
        Failed -> version_2(Mod, Failed)  % {ok, undefined}: ignored; {error, {R, _}}: failed
    catch
        exit:{noproc, _} -> noproc
    end.

version_2(Mod, Failed) ->
    case erlang:function_exported(Mod, version, 0) andalso Mod:version() >= 2 of
        true -> ok;
        false -> error({start_failed, Failed})
    end.

%% A request the conductor answers once it has recorded it.
sync(C, Request) ->
    Ref = erlang:monitor(process, C),
    C ! {sync, self(), Ref, Request},
    %% Terminated by its supervisor while blocked (SPEC §16.6 [R50]): not
    %% trapping, it goes at once, as a receive with the real flag off would;
    %% trapping, the 'EXIT' waits behind the receive until the supervisor's
    %% shutdown time runs out and it kills us.
    Parent = case get('$concord_trap') of
                 false -> get('$concord_parent');
                 _ -> none
             end,
    sync_wait(C, Ref, Parent).

%% While it waits (blocked, SPEC §16.6), a worker still takes its signals when the
%% conductor says so.
sync_wait(C, Ref, Parent) ->
    receive
        {Ref, Reply} ->
            erlang:demonitor(Ref, [flush]),
            Reply;
        {'$concord_signal', Kind, From} ->
            apply_signal(Kind, From, C),
            sync_wait(C, Ref, Parent);
        {'EXIT', P, Reason} when P =:= Parent ->
            throw({concord_terminated, Reason});
        {'DOWN', Ref, process, _, Why} ->
            exit({conductor_gone, Why})
    end.

%% --- version 2: links, monitors, exit signals (SPEC §16) ----------------------------

-ifdef('FAULT_TRAP_EXIT_ZERO_TRAPS').
%% Planted fault (held out 2): the flag is compared with Erlang's false, not with 0,
%% so trap_exit(0) turns trapping on as well.
trap_exit(V) -> put('$concord_trap', V =/= false), ok.
-else.
trap_exit(V) -> put('$concord_trap', V =/= 0), ok.
-endif.

me() -> get('$concord_self').

%% link(e): with the real flag set to the program's, OTP decides: link/1 to a dead
%% pid raises noproc, or, trapping, an 'EXIT' noproc arrives, which is the
%% message (SPEC §16.2 [R20]). The conductor names the pid (a dead one when no
%% process is named e) and records the link.
link(Name) ->
    case Name =:= me() of
        true -> ok;
        false ->
            C = get('$concord_conductor'),
            flush(C),
            {Pid, Alive} = sync(C, {link, Name}),
            Trap = get('$concord_trap'),
            process_flag(trap_exit, ?LINK_TRAP(Trap)),
            try erlang:link(Pid) of
                true -> ok
            catch
                error:noproc -> throw({concord_exit, {fail, <<"NOPROC">>}})
            after
                process_flag(trap_exit, true)
            end,
            Alive orelse own_signal(C, link, Name, receive {'EXIT', Pid, R} -> R end),
            ok
    end.

unlink(Name) ->
    case Name =:= me() of
        true -> ok;
        false ->
            C = get('$concord_conductor'),
            flush(C),
            true = erlang:unlink(sync(C, {unlink, Name})),
            ok
    end.

%% monitor(e): a real monitor; on a dead pid its 'DOWN' (noproc) is the message
%% (SPEC §16.2 [R25]). OTP makes that 'DOWN' a signal, which would come after what
%% the worker sends itself next [R25/dead_pid_order]: waiting for it here puts it
%% at the statement, the order SPEC §17.4 fixes. Monitoring itself: nothing.
monitor(Name) ->
    case Name =:= me() of
        true -> ok;
        false ->
            C = get('$concord_conductor'),
            flush(C),
            {Pid, Alive} = sync(C, {monitor, Name}),
            Ref = erlang:monitor(process, Pid),
            case Alive of
                true -> put('$concord_monitors', maps:update_with(Pid, fun(Rs) -> Rs ++ [Ref] end, [Ref],
                                                                  get('$concord_monitors')));
                false -> own_signal(C, down, Name, receive {'DOWN', Ref, process, _, R} -> R end)
            end,
            ok
    end.

%% demonitor(e): the oldest monitor on e goes (SPEC §16.2 [R26]).
demonitor(Name) ->
    C = get('$concord_conductor'),
    flush(C),
    case sync(C, {demonitor, Name}) of
        none -> ok;
        Pid ->
            case get('$concord_monitors') of
                #{Pid := [Ref | Rest]} ->
                    erlang:demonitor(Ref),
                    put('$concord_monitors', (get('$concord_monitors'))#{Pid := Rest});
                _ -> ok
            end
    end,
    ok.

%% exit(e, r): to another process, a real exit/2 now, which the receiver holds
%% until the conductor's turn for it (kill, untrappable, is sent by the conductor
%% at that turn). To itself, at once, with the real flag set to the program's
%% (SPEC §16.3 [R19]): not trapping, it dies (normal too); trapping and
%% unsupervised, gen_server stops on its parent's (its own) 'EXIT' once the
%% callback is done.
exit_signal(Name, Reason) ->
    C = get('$concord_conductor'),
    flush(C),
    case Name =:= me() of
        false ->
            case sync(C, {exit_signal, Name, Reason}) of
                Pid when is_pid(Pid), Reason =/= kill -> erlang:exit(Pid, Reason);
                _ -> ok
            end;
        true ->
            Trap = get('$concord_trap') andalso Reason =/= kill,
            Supervised = get('$concord_sup') =/= none,
            case Trap of
                true when Supervised ->  % its 'EXIT' is a message [R19/self_supervised_trapping_*]
                    Self = self(),
                    erlang:exit(Self, Reason),
                    own_signal(C, exit, Name, receive {'EXIT', Self, R} -> R end);
                true ->
                    case get('$concord_self_exit') of
                        true -> ok;  % the first one stops it
                        _ ->
                            ok = sync(C, {self_signal, Reason, message}),
                            put('$concord_self_exit', true),
                            erlang:exit(self(), Reason)
                    end;
                false ->
                    ok = sync(C, {self_signal, Reason, exit}),
                    process_flag(trap_exit, false),
                    erlang:exit(self(), Reason),
                    receive after 1000 -> ok end,  % it dies here (normal too); ERTS decides
                    process_flag(trap_exit, true)
            end
    end,
    ok.

%% A link or monitor to a name with no live process: the message is its own.
own_signal(C, Kind, Name, Reason) -> ok = sync(C, {own_signal, Kind, Name, Reason}).

hold(Signal) -> put('$concord_held', get('$concord_held') ++ [Signal]).

%% --- version 2: calls (SPEC §18) -----------------------------------------------------

%% [f =] call t(a...) to e. Type is the bound field's type (int, addr, reason) or
%% any; State, the handler's state so far (the result's, if the run ends while we wait). To itself or to a name with no live process, the real gen_server:call
%% exits at once (calling_self, noproc) [R31]. To a live callee, a helper process
%% makes the real call on our behalf, and we wait, as the conductor says: our turn
%% ends; signals still reach us (apply_signal/3); when the callee exits before
%% replying, the helper's call exits with OTP's reason, which fails us with
%% code(R) [R30]; once the reply came and the conductor gives us a turn, we
%% resume with the value OTP delivered.
call(To, Tag, Args, Type, State) ->
    C = get('$concord_conductor'),
    flush(C),
    case sync(C, {call, To, Tag, Args}) of
        {direct, Pid} ->
            try gen_server:call(Pid, {'$concord_call', none}, infinity) of
                _ -> throw({concord_exit, {fail, <<"INTERNAL">>}})
            catch
                exit:{calling_self, _} -> throw({concord_exit, {fail, <<"CALLING_SELF">>}});
                exit:{R, {gen_server, call, _}} ->
                    ok = sync(C, {own_signal, call, To, R}),
                    throw({concord_exit, {fail, code(R)}})
            end;
        {wait, Pid, CallId} ->
            %% The helper calls as gen_server:call/3 does (gen:do_call/4: a monitor,
            %% the '$gen_call', then the reply or the monitor's 'DOWN', whose reason
            %% ERTS gives), and says when the call is on its way: our turn ends only
            %% then, so that no signal of the settling that follows can overtake it.
            Me = self(),
            Helper = spawn(fun() ->
                                   Mref = erlang:monitor(process, Pid),
                                   Pid ! {'$gen_call', {self(), Mref}, {'$concord_call', CallId}},
                                   Me ! {'$concord_armed', CallId},
                                   Result = receive
                                                {Mref, V} -> erlang:demonitor(Mref, [flush]), {ok, V};
                                                {'DOWN', Mref, process, _, R} -> {exit, R}
                                            end,
                                   Me ! {'$concord_call_result', CallId, Result}
                           end),
            receive {'$concord_armed', CallId} -> ok end,
            C ! {done, self(), {waiting, Helper, State}, take_out()},
            put('$concord_waiting', CallId),
            Value = wait_reply(C, CallId),
            erase('$concord_waiting'),
            case Type =:= any orelse ?REPLY_FITS(Type, Value) of
                true -> Value;
                false -> throw({concord_exit, {fail, <<"BAD_REPLY">>}})
            end
    end.

wait_reply(C, CallId) ->
    Parent = case get('$concord_trap') of
                 false -> get('$concord_parent');
                 _ -> none
             end,
    receive
        '$concord_resume' ->
            receive {'$concord_call_result', CallId, {ok, V}} -> V end;
        {'$concord_signal', Kind, From} ->
            apply_signal(Kind, From, C),
            wait_reply(C, CallId);
        {'EXIT', P, Reason} when P =:= Parent ->  % blocked and terminated, not trapping [R50]
            throw({concord_terminated, Reason})
    end.

%% --- version 2: the supervisor API (SPEC §20) ------------------------------------------

%% [f =] terminate_child|restart_child|delete_child(s, c): Op, supervisor s's
%% index, c's child id (its name). A dead supervisor: the real function exits
%% noproc at once [R44]. A live one is asked by a helper process on our behalf
%% while we wait, blocked (SPEC §16.6): if the request terminates us, we take our
%% parent's 'EXIT' as a receive with our program's flag would [R50]. The helper
%% reports OTP's answer; the conductor journals it and settles before we go on.
api(Op, Sup, Child) -> api(Op, Sup, Child, fun(SupPid, _ChildPid) -> supervisor:Op(SupPid, Child) end).

%% The same, with the request made by Request(SupPid, ChildPid): a supervisor that
%% knows its children by pid (Elixir's DynamicSupervisor) is asked about the pid of
%% the worker named Child (a dead pid when none lives).
api(Op, Sup, Child, Request) ->
    C = get('$concord_conductor'),
    flush(C),
    case sync(C, {api, Sup, Child}) of
        {dead, Pid, ChildPid} ->
            try Request(Pid, ChildPid) of
                _ -> throw({concord_exit, {fail, <<"INTERNAL">>}})
            catch
                exit:{noproc, _} -> throw({concord_exit, {fail, <<"NOPROC">>}})
            end;
        {live, Pid, ChildPid} ->
            Me = self(),
            Name = me(),
            Ref = make_ref(),
            spawn(fun() ->
                          Word = api_result(Op, Request(Pid, ChildPid)),
                          ok = sync(C, {api_done, Name, Me, Op, Sup, Child, Word}),
                          Me ! {'$concord_api', Ref, Word}
                  end),
            api_number(wait_api(C, Ref))
    end.

wait_api(C, Ref) ->
    Parent = case get('$concord_trap') of
                 false -> get('$concord_parent');
                 _ -> none
             end,
    receive
        {'$concord_api', Ref, Word} -> Word;
        {'$concord_signal', Kind, From} ->
            apply_signal(Kind, From, C),
            wait_api(C, Ref);
        {'EXIT', P, Reason} when P =:= Parent ->
            throw({concord_terminated, Reason})
    end.

%% OTP's answers, as SPEC §20's words [R39-R43].
api_result(_, ok) -> ok;
api_result(restart_child, {ok, undefined}) -> ignored;
api_result(restart_child, {ok, _}) -> ok;
api_result(restart_child, {ok, _, _}) -> ok;
api_result(_, {error, not_found}) -> not_found;
api_result(_, {error, running}) -> running;
api_result(_, {error, restarting}) -> restarting;  % never in concord: INTERNAL below [R43]
api_result(restart_child, {error, _}) -> failed.

api_number(ok) -> 0;
api_number(not_found) -> 1;
api_number(running) -> 2;
api_number(ignored) -> 4;
api_number(failed) -> 5;
api_number(restarting) -> throw({concord_exit, {fail, <<"INTERNAL">>}}).

has_type(int, V) -> is_integer(V);
has_type(addr, V) -> is_binary(V);
has_type(reason, V) -> is_atom(V) orelse is_tuple(V).

%% How a caller whose callee exited with R before replying exits (SPEC §18.2).
call_failure(R) -> ?CALL_FAILURE(R).

%% code(R) (SPEC §15).
code(normal) -> <<"NORMAL">>;
code(shutdown) -> <<"SHUTDOWN">>;
code(killed) -> <<"KILLED">>;
code(noproc) -> <<"NOPROC">>;
code({fail, Code}) -> Code;
code(Other) -> iolist_to_binary(io_lib:format("~0p", [Other])).

%% reply e: the first reply of a handler reached by a call answers it for real,
%% gen_server:reply/2 to the caller's From (the call message may still be on its
%% way). The conductor makes the caller ready if it still waits. Anything else
%% does nothing [R29].
reply(V) ->
    case get('$concord_call') of
        {CallId, unanswered} ->
            put('$concord_call', {CallId, answered}),
            From = case erase({'$concord_from', CallId}) of
                       undefined -> receive {'$gen_call', F, {'$concord_call', CallId}} -> F end;
                       F -> F
                   end,
            C = get('$concord_conductor'),
            flush(C),
            ok = sync(C, {reply, CallId, V}),
            gen_server:reply(From, V),
            ok;
        _ ->
            ok
    end.

%% The sys debug hook of a version 2 supervisor (installed by its start, SPEC
%% §17.2): before it handles a child's 'EXIT' or a retry, and after each message
%% it handled, it tells the conductor, with OTP's own state: its children
%% ({Id, Pid | undefined | restarting} from #state.children) and how many restarts
%% it has counted (#state.restarts, OTP 25's stdlib 4.2 record layout). The
%% conductor holds it there while other supervisors or signals go first.
sup_hook(Hook = {concord_hook, C, Idx}, {in, Msg = {'EXIT', _, _}}, _Name) ->
    ok = sync(C, {sup_in, Idx, Msg}),
    Hook;
sup_hook(Hook = {concord_hook, C, Idx}, {in, Msg = {'$gen_cast', {try_again_restart, _}}}, _Name) ->
    ok = sync(C, {sup_in, Idx, Msg}),
    Hook;
sup_hook(Hook = {concord_hook, C, Idx}, {noreply, State}, _Name) ->
    ok = sync(C, {sup_out, Idx, otp_children(State), length(element(8, State))}),
    Hook;
sup_hook(Hook, _Event, _Name) ->
    Hook.

%% An OTP supervisor's children, newest first, from its #state{} (sys:get_state/1,
%% or its sys hook's): {Id, Pid | undefined | restarting}.
otp_children(State) ->
    {Ids, Db} = element(4, State),
    [{Id, child_pid(element(2, maps:get(Id, Db)))} || Id <- Ids].

child_pid({restarting, _}) -> restarting;
child_pid(P) -> P.

%% The conductor's turn for a held signal from pid From (SPEC §16.3): the oldest
%% 'EXIT' (link, exit) or 'DOWN' (down) from From, held or still to come. Trapping
%% (the program's flag), it is the message; otherwise the 'EXIT' is replayed with
%% the real flag off: a helper links to us and exits with the same reason, and
%% ERTS decides: we die with it, or ignore it (normal) and see the helper's 'DOWN',
%% which comes after its link signal (one sender, in order).
apply_signal(call, _From, C) ->
    %% The callee exited before replying: OTP's reason is the helper's (SPEC §18.2).
    CallId = get('$concord_waiting'),
    receive {'$concord_call_result', CallId, {exit, R}} -> ok end,
    C ! {signal_done, self(), {failed, R}},
    throw({concord_call_failed, call_failure(R)});
apply_signal(Kind, From, C) ->
    Signal = take_held(Kind, From),
    Reason = element(tuple_size(Signal), Signal),
    Result = case Kind =:= down orelse ?TRAPS(Kind) of
                 true ->
                     Kind =:= down andalso forget_monitor(From, element(2, Signal)),
                     {message, Reason};
                 false ->
                     replay(Reason),
                     {ignore, Reason}
             end,
    C ! {signal_done, self(), Result}.

take_held(Kind, From) ->
    Match = fun({'EXIT', F, _}) when Kind =/= down -> F =:= From;
               ({'DOWN', _, process, F, _}) when Kind =:= down -> F =:= From;
               (_) -> false
            end,
    Held = get('$concord_held'),
    case lists:splitwith(fun(S) -> not Match(S) end, Held) of
        {Before, [S | After]} ->
            put('$concord_held', Before ++ After),
            S;
        {_, []} ->
            receive
                S = {'EXIT', F, _} when Kind =/= down, F =:= From -> S;
                S = {'DOWN', _, process, F, _} when Kind =:= down, F =:= From -> S
            end
    end.

forget_monitor(Pid, Ref) ->
    Ms = get('$concord_monitors'),
    put('$concord_monitors', Ms#{Pid => lists:delete(Ref, maps:get(Pid, Ms, []))}).

replay(Reason) ->
    Self = self(),
    process_flag(trap_exit, false),
    {_, Ref} = spawn_monitor(fun() -> erlang:link(Self), erlang:exit(Reason) end),
    receive {'DOWN', Ref, process, _, _} -> ok end,
    process_flag(trap_exit, true).
