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

-ifdef('FAULT_SENDS_LOST_ON_FAIL').
-define(SENT(Reason, Out), case Reason of normal -> Out; _ -> [] end).  % planted fault: a failure loses its sends
-else.
-define(SENT(Reason, Out), Out).
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
    %% terminate/2, which reports it (SPEC §7.5).
    Sup =/= none andalso process_flag(trap_exit, true),
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
            ignore
    end.

%% A turn (SPEC §8.2 steps 5-6): the conductor popped the message and journaled
%% the delivery; run the handler and answer with how it ended.
handle_info(_, {'$concord_turn', Tag, Args}, W = #w{mod = Mod, kind = K, state = S, conductor = C}) ->
    try Mod:dispatch(K, Tag, Args, S) of
        no_handler -> end_turn({fail, <<"NO_HANDLER">>}, W);
        S1 ->
            C ! {done, self(), alive, take_out()},
            {noreply, W#w{state = S1}}
    catch
        throw:{concord_exit, Reason} -> end_turn(Reason, W);
        Class:Error:Stack ->
            C ! {crashed, self(), {Class, Error, Stack}},
            {stop, normal, W#w{own_exit = true}}
    end;
handle_info(_, _Other, W) ->  % e.g. an 'EXIT' from a process spawned through us: not ours
    {noreply, W}.

%% The process exits with Reason, which its supervisor sees as OTP does: `normal`
%% for stop, `{fail, Code}` (abnormal) for a failure.
end_turn(Reason, W) ->
    W#w.conductor ! {done, self(), {exit, Reason}, ?SENT(Reason, take_out())},  % sends before a failure stay sent (§6)
    {stop, Reason, W#w{own_exit = true}}.

handle_call(_, concord_state, _From, W) -> {reply, {W#w.kind, W#w.state}, W};
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
                    Name;
                noproc ->
                    C ! {spawn_failed, self()},
                    throw({concord_exit, {fail, <<"NOPROC">>}})
            end
    end.

%% A start that fails or is ignored does not fail the spawner (SPEC §19.4 [R38]):
%% gen_server:start returns {error, R} or ignore, start_child {error, {R, _}} or
%% {ok, undefined}; the name is consumed all the same.
start(Target, Mod, Start, none, _Restart) ->
    case Target:start_worker(Mod, Start) of
        {ok, _} -> ok;
        {error, _} -> ok;
        ignore -> ok
    end;
start(Target, Mod, Start = {_, _, _, Sup, _}, SupPid, Restart) ->
    try Target:start_child(Mod, Sup, SupPid, Start, Restart) of
        {ok, _Pid} -> ok;  % {ok, undefined}: ignored
        {error, _} -> ok
    catch
        exit:{noproc, _} -> noproc
    end.

%% A request the conductor answers once it has recorded it.
sync(C, Request) ->
    Ref = erlang:monitor(process, C),
    C ! {sync, self(), Ref, Request},
    receive
        {Ref, Reply} ->
            erlang:demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, process, _, Why} ->
            exit({conductor_gone, Why})
    end.
