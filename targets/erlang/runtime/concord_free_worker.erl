%% concord_free_worker: the gen_server glue of every worker in a free run (SPEC §25),
%% and the statements of emitted code (send, spawn; version 2's are in
%% concord_free_links and concord_free_calls, called through here). Nothing orders
%% the workers: each runs its turns when its scheduler gets to it, takes its
%% messages from its real mailbox, sends straight to the receiver's pid, and records
%% its own events (concord_free_books) as they happen: a turn's `deliver` when it
%% begins, an effect right after it was made, so that every recorded effect
%% happened.
%%
%% A worker's real trap_exit flag is the program's: off unless the program sets it
%% (version 2's trap_exit), so that a termination by its supervisor (SPEC §7.5), or
%% an exit signal, kills it wherever it is, even in the middle of a turn (§25.7 F2),
%% as ERTS does to a gen_server that does not trap.
-module(concord_free_worker).
-export([init/2, handle_info/3, handle_call/4, handle_cast/3, terminate/3]).
-export([send/3, spawn/5, resume_turn/1]).
-export([trap_exit/1, link/1, unlink/1, monitor/1, demonitor/1, exit_signal/2, call/5, reply/1, api/3]).

-include("concord_free.hrl").

%% Planted faults (targets/FAULTS.md): free_delivered_twice, free_lost_when_busy.
-ifdef('FAULT_FREE_DELIVERED_TWICE').
-define(TO_SELF(Pid, Msg), to_self(Pid, Msg)).
-else.
-define(TO_SELF(Pid, Msg), ok).
-endif.
-ifdef('FAULT_FREE_LOST_WHEN_BUSY').
-define(FLUSH_LATE_ANSWER(), flush_late_answer()).
-else.
-define(FLUSH_LATE_ANSWER(), ok).
-endif.

-record(fw, {
    mod,              % the emitted module
    kind,             % kind index
    state,            % the state tuple {Self, Params..., Fields...}
    stalled = false   % a turn ticket above the limit was drawn: no more turns (SPEC §25.4 G10)
}).

%% gen_server:init/1 of a worker. Start = {Ctx, Kind, Name, SupIdx | none, Args}
%% for a supervisor's static child (the emitted child specs), and
%% {..., Origin} for the others: `outside` (a root) or {spawned, Spawner, N} (a
%% spawn, effect N of incarnation Spawner; under a supervisor too, where the
%% supervisor's hook reads it from the child spec: concord_free_sup).
%% A spawned process takes its own name (Name is {new, Ref}): see spawn/5.
%% Version 2: the start fails, or is ignored, as the program says (SPEC §19.1); OTP
%% decides what follows, and the watcher records the exit.
init(Mod, {Ctx, K, Name, Sup, Args}) -> init(Mod, {Ctx, K, Name, Sup, Args, static});
init(Mod, {Ctx, K, Name0, Sup, Args, Origin}) ->
    Name = name(Ctx, Mod, K, Name0),
    By = case {Sup, Origin} of
             {none, outside} -> null;
             {none, {spawned, Spawner, _}} -> Spawner;
             _ -> parent(Ctx)  % its supervisor's incarnation: a static child, a restart, start_child
         end,
    concord_free_books:enter(Ctx, worker, Name, K, By, Sup =/= none),
    put('$cf_parent', case Sup of none -> self(); _ -> hd(get('$ancestors')) end),  % gen_server's parent
    put('$cf_kind', K),
    try Mod:init_body(K, Mod:new_state(K, Name, Args)) of
        State -> {ok, #fw{mod = Mod, kind = K, state = State}}
    catch
        throw:{concord_exit, Reason} -> start_ended(Ctx, Sup, By, Reason), {stop, Reason};
        throw:concord_ignore -> start_ended(Ctx, Sup, By, normal), ignore
    end.

%% A start that fails or is ignored (SPEC §19.1) ends the incarnation with Reason
%% (normal when ignored). OTP's gen_server answers the starter first and exits
%% after: a supervisor whose own start fails on that answer can exit in between,
%% and its exit signal then ends the child with the supervisor's reason (measured:
%% `shutdown` for a child whose init failed with OOPS). The start's outcome, already
%% given, is the child's own: the watcher records Reason (concord_free_watcher).
%% Nor is it an exit its supervisor handles (OTP ignores the 'EXIT' of a pid that
%% never became its child).
start_ended(#cf{meta = M, kids = Kids}, Sup, By, Reason) ->
    {Name, Inc} = concord_free_books:me(),
    ets:insert(M, {{start_ended, Name, Inc}, Reason}),
    Sup =:= none orelse ets:delete(Kids, {By, self()}).


%% The spawned name (SPEC §2) is taken by the new process itself, at its start: a
%% spawner killed in the middle of its spawn (SPEC §25.7 F2) then either took no
%% number or started the process that has it, so no number is lost (G8). Under a
%% supervisor the child spec's id is {concord_spawn, Ref}: the name is taken once,
%% and the restarts find it by Ref. The spawner finds it by Ref too, also when the
%% start failed (SPEC §19.4: the name is consumed all the same).
name(_Ctx, _Mod, _K, Name) when is_binary(Name) -> Name;
name(#cf{meta = M, spawned = S}, Mod, K, {new, Ref}) ->
    case ets:lookup(M, {spawn_id, Ref}) of
        [{_, Name}] -> Name;
        [] ->
            Name = <<(Mod:spawn_prefix(K))/binary, (integer_to_binary(atomics:add_get(S, K + 1, 1)))/binary>>,
            ets:insert(M, [{{spawn_id, Ref}, Name}, {{child_id, Name}, {concord_spawn, Ref}}]),
            Name
    end.

%% The supervisor that is starting us: OTP's proc_lib puts it first in '$ancestors'.
parent(Ctx) ->
    {Name, Inc, supervisor} = concord_free_books:whois(Ctx, hd(get('$ancestors'))),
    {Name, Inc}.

%% A message (SPEC §6.5): {'$cf_msg', From, N, Tag, Args}, From the sender's
%% incarnation {Name, Inc} and N its effect number, or From = null and N the given
%% message's index. Version 2: a trapped 'EXIT' or a 'DOWN' is a system message
%% (SPEC §16.4; concord_free_links:message/1 says which). A turn takes a ticket
%% first: above the limit, this message and every later one stay unhandled and
%% unrecorded (SPEC §25.6 turn_limit).
handle_info(_, _Msg, W = #fw{stalled = true}) ->
    {noreply, W};
handle_info(_, Msg = {'$cf_msg', _, _, _, _}, W) ->
    message(Msg, W);
handle_info(_, Msg, W) when element(1, Msg) =:= 'EXIT'; element(1, Msg) =:= 'DOWN' ->
    case concord_free_links:message(Msg) of
        ignore -> {noreply, W};
        {Tag, Args, Signal} -> turn(W, {deliver_signal, Tag, Args, Signal}, Tag, Args, fun() -> ok end)
    end;
handle_info(_, _Other, W) ->
    {noreply, W}.

-ifdef('FAULT_FREE_SECOND_FIRST').
%% Planted fault free_second_first (targets/FAULTS.md): a message whose sender has
%% another one waiting behind it is taken with it as a batch, and the batch is
%% handled newest first: the second before the first (SPEC §25.4 G4).
message(Msg = {'$cf_msg', From, _, _, _}, W) ->
    receive
        Next = {'$cf_msg', From, _, _, _} ->
            case deliver(Next, W) of
                {noreply, W1} -> deliver(Msg, W1);
                Stop -> Stop
            end
    after 0 ->
        deliver(Msg, W)
    end.
-else.
message(Msg, W) -> deliver(Msg, W).
-endif.

%% A turn on a message (the books count its delivery); none past the turn limit.
deliver(_Msg, W = #fw{stalled = true}) ->
    {noreply, W};
deliver({'$cf_msg', From, N, Tag, Args}, W) ->
    turn(W, {deliver, From, N, Tag, Args}, Tag, Args,
         fun() ->
                 #cf{meta = M} = concord_free_books:ctx(),
                 {Name, Inc} = concord_free_books:me(),
                 ets:update_counter(M, {rx, Name, Inc}, {3, 1})
         end).

%% The run's end reads the state of every live worker (SPEC §25.6 `state`).
handle_call(_, '$cf_state', _From, W) ->
    {reply, {W#fw.kind, W#fw.state}, W};
%% A call message (SPEC §18.1): a turn like any, whose first reply answers From.
handle_call(_, {'$cf_call', _, _, _, _}, _From, W = #fw{stalled = true}) ->
    {noreply, W};
handle_call(_, {'$cf_call', Caller, N, Tag, Args}, From, W) ->
    put('$cf_reply_to', From),
    Result = turn(W, {deliver_call, Caller, N, Tag, Args}, Tag, Args, fun() -> ok end),
    erase('$cf_reply_to'),
    Result;
handle_call(_, _Other, _From, W) ->
    {reply, unknown, W}.

handle_cast(_, _Msg, W) -> {noreply, W}.

%% The exit is recorded by the watcher, from the exit signal ERTS sends it.
terminate(_, _Reason, _W) -> ok.

%% One turn (SPEC §8.2 steps 5-6): a ticket, the delivery recorded (Counted: what
%% else the delivery counts), then the handler.
turn(W = #fw{mod = Mod, kind = K, state = S}, Deliver, Tag, Args, Counted) ->
    case ticket() of
        false ->
            {noreply, W#fw{stalled = true}};
        true ->
            concord_free_books:record(Deliver),
            Counted(),
            try Mod:dispatch(K, Tag, Args, S) of
                no_handler -> {stop, {fail, <<"NO_HANDLER">>}, W};
                S1 -> after_turn(W#fw{state = S1})
            catch
                throw:{concord_exit, Reason} -> {stop, Reason, W}  % stop, fail, a runtime failure (SPEC §6.4)
            end
    end.

-ifdef('FAULT_FREE_DELIVERED_TWICE').
%% Planted fault free_delivered_twice (targets/FAULTS.md): a send to oneself takes a
%% fast path, handled right after the turn without the trip through the mailbox,
%% but the ordinary send is made too: the message is handled twice (SPEC §25.4 G7).
after_turn(W) ->
    lists:foldl(fun(Msg, {noreply, W1}) -> deliver(Msg, W1);
                   (_, Stop) -> Stop
                end, {noreply, W}, lists:reverse(erase_list('$cf_to_self'))).

erase_list(Key) ->
    case erase(Key) of
        undefined -> [];
        List -> List
    end.

to_self(Pid, Msg) when Pid =:= self() -> put('$cf_to_self', [Msg | erase_list('$cf_to_self')]);
to_self(_, _) -> ok.
-else.
after_turn(W) -> {noreply, W}.
-endif.

%% A turn's ticket: whether the run's turn limit L leaves this turn (SPEC §25.4 G10).
ticket() ->
    #cf{counters = A, turns = Limit} = concord_free_books:ctx(),
    atomics:add_get(A, ?C_TURNS, 1) =< Limit.

%% A waiting caller's reply came: resuming is a turn (SPEC §18.3) and takes a
%% ticket; above the limit the caller stays where it is, unhandled, for good, with
%% State, its state when it called.
resume_turn(State) ->
    case ticket() of
        true -> ok;
        false -> stall(State)
    end.

%% A worker that may take no more turns in the middle of a handler: it takes its
%% messages and handles none, and exits only as OTP makes it (its supervisor's
%% 'EXIT' when it traps, as gen_server would; a signal otherwise). The run's end
%% asks it for its state, as it asks any worker.
stall(State) ->
    Parent = get('$cf_parent'),
    receive
        {'EXIT', Parent, Reason} -> exit(Reason);
        {'$gen_call', From, '$cf_state'} -> gen_server:reply(From, {get('$cf_kind'), State});
        _ -> ok
    end,
    stall(State).

%% send t(a...) to e (SPEC §6.5): to the pid of the name's live incarnation, or
%% dropped; recorded once made. The receiver's count of messages sent to it lets
%% the run's end check that each was delivered (concord_free_end).
send(To, Tag, Args) ->
    Ctx = #cf{meta = M} = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    case resolve(Ctx, To) of
        {Pid, Inc} ->
            Pid ! {'$cf_msg', concord_free_books:me(), N, Tag, Args},
            ?TO_SELF(Pid, {'$cf_msg', concord_free_books:me(), N, Tag, Args}),
            ets:update_counter(M, {rx, To, Inc}, {2, 1}),
            concord_free_books:record({send, N, To, Inc});
        none ->
            concord_free_books:record({drop, N, To})
    end,
    ok.

-ifdef('FAULT_FREE_STALE_NAME_CACHE').
%% Planted fault free_stale_name_cache (targets/FAULTS.md): the run keeps a cache of
%% the pid each name first resolved to (a row {{cached, Name}, Pid, Inc} of the
%% books), which a restart does not invalidate: once that pid has died, the name has
%% no live process for any sender, and sends there are dropped though the name has a
%% new incarnation (SPEC §25.4 G6).
resolve(Ctx = #cf{meta = M}, To) ->
    case ets:lookup(M, {cached, To}) of
        [{_, Pid, Inc}] ->
            case is_process_alive(Pid) of
                true -> {Pid, Inc};
                false -> none
            end;
        [] ->
            Found = concord_free_books:lookup(Ctx, To),
            case Found of
                {P, I} -> ets:insert_new(M, {{cached, To}, P, I});
                none -> ok
            end,
            Found
    end.
-else.
resolve(Ctx, To) -> concord_free_books:lookup(Ctx, To).
-endif.

%% [f =] spawn K(a...) [under s r] (SPEC §6.6): the process limit, then OTP's own
%% start: gen_server:start unsupervised, supervisor:start_child under s, which
%% exits noproc when s is dead [R13]. The new process takes its name (name/4); the
%% spawner finds it by Ref. A start that fails or is ignored does not fail the
%% spawner (SPEC §19.4 [R38]). While the new process starts, the spawner is busy: it
%% waits in a receive for the start's answer, and the run must not look ended
%% meanwhile.
spawn(Mod, K, Args, Sup, Restart) ->
    Ctx = #cf{meta = M} = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    concord_free_books:busy(Ctx, spawn),
    try
        over_limit(Ctx) andalso refuse(N, <<"SYSTEM_LIMIT">>),
        Ref = make_ref(),
        Start = {Ctx, K, {new, Ref}, Sup, Args, {spawned, concord_free_books:me(), N}},
        case start(Ctx, Mod, Ref, Start, Sup, Restart) of
            noproc ->
                refuse(N, <<"NOPROC">>);
            Result ->
                ?FLUSH_LATE_ANSWER(),
                Name = ets:lookup_element(M, {spawn_id, Ref}, 2),
                concord_free_books:record({spawn, N, Name, Result}),
                Name
        end
    after
        concord_free_books:unbusy()
    end.

-ifdef('FAULT_FREE_LOST_WHEN_BUSY').
%% Planted fault free_lost_when_busy (targets/FAULTS.md): after its spawn the
%% spawner flushes a late answer of the start it waited for, with a pattern so wide
%% that it takes a message waiting in its mailbox instead: the message is lost, and
%% counted off the mailbox as if handled (SPEC §25.4 G7).
flush_late_answer() ->
    receive
        {'$cf_msg', _, _, _, _} ->
            #cf{meta = M} = concord_free_books:ctx(),
            {Name, Inc} = concord_free_books:me(),
            ets:update_counter(M, {rx, Name, Inc}, {3, 1})
    after 0 ->
        ok
    end.
-endif.

%% SPEC §6.6 step 1: the counter says at once when there is room; when it says
%% there is none, it may be behind the exits, so the live workers are counted.
over_limit(Ctx = #cf{counters = A, max = Max}) ->
    atomics:get(A, ?C_LIVE) >= Max andalso concord_free_books:live_workers(Ctx) >= Max.

refuse(N, Code) ->
    concord_free_books:record({refused, N, Code}),
    throw({concord_exit, {fail, Code}}).

%% ok | failed | ignored | noproc.
start(_Ctx, Mod, _Ref, Start, none, _Restart) ->
    case gen_server:start(Mod, {worker, Start}, []) of
        {ok, _} -> ok;
        ignore -> ignored;
        {error, _} -> failed
    end;
start(#cf{meta = M, v2 = V2, mod = Prog}, Mod, Ref, Start, Sup, Restart) ->
    case ets:lookup(M, {sup, Sup}) of
        [{_, SupPid, _}] ->
            try start_child(Prog, Sup, SupPid, child_spec(Mod, Ref, Start, Restart, V2)) of
                {ok, Pid} when is_pid(Pid) -> ok;
                {ok, undefined} -> ignored;
                {error, _} -> failed
            catch
                exit:{noproc, _} -> noproc;
                %% It died while the request waited in its mailbox: gen_server:call
                %% exits with its reason. The spawn found no live supervisor to
                %% handle it (the supervisor's exit came first, SPEC §25.4 G6).
                exit:{_, {gen_server, call, _}} -> noproc
            end;
        [] ->
            noproc  % it never started
    end.

%% OTP's supervisor:start_child/2; another BEAM target's program may start the child
%% its own way, answering as OTP's does (the elixir target's Concord.Prog.start_child/3:
%% DynamicSupervisor.start_child/2 for a DynamicSupervisor).
start_child(Prog, Sup, SupPid, Spec) ->
    case erlang:function_exported(Prog, start_child, 3) of
        true -> Prog:start_child(Sup, SupPid, Spec);
        false -> supervisor:start_child(SupPid, Spec)
    end.

%% As concord_otp:start_child/5 (targets/erlang/README.md), with this glue's start
%% and the id {concord_spawn, Ref} (name/4).
child_spec(Mod, Ref, Start, {Restart, significant}, V2) ->
    (child_spec(Mod, Ref, Start, Restart, V2))#{significant => true};
child_spec(Mod, Ref, Start, Restart, V2) ->
    #{id => {concord_spawn, Ref}, start => {gen_server, start_link, [Mod, {worker, Start}, []]}, restart => Restart,
      shutdown => case V2 of true -> 200; false -> 5000 end, type => worker, modules => [Mod]}.

%% --- version 2's statements (SPEC §16, §18, §20) ------------------------------------

trap_exit(V) -> concord_free_links:trap_exit(V).
link(Name) -> concord_free_links:link(Name).
unlink(Name) -> concord_free_links:unlink(Name).
monitor(Name) -> concord_free_links:monitor(Name).
demonitor(Name) -> concord_free_links:demonitor(Name).
exit_signal(Name, Reason) -> concord_free_links:exit_signal(Name, Reason).
call(To, Tag, Args, Type, State) -> concord_free_calls:call(To, Tag, Args, Type, State).
reply(V) -> concord_free_calls:reply(V).
api(Op, Sup, Child) -> concord_free_calls:api(Op, Sup, Child).
