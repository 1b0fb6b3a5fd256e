%% concord_conductor: one run of a program (SPEC §8) on real OTP processes. The
%% conductor is the scheduler: it owns the generator, the mailboxes, the ready set
%% and the journal, and grants one turn at a time. Workers are the emitted
%% program's gen_servers, supervisors are OTP's own (or, for the elixir target,
%% Elixir's); the conductor only records what they do. It is shared by every BEAM
%% target: what differs between them (how a program starts its processes, how a
%% supervisor's list of children reads) is the target's concord_target module.
%%
%% It never decides a restart. After a supervised worker ends itself, it follows
%% OTP's reaction up the tree (react/5) and reads each decision from what the
%% supervisor then reports (which_children) or from its death (give_up). Every
%% event of the reaction reaches it synchronously (concord_worker:sync/2), so the
%% journal has them in the order OTP produced them; a supervisor's own exit has no
%% message of its own, so it is looked for (is_process_alive/1) before each event
%% of a reaction and at its end, and several found at once are put in the order
%% of their monitors' 'DOWN' messages.
-module(concord_conductor).
-export([run/5]).

-ifdef('FAULT_SPAWN_NUMBER_PER_PROGRAM').
-define(COUNTER(K), all).  % planted fault: one spawn counter for the program, not one per kind
-else.
-define(COUNTER(K), K).
-endif.
-ifdef('FAULT_MAILBOX_NEWEST_FIRST').
-define(ENQUEUE(M, Q), queue:in_r(M, Q)).  % planted fault: a message goes to the front of its mailbox
-else.
-define(ENQUEUE(M, Q), queue:in(M, Q)).
-endif.
-ifdef('FAULT_GIVEN_REVERSED').
-define(GIVEN(L), lists:reverse(L)).  % planted fault: the given messages are sent last first
-else.
-define(GIVEN(L), L).
-endif.
-ifdef('FAULT_SPAWN_NAME_DIGITS_REVERSED').
-define(NUMBER(N), list_to_binary(lists:reverse(integer_to_list(N)))).  % planted fault: a spawned name's number backwards
-else.
-define(NUMBER(N), integer_to_binary(N)).
-endif.
-ifdef('FAULT_DEEP_MAILBOX_CRASH').
%% Planted fault: a mailbox holds 1,000 messages at most; the next one crashes the conductor.
-define(ROOM(Q), queue:len(Q) < 1000 orelse error({mailbox_full, 1000})).
-else.
-define(ROOM(Q), true).
-endif.
-ifdef('FAULT_DOWNS_BEFORE_LINKS').
%% Planted fault (measurement only): an exit's down and call signals are queued before its link signals.
-define(SIGNALS(Links, Downs), Downs ++ Links).
-else.
-define(SIGNALS(Links, Downs), Links ++ Downs).
-endif.
-ifdef('FAULT_READY_COUNTED_AFTER_POP').
%% Planted fault (held out 2): a deliver's ready count is taken after the pop, so a
%% process whose last message it was is not counted.
-define(READY_AFTER_POP(N, Q), case queue:is_empty(Q) of true -> N - 1; false -> N end).
-else.
-define(READY_AFTER_POP(N, Q), N).
-endif.
-ifdef('FAULT_LIMIT_COUNTS_SUPERVISORS').
%% Planted fault (held out 2): a supervisor's start and exit count in `live`, so the
%% process limit counts the live supervisors too.
-define(SUP_LIVE, 1).
-else.
-define(SUP_LIVE, 0).
-endif.
-ifdef('FAULT_ALIVE_BY_NAME').
%% Planted fault (held out 3): the result's alive workers are listed in the order of
%% their names (the name -> id map's), not by ascending id.
-define(ALIVE_ORDER(Ids, St), [I || {_, I} <- lists:sort(maps:to_list(St#st.ids))]).
-else.
-define(ALIVE_ORDER(Ids, St), Ids).
-endif.
-ifdef('FAULT_CALL_TO_DEAD_UNJOURNALED').
%% Planted fault (held out 3): a call to a name with no live process fails the caller
%% with NOPROC without its call signal event.
-define(CALL_SIGNAL(Event, St), St).
-else.
-define(CALL_SIGNAL(Event, St), journal(Event, St)).
-endif.
-ifdef('FAULT_KILL_SIGNAL_SHOWN_KILLED').
%% Planted fault (held out 3): the signal event of exit(e, kill) shows the reason the
%% receiver died with, killed, not kill.
-define(SHOWN(Reason, Why), Why).
-else.
-define(SHOWN(Reason, Why), case Reason of kill -> kill; _ -> Why end).
-endif.
-ifdef('FAULT_TURN_LIMIT_ONE_LATE').
-define(AT_LIMIT(T, L), T > L).  % planted fault (held out): the turn limit is checked after the turn, one turn late
-else.
-define(AT_LIMIT(T, L), T =:= L).
-endif.
-ifdef('FAULT_SHUTDOWN_COUNTED_AS_FAILURE').
-define(FAILURE(R), R =/= normal).  % planted fault (held out): an exit with shutdown gets a failures record
-else.
-define(FAILURE(R), R =/= normal andalso R =/= shutdown).
-endif.
-ifdef('FAULT_DECISION_AFTER_RESTART').
%% Planted fault: a reaction's decisions are journaled after its other events (after the restarts).
-define(PLACED(Es), [E || E <- Es, element(1, E) =/= decision] ++ [E || E <- Es, element(1, E) =:= decision]).
-else.
-define(PLACED(Es), Es).
-endif.

%% A worker process, by id (SPEC §8.1). Alive exactly when pid =/= undefined.
-record(proc, {
    name,     % binary
    kind,     % kind index
    pid,      % the live process, or undefined
    started,  % the number of its latest start among the run's starts (orders children, concord_target)
    sup,      % index of its supervisor, or none
    last,     % its latest pid, alive or not (a dead pid names it after its exit, SPEC §16.2)
    mailbox   % queue of {From, Tag, Args}; empty unless alive
}).

%% A declared supervisor, by pre-order index.
-record(sup, {
    name,           % binary
    parent,         % index, or none for a root
    pid,            % its latest incarnation
    monitor,        % our monitor of that incarnation
    alive = false,
    auto = false,   % its auto_shutdown flag is not never (SPEC §21)
    restarts = 0,   % version 2: the restarts OTP has counted in this incarnation (#state.restarts)
    pending = []    % version 2: its pending exits, [{Name, Pid}] in order (SPEC §17.3)
}).

-record(st, {
    target,              % the target's concord_target module
    mod,                 % the emitted module
    limit,               % turn limit L
    max,                 % process limit P
    turn = 0,            % the current turn (0: start)
    rng,                 % SplitMix64 state
    ready,               % concord_ready: alive ids with mail
    next_id = 0,
    starts = 0,          % worker starts so far
    ids = #{},           % name -> id, every name that ever came to life
    procs = #{},         % id -> #proc{}
    pids = #{},          % pid -> id, live workers
    live = 0,            % live workers (the process limit counts these)
    spawned = #{},       % kind -> successful spawns so far (SPEC §2)
    pending_spawn,       % spawn counter (the kind) of the spawn being started, until it starts or fails
    sups,                % tuple of #sup{}, element Idx + 1
    downs = #{},         % supervisor monitor -> {arrival number, exit reason}, when the 'DOWN' came early
    down_seq = 0,        % the next arrival number
    settling = false,    % inside a reaction: look for dead supervisors before each event
    pending = [],        % a reaction's events, newest first; {slot, Pid} marks where a decision goes
    retries = [],        % a reaction's failed restarts, newest first: {SupIdx, Pid} (SPEC §19.3)
    retry_names = #{},   % the pid of a failed start -> its name
    restarted = #{},     % names started during the reaction
    gave_up = #{},       % supervisor pid -> true: OTP reported it reached its restart intensity
    %% Version 2 (SPEC §16, §17): the conductor's books of what the program linked
    %% and monitored, which say which signals an exit makes and in which order;
    %% what each signal does is OTP's (concord_worker:apply_signal/3).
    v2 = false,          % the program is version 2: workers are watched during their turns
    tomb,                % a dead pid, for names that never lived
    links = #{},         % id -> ordset of ids
    monitors = [],       % [{Number, Holder, Target, down | call}] in creation order
    waiting = #{},       % caller id -> {CalleeName, CallId, none | {value, V}} (SPEC §18)
    call_seq = 0,
    helpers = [],        % the processes that make callers' real gen_server:calls
    frozen = #{},        % waiting caller id -> its state when it began to wait
    watch = #{},         % version 2: our monitor of each worker -> its id (a death nobody reports)
    former = #{},        % version 2: pid -> name of every supervised worker that has exited (a supervisor
                         % that names its children by pid, concord_target, may still list it)
    apis = #{},          % pid of a worker whose API request is in flight -> true
    mon_seq = 0,
    signals,             % the signal queue: {Kind, FromName, FromPid, ToId, ToPid, Reason}
    self_signal,         % the exit signal a worker sent itself in this turn, until it dies
    %% Version 2 supervision (SPEC §17.2, §17.3): supervisors stay suspended
    %% (sys:suspend) but while the conductor lets one handle its pending items;
    %% their sys hook (concord_worker:sup_hook/3) says when each is handled.
    running = none,      % the supervisor handling its pending items
    handling = none,     % what it handles: {exit | retry, Name, SlotKey}
    slot_seq = 0,
    decided = #{},       % slot key -> {Supervisor, Child, Action}, until the events are placed
    resumed = [],        % supervisors resumed for a spawn, suspended again when it settles
    final = #{},         % version 2, at the end: supervisor index -> its children, in start order
    %% The result's journal, failures and decisions, rendered as they become final
    %% (concord_json): binaries off the process heap, so that a long journal costs
    %% the garbage collector nothing.
    journal = <<>>,
    failures = <<>>,
    decisions = <<>>
}).

%% Runs the program once; returns the result line as iodata.
run(Target, Mod, Seed, Limit, Max) ->
    Sups = list_to_tuple([#sup{name = N, parent = P} || {N, P} <- tuple_to_list(Mod:supervisors())]),
    {Tomb, TombRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', TombRef, process, _, _} -> ok end,
    V2 = erlang:function_exported(Mod, version, 0) andalso Mod:version() >= 2,
    St0 = #st{target = Target, mod = Mod, limit = Limit, max = Max, rng = Seed, ready = concord_ready:new(),
              sups = Sups, v2 = V2, tomb = Tomb, signals = queue:new()},
    {Starter, St1} = start_roots(St0),
    St2 = lists:foldl(fun({To, Tag, Args}, S) -> send(null, To, Tag, Args, S) end, St1, ?GIVEN(Mod:given())),
    {Outcome, St3a} = turns(St2),
    St3 = final_children(St3a),
    os:getenv("CONCORD_ERLANG_STATS") =:= false orelse print_stats(St3),
    Result = concord_json:result(result(Seed, Outcome, St3)),
    cleanup(Starter, St3),
    Result.

%% --- start (turn 0) -------------------------------------------------------------

%% The roots start in order (SPEC §8.2), from a helper process: starting a worker
%% waits for its init, which waits for us (concord_worker:sync/2), so we must keep
%% answering meanwhile. The helper holds the links of the root supervisors and
%% traps exits, so that a root that gives up ends alone.
%% Version 2: a start may fail (SPEC §19.2), and a supervisor may then die at turn
%% 0; the start is watched as a reaction is (dead supervisors looked for before
%% each event), without decisions.
start_roots(St = #st{target = Target, mod = Mod}) ->
    C = self(),
    {Starter, Ref} = spawn_monitor(fun() -> starter(Target, Mod, C) end),
    {ok, St1} = await(St#st{settling = true, pending = []},
                      fun({roots_started, P}) when P =:= Starter -> {true, ok};
                         ({'DOWN', R, process, _, Why}) when R =:= Ref -> error({starter_died, Why});
                         (_) -> false
                      end),
    erlang:demonitor(Ref, [flush]),
    St2 = note_dead_supervisors(St1),
    Events = place_decisions(lists:reverse(St2#st.pending), #{}, 0),
    {Starter, lists:foldl(fun record/2, St2#st{pending = [], settling = false}, Events)}.

%% A root whose start fails is not alive, and the next root starts (SPEC §19.2). A
%% failed supervisor has acked its error before exiting: its 'EXIT' (we are
%% linked) says it is gone before the next root starts.
starter(Target, Mod, C) ->
    process_flag(trap_exit, true),
    lists:foreach(fun({worker, Name, K, Args}) ->
                          case Target:start_worker(Mod, {C, K, Name, none, Args}) of
                              {ok, _} -> ok;
                              {error, _} -> ok;
                              ignore -> ok
                          end,
                          ok = concord_worker:sync(C, settle);  % SPEC §17.2: after each root
                     ({supervisor, Idx}) ->
                          case Target:start_supervisor(Mod, C, Idx) of
                              {ok, _} -> ok;
                              {error, _} -> receive {'EXIT', _, _} -> ok end
                          end,
                          ok = concord_worker:sync(C, settle)
                  end, Mod:roots()),
    C ! {roots_started, self()},
    receive never -> ok end.

%% --- turns (SPEC §8.2) --------------------------------------------------------------

turns(St = #st{turn = T, limit = L}) when ?AT_LIMIT(T, L) -> {turn_limit, St};
turns(St = #st{ready = R}) ->
    case concord_ready:size(R) of
        0 when map_size(St#st.waiting) > 0 -> {deadlock, St};  % SPEC §18.3
        0 -> {quiescent, St};
        N -> turns(turn(N, St))
    end.

turn(N, St = #st{ready = R, procs = Procs}) ->
    {X, Rng} = concord_splitmix:next(St#st.rng),
    Id = concord_ready:nth(R, X rem N),
    Turn = St#st.turn + 1,
    P = #proc{pid = Pid, mailbox = Q0} = maps:get(Id, Procs),
    St1 = case St#st.waiting of
              #{Id := {Callee, _, {value, V}}} ->  % its reply came: it resumes (SPEC §18.3)
                  Pid ! '$concord_resume',
                  journal({resume, Turn, N, P#proc.name, Callee, V},
                          St#st{turn = Turn, rng = Rng, ready = concord_ready:remove(R, Id),
                                waiting = maps:remove(Id, St#st.waiting), frozen = maps:remove(Id, St#st.frozen)});
              _ ->
                  {{value, Message}, Q} = queue:out(Q0),
                  R1 = case queue:is_empty(Q) of
                           true -> concord_ready:remove(R, Id);
                           false -> R
                       end,
                  St0 = St#st{turn = Turn, rng = Rng, ready = R1, procs = Procs#{Id := P#proc{mailbox = Q}}},
                  case Message of
                      {From, Tag, Args} ->
                          Pid ! {'$concord_turn', Tag, Args},
                          journal({deliver, Turn, ?READY_AFTER_POP(N, Q), P#proc.name, From, Tag, Args}, St0);
                      {From, Tag, Args, CallId} ->  % a call message (SPEC §18.1)
                          Pid ! {'$concord_turn', Tag, Args, CallId},
                          journal({call, Turn, N, P#proc.name, From, Tag, Args}, St0)
                  end
          end,
    Mon = St#st.v2 andalso erlang:monitor(process, Pid),  % version 2: it may die of its own exit signal
    Name = P#proc.name,
    St3 = case turn_wait(Pid, Mon, St1) of
              {alive, Out, St2} -> ready_again(Id, sends(Name, Out, St2));
              {{waiting, Helper, State}, Out, St2} ->
                  (sends(Name, Out, St2))#st{helpers = [Helper | St2#st.helpers], frozen = (St2#st.frozen)#{Id => State}};
              {{exit, Reason}, Out, St2} -> ended(Id, Pid, Reason, sends(Name, Out, until_gone(Mon, St2)));
              {self_exit, Out, St2} ->  % trapping, unsupervised: its gen_server stops now (SPEC §16.3)
                  {Why, St4} = down_of(Mon, sends(Name, Out, St2)),
                  self_exited(Id, Why, St4);
              {{died, Why}, [], St2} ->  % its exit signal to itself (SPEC §16.3)
                  self_exited(Id, Why, St2);
              {gone, [], St2} ->  % a signal ended it while a spawn settled (SPEC §17.2): already journaled
                  St2
          end,
    case Mon of
        false -> St3;
        _ -> erlang:demonitor(Mon, [flush]), settle_all(St3)
    end.

%% Version 2: a worker that ended itself is waited for until its process is gone.
%% It says so just before its gen_server stops; a call to its name in the next turn
%% must find no process (SPEC §18.1 [R31/dead]: noproc), not one still on its way
%% out, whose exit reason the call's monitor would get instead (as OTP gives it).
until_gone(false, St) -> St;
until_gone(Mon, St) -> element(2, down_of(Mon, St)).

%% The reason of the 'DOWN' of monitor Mon, waited for; what comes before it is
%% handled as it comes.
down_of(Mon, St) ->
    await(St, fun({'DOWN', Ref, process, _, Why}) when Ref =:= Mon -> {true, Why};
                 (_) -> false
              end).

%% Events in arrival order until the worker says how its handler ended, with the
%% sends it made since its last message.
turn_wait(Pid, Mon, St) ->
    receive
        {done, Pid, Status, Out} -> {Status, Out, St};
        {'DOWN', Mon, process, _, Why} when is_map_key(Pid, St#st.apis) ->
            %% Its own API request ended it (SPEC §16.6 [R50/self_*]): its exit now,
            %% the request's answer to come. A child supervisor that the same
            %% termination ended before it (started after it, so terminated first,
            %% SPEC §7.5) exited first: those whose 'DOWN' came before this one.
            St1 = case St#st.pids of
                      #{Pid := Id} -> exited(Id, Why, note_downed_supervisors(St));
                      _ -> St
                  end,
            turn_wait(Pid, Mon, St1);
        {'DOWN', Mon, process, _, Why} -> {{died, Why}, [], St};
        Msg ->
            St1 = event(Msg, St),
            %% Dead already: a signal ended it while a spawn or an API request of
            %% its handler settled; or its own API request did, whose answer is still
            %% to be journaled (SPEC §20) before the turn ends.
            case is_map_key(Pid, St1#st.pids) orelse is_map_key(Pid, St1#st.apis) of
                true -> turn_wait(Pid, Mon, St1);
                false -> {gone, [], St1}
            end
    end.

%% After a resumed turn, a process with mail is ready again.
ready_again(Id, St = #st{procs = Procs, ready = R}) ->
    case maps:get(Id, Procs) of
        #proc{pid = Pid, mailbox = Q} when Pid =/= undefined ->
            case queue:is_empty(Q) orelse is_map_key(Id, St#st.waiting) of
                true -> St;
                false -> St#st{ready = concord_ready:add(R, Id)}
            end;
        _ -> St
    end.

self_exited(Id, Why, St = #st{self_signal = Sent}) ->
    #proc{name = Name} = maps:get(Id, St#st.procs),
    St1 = journal({signal, St#st.turn, exit, Name, Name, Sent, exit}, St#st{self_signal = undefined}),
    own_exit(Id, Why, St1).

%% SPEC §17.1 step 4: an exit that is not its supervisor's doing is a pending exit
%% of the supervisor.
own_exit(Id, Reason, St) ->
    #proc{name = Name, pid = Pid, sup = Sup} = maps:get(Id, St#st.procs),
    St1 = exited(Id, Reason, St),
    case Sup of
        none -> St1;
        _ ->
            case element(Sup + 1, St1#st.sups) of
                S = #sup{alive = true, pending = Ps, pid = SPid} ->
                    queued(Sup, SPid, Pid, St1),
                    St1#st{sups = setelement(Sup + 1, St1#st.sups, S#sup{pending = Ps ++ [{Name, Pid}]})};
                _ -> St1
            end
    end.

%% A held supervisor's pending exits must wait in its mailbox in the order SPEC
%% §17.1 gives them. A process sends its exit signals while it finishes dying,
%% possibly after the conductor has learnt of its death; an exit it then causes
%% (its exit signal kills x, whose link kills a sibling) could reach the
%% supervisor first. So nothing goes on until its 'EXIT' is there. A supervisor
%% that runs (handling, or resumed for an API request or a spawn) takes it itself.
queued(Sup, SPid, Pid, #st{running = Running, resumed = Resumed}) ->
    case Running =:= Sup orelse lists:member(SPid, Resumed) of
        true -> ok;
        false -> queued(SPid, Pid, 5000)
    end.

queued(SPid, Pid, Waits) ->
    case erlang:process_info(SPid, messages) of
        undefined -> ok;  % it died meanwhile: its exit is noted elsewhere
        {messages, Ms} ->
            case lists:any(fun({'EXIT', P, _}) -> P =:= Pid; (_) -> false end, Ms) of
                true -> ok;
                false when Waits > 0 -> receive after 1 -> queued(SPid, Pid, Waits - 1) end;
                false -> error({exit_never_queued, SPid, Pid})
            end
    end.

%% SPEC §17.2: signals first; then the supervisor last in pre-order among those
%% with pending items handles them all; again until neither applies. Its events
%% wait (settling) until every decision is known, then go in place.
settle_all(St = #st{settling = Outer}) ->
    St1 = settle_loop(St#st{settling = true}),
    St2 = note_dead_supervisors(St1),
    Events = place_decisions(lists:reverse(St2#st.pending), St2#st.decided, St2#st.turn),
    lists:foldl(fun record/2, St2#st{pending = [], decided = #{}, settling = Outer}, Events).

settle_loop(St) ->
    St1 = settle_signals(St),
    case [I || I <- lists:seq(tuple_size(St1#st.sups) - 1, 0, -1),
               #sup{alive = true, pending = [_ | _]} <- [element(I + 1, St1#st.sups)]] of
        [] -> St1;
        [Idx | _] -> settle_loop(run_supervisor(Idx, St1))
    end.

%% Resumes supervisor Idx and follows it (its sys hook) until it has handled its
%% pending exits and its retries, or died; then suspends it again.
run_supervisor(Idx, St) ->
    #sup{pid = SPid} = element(Idx + 1, St#st.sups),
    Mon = erlang:monitor(process, SPid),
    St1 = sys_request(SPid, resume, St#st{running = Idx, handling = none}),
    run_loop(Idx, SPid, Mon, St1).

run_loop(Idx, SPid, Mon, St) ->
    receive
        {'DOWN', Mon, process, _, _} ->
            St1 = note_dead_supervisors(gone(Idx, SPid, St)),
            St1#st{running = none, handling = none};
        {sync, SPid, Ref, {sup_in, Idx, Msg}} ->
            St1 = sup_in(Idx, Msg, note_dead_supervisors(St)),  % a child supervisor's failed start came first
            SPid ! {Ref, ok},
            run_loop(Idx, SPid, Mon, St1);
        {sync, SPid, Ref, {sup_out, Idx, Entries, Count}} ->
            {Done, St1} = sup_out(Idx, named_entries(Entries, St), Count, note_dead_supervisors(St)),
            SPid ! {Ref, ok},
            case Done of
                true ->
                    erlang:demonitor(Mon, [flush]),
                    St2 = sys_request(SPid, suspend, St1),
                    St2#st{running = none};
                false ->
                    run_loop(Idx, SPid, Mon, St1)
            end;
        Msg ->
            run_loop(Idx, SPid, Mon, event(Msg, St))
    end.

%% It is about to handle a pending exit (or a retry, SPEC §19.3): the decision goes
%% here in the journal.
sup_in(Idx, {'EXIT', Pid, _}, St = #st{sups = Sups}) ->
    S = #sup{pending = Ps} = element(Idx + 1, Sups),
    case lists:keyfind(Pid, 2, Ps) of
        {Name, Pid} ->
            slot(exit, Name, St#st{sups = setelement(Idx + 1, Sups, S#sup{pending = lists:keydelete(Pid, 2, Ps)})});
        false ->
            St  % a failed start's, or a child it terminated itself: not a pending exit
    end;
sup_in(_Idx, {'$gen_cast', {try_again_restart, Name}}, St) ->
    slot(retry, Name, St);
sup_in(_Idx, {retry_of, Pid}, St) ->  % a supervisor that names its children by pid: the exited child's pid
    slot(retry, name_of(Pid, #{}, St), St).

slot(Kind, Name, St = #st{slot_seq = N}) ->
    journal({slot, {h, N}}, St#st{handling = {Kind, Name, {h, N}}, slot_seq = N + 1}).

%% It handled one message: the decision is OTP's, read from its state: its
%% restart count grew (restart, SPEC §7.2-7.4, §19.3), or the child is gone from
%% its list (remove) or not (keep). A pending exit of a child its reaction
%% terminated meanwhile no longer shows in the list: consumed (SPEC §17.3). Done
%% when nothing is pending and no retry is to come.
sup_out(Idx, Entries, Count, St = #st{sups = Sups, handling = H, decided = D}) ->
    S = #sup{name = SupName, restarts = Before, pending = Ps} = element(Idx + 1, Sups),
    D1 = case H of
             none -> D;
             {retry, _, _} when Count =:= Before -> D;  % no longer restarting: OTP drops the retry
             {_, Name, Key} ->
                 Action = if
                              Count > Before -> restart;
                              true ->
                                  case lists:keymember(Name, 1, Entries) of
                                      true -> keep;
                                      false -> remove
                                  end
                          end,
                 D#{Key => {SupName, Name, Action}}
         end,
    Ps1 = [P || P <- Ps, lists:member(P, Entries)],
    St1 = St#st{sups = setelement(Idx + 1, Sups, S#sup{restarts = Count, pending = Ps1}), handling = none, decided = D1},
    {Ps1 =:= [] andalso not lists:keymember(restarting, 2, Entries), St1}.

%% It died handling: it gave up (OTP's report) or shut down (SPEC §21).
gone(_Idx, _SPid, St = #st{handling = none}) -> St;
gone(Idx, SPid, St = #st{handling = {_, Name, Key}, decided = D, gave_up = G}) ->
    #sup{name = SupName, auto = Auto} = element(Idx + 1, St#st.sups),
    Action = case Auto andalso not is_map_key(SPid, G) of
                 true -> auto_shutdown;
                 false -> give_up
             end,
    St#st{decided = D#{Key => {SupName, Name, Action}}, gave_up = maps:remove(SPid, G)}.

%% A system message (sys:suspend/1, sys:resume/1), sent by hand so that events
%% are handled while it is answered.
sys_request(Pid, Request, St) ->
    Ref = erlang:monitor(process, Pid),
    Pid ! {system, {self(), Ref}, Request},
    {_, St1} = await(St, fun({R, ok}) when R =:= Ref -> {true, ok};
                            ({'DOWN', R, process, _, _}) when R =:= Ref -> {true, gone};
                            (_) -> false
                         end),
    erlang:demonitor(Ref, [flush]),
    St1.

%% A worker ended itself (stop, fail, a runtime failure): journal it, and if it is
%% supervised, follow its supervisor's reaction to the end (SPEC §6.4, §7.8).
ended(Id, _Pid, Reason, St = #st{v2 = true}) ->
    own_exit(Id, Reason, St);
ended(Id, Pid, Reason, St) ->
    #proc{name = Name, sup = Sup} = maps:get(Id, St#st.procs),
    St1 = exited(Id, Reason, St),
    case Sup of
        none -> St1;
        _ -> settle(Name, Pid, Sup, St1)
    end.

%% --- supervisor reactions ----------------------------------------------------------

settle(Name, Pid, Sup, St0) ->
    %% The reaction's events are kept apart, behind a slot for the decision about
    %% the worker, until OTP has told us every decision.
    St1 = St0#st{pending = [{slot, Pid}], settling = true, retries = [], restarted = #{}},
    Ref = erlang:monitor(process, Pid),  % let it finish dying before asking its supervisor
    {ok, St2} = await(St1, fun({'DOWN', R, process, _, _}) when R =:= Ref -> {true, ok}; (_) -> false end),
    {Decided, St3} = react(Name, Pid, Sup, #{}, St2),
    St4 = note_dead_supervisors(St3),
    Events = place_decisions(lists:reverse(St4#st.pending), Decided, St4#st.turn),
    lists:foldl(fun record/2, St4#st{pending = [], settling = false}, Events).

%% Asks supervisor Idx what became of its child Name (pid Pid), and, when the
%% supervisor died instead, asks its parent about it, and so on up (SPEC §7.2-7.4).
%% The call is sent by hand so that we keep answering the events of the reaction
%% while the supervisor is busy with it.
react(Name, Pid, Idx, Decided, St) ->
    #sup{name = SupName, pid = SupPid, parent = Parent, auto = Auto} = element(Idx + 1, St#st.sups),
    Ref = erlang:monitor(process, SupPid),
    SupPid ! {'$gen_call', {self(), Ref}, which_children},
    case await(St, fun({R, Children}) when R =:= Ref -> {true, {children, Children}};
                      ({'DOWN', R, process, _, _}) when R =:= Ref -> {true, gone};
                      (_) -> false
                   end) of
        {{children, Children}, St1} ->
            erlang:demonitor(Ref, [flush]),
            Entries = entries(Idx, Children, #{Pid => Name}, St1),
            Retrying = lists:keymember(restarting, 2, Entries),
            case lists:keyfind(Name, 1, Entries) of
                {_, Pid} ->  % the exit has not reached it yet: ask again
                    again(Name, Pid, Idx, Decided, St1);
                _ when Retrying ->  % a failed restart's retry is still to come (SPEC §19.3)
                    again(Name, Pid, Idx, Decided, St1);
                {_, New} when is_pid(New) -> {retried(Idx, restart, Decided#{Pid => {SupName, Name, restart}}, St1), St1};
                {_, undefined} ->  % kept; or restarted, and that start was ignored (SPEC §19.3 [R37])
                    Action = case St1#st.restarted of
                                 #{Name := true} -> restart;
                                 _ -> keep
                             end,
                    {retried(Idx, restart, Decided#{Pid => {SupName, Name, Action}}, St1), St1};
                false -> {retried(Idx, restart, Decided#{Pid => {SupName, Name, remove}}, St1), St1};
                Other -> error({unexpected_child_entry, SupName, Other})
            end;
        {gone, St1} when Auto, not is_map_key(SupPid, St1#st.gave_up) ->
            %% Gone without OTP's report of giving up: an auto_shutdown (SPEC §21), on this exit.
            react_up(SupName, SupPid, Parent, Decided#{Pid => {SupName, Name, auto_shutdown}}, St1);
        {gone, St1} ->
            %% It gave up: on its last failed restart's retry if there was one,
            %% else on this exit (SPEC §7.4, §19.3).
            Decided1 = case retries_of(Idx, St1) of
                           [] -> Decided#{Pid => {SupName, Name, give_up}};
                           _ -> retried(Idx, give_up, Decided#{Pid => {SupName, Name, restart}}, St1)
                       end,
            react_up(SupName, SupPid, Parent, Decided1, St1#st{gave_up = maps:remove(SupPid, St1#st.gave_up)})
    end.

%% A supervisor that exited by itself is, to its parent, a child that exited
%% with shutdown (SPEC §7.4, §21).
react_up(_SupName, _SupPid, none, Decided, St) -> {Decided, St};
react_up(SupName, SupPid, Parent, Decided, St) -> react(SupName, SupPid, Parent, Decided, St).


again(Name, Pid, Idx, Decided, St) ->
    receive after 1 -> ok end,
    react(Name, Pid, Idx, Decided, St).

%% The failed restarts of supervisor Idx's children in this reaction, in order:
%% each was retried (a restart decision), but for the last, whose retry gave up
%% when Last is give_up (SPEC §19.3).
retried(Idx, Last, Decided, St) ->
    case lists:reverse(retries_of(Idx, St)) of
        [] -> Decided;
        [LastPid | Earlier] ->
            D = lists:foldl(fun(P, D0) -> D0#{P => retry_decision(Idx, P, restart, St)} end, Decided, Earlier),
            D#{LastPid => retry_decision(Idx, LastPid, Last, St)}
    end.

retries_of(Idx, #st{retries = Rs}) -> [P || {I, P} <- lists:reverse(Rs), I =:= Idx].

retry_decision(Idx, Pid, Action, #st{sups = Sups, retry_names = Names}) ->
    {(element(Idx + 1, Sups))#sup.name, maps:get(Pid, Names), Action}.

%% Supervisor Idx's children as [{Name, Pid | undefined}] from its answer to
%% which_children, read by the target (concord_target:children/3).
entries(Idx, WhichChildren, Known, St = #st{target = Target, mod = Mod}) ->
    in_start_order(Target:children(Mod, Idx, WhichChildren), Known, St).

%% A supervisor that does not name its children (concord_target) has them named
%% from our books (and from Known, pid -> name, for a worker that has just
%% exited) and listed in the order their processes started.
in_start_order({ids, Entries}, _Known, _St) ->
    Entries;
in_start_order({pids, Children}, Known, St) ->
    Named = [{started_at(child_key(C), St), pid_entry(C, Known, St)} || C <- Children],
    [E || {_, E} <- lists:sort(Named)].

%% Version 2: a supervisor's children as its sys hook reports them, named (their
%% order does not matter to sup_out/4).
named_entries({pids, Children}, St) -> [pid_entry(C, #{}, St) || C <- Children];
named_entries(Entries, _St) -> Entries.

%% A child listed by pid, or {restarting, Pid} under the pid of the exit whose
%% restart failed (SPEC §19.3).
pid_entry({restarting, Pid}, Known, St) -> {name_of(Pid, Known, St), restarting};
pid_entry(Pid, Known, St) -> {name_of(Pid, Known, St), Pid}.

child_key({restarting, Pid}) -> Pid;
child_key(Pid) -> Pid.

name_of(Pid, Known, #st{pids = Pids, procs = Procs, former = Former}) ->
    case {Known, Pids} of
        {#{Pid := Name}, _} -> Name;
        {_, #{Pid := Id}} -> (maps:get(Id, Procs))#proc.name;
        _ -> maps:get(Pid, Former)
    end.

started_at(Pid, #st{pids = Pids, procs = Procs}) ->
    case Pids of
        #{Pid := Id} -> (maps:get(Id, Procs))#proc.started;
        _ -> -1  % a worker that has just exited: it started before any that is alive
    end.

%% Every supervisor found dead since the last look exited now, before the event
%% at hand, in the order they died. Several found at once need not be one
%% termination cascade: a child supervisor may give up and its parent then
%% terminate the rest (SPEC §7.4-7.5). Their 'DOWN' messages tell the order: the
%% node runs one scheduler (+S 1), so they arrive as the supervisors die.
note_dead_supervisors(St) -> note_dead_supervisors(fun(#sup{pid = P}) -> not is_process_alive(P) end, St).

%% Only those whose 'DOWN' we have already received: for a worker's death that we
%% learn from our own 'DOWN' (#st.watch), which came after those and
%% before any later supervisor's.
note_downed_supervisors(St = #st{downs = Downs}) ->
    note_dead_supervisors(fun(#sup{monitor = M}) -> is_map_key(M, Downs) end, St).

note_dead_supervisors(IsDead, St = #st{sups = Sups}) ->
    Dead = [I || I <- lists:seq(0, tuple_size(Sups) - 1),
                 S = #sup{alive = true} <- [element(I + 1, Sups)], IsDead(S)],
    St1 = take_downs(maps:from_keys([monitor_of(I, St) || I <- Dead,
                                                          not is_map_key(monitor_of(I, St), St#st.downs)], true), St),
    Seq = fun(I) -> element(1, maps:get(monitor_of(I, St1), St1#st.downs)) end,
    lists:foldl(fun supervisor_exited/2, St1, lists:sort(fun(A, B) -> Seq(A) =< Seq(B) end, Dead)).

monitor_of(Idx, #st{sups = Sups}) -> (element(Idx + 1, Sups))#sup.monitor.

%% The 'DOWN' messages of Wanted's monitors, taken in arrival order.
take_downs(Wanted, St) when map_size(Wanted) =:= 0 -> St;
take_downs(Wanted, St = #st{downs = Downs, down_seq = N}) ->
    receive
        {'DOWN', M, process, _, R} when is_map_key(M, Wanted) ->
            take_downs(maps:remove(M, Wanted), St#st{downs = Downs#{M => {N, R}}, down_seq = N + 1})
    end.

supervisor_exited(Idx, St = #st{sups = Sups, downs = Downs}) ->
    S = #sup{name = Name, pid = Pid, monitor = Mon} = element(Idx + 1, Sups),
    {{_, Reason0}, Downs1} = maps:take(Mon, Downs),
    %% A supervisor whose start failed exits {shutdown, {failed_to_start_child, ...}},
    %% which SPEC §15 writes shutdown.
    Reason = case Reason0 of
                 {shutdown, _} -> shutdown;
                 _ -> Reason0
             end,
    Failed = is_tuple(Reason0) andalso element(1, Reason0) =:= shutdown andalso St#st.settling,
    St1 = St#st{sups = setelement(Idx + 1, Sups, S#sup{alive = false}), downs = Downs1, live = St#st.live - ?SUP_LIVE},
    St2 = journal({exit, St#st.turn, Name, Reason}, St1),
    case S#sup.parent of
        P when St#st.v2 -> sup_exit_pending(Idx, P, Name, Pid, St2);
        P when Failed, P =/= none -> retry_slot(P, Pid, Name, St2);  % its parent's restart of it failed
        _ -> journal({slot, Pid}, St2)
    end.

%% Version 2 (SPEC §17.1): its own pending items are dropped; if it exited by
%% itself (it was the one handling: giving up, auto_shutdown), its exit is a
%% pending exit of its parent.
sup_exit_pending(Idx, Parent, Name, Pid, St = #st{sups = Sups, running = Running}) ->
    Sups1 = setelement(Idx + 1, Sups, (element(Idx + 1, Sups))#sup{pending = []}),
    case Parent of
        _ when Running =/= Idx; Parent =:= none -> St#st{sups = Sups1};
        _ ->
            PS = #sup{alive = Alive, pending = Ps, pid = PPid} = element(Parent + 1, Sups1),
            case Alive of
                true ->
                    queued(Parent, PPid, Pid, St),
                    St#st{sups = setelement(Parent + 1, Sups1, PS#sup{pending = Ps ++ [{Name, Pid}]})};
                false -> St#st{sups = Sups1}
            end
    end.

%% Each decision goes where its slot is: right after the exit it is about.
place_decisions(Events, Decided, Turn) ->
    {Placed, Left} = lists:mapfoldl(
                       fun({slot, Pid}, D) ->
                               case maps:take(Pid, D) of
                                   {{Sup, Child, Action}, D1} -> {[{decision, Turn, Sup, Child, Action}], D1};
                                   error -> {[], D}
                               end;
                          (E, D) -> {[E], D}
                       end, Decided, Events),
    map_size(Left) =:= 0 orelse error({decisions_without_exit, Left}),
    ?PLACED(lists:append(Placed)).

%% --- events from workers and supervisors ----------------------------------------

%% Waits for the message Match accepts, handling every other message as an event,
%% in arrival order.
await(St, Match) ->
    receive
        Msg ->
            case Match(Msg) of
                {true, X} -> {X, St};
                false -> await(event(Msg, St), Match)
            end
    end.

event(Msg = {'DOWN', Ref, _, _, _}, St = #st{settling = true, watch = W}) when is_map_key(Ref, W) ->
    handle(Msg, note_downed_supervisors(St));  % a worker's death that nobody reported: an event
event(Msg = {'DOWN', _, _, _, _}, St) -> handle(Msg, St);  % not an event, only a reason kept for later
event(Msg, St = #st{settling = true}) -> handle(Msg, note_dead_supervisors(St));
event(Msg, St) -> handle(Msg, St).

handle({start, Pid, Name, K, Sup}, St) -> started(Pid, Name, K, Sup, St);
handle({sends, From, Out}, St) -> sends(From, Out, St);
handle({sync, Pid, Ref, Request}, St) ->
    {Reply, St1} = request(Request, Pid, St),
    Pid ! {Ref, Reply},
    St1;
handle({spawn_failed, _Pid}, St = #st{pending_spawn = K, spawned = Sp}) ->
    St#st{spawned = Sp#{K := maps:get(K, Sp) - 1}, pending_spawn = undefined};
handle({'DOWN', Ref, process, Pid, Reason}, St = #st{watch = Watch}) when is_map_key(Ref, Watch) ->
    %% A worker's death that nothing reported: a trapping worker blocked when its
    %% supervisor terminated it, killed once the shutdown time ran out (SPEC §16.6
    %% [R50]). Any other death has been journaled already.
    %% Only a supervisor's reaction kills so; elsewhere the death is the one the
    %% conductor waits for with its own monitor.
    %% A child supervisor the same termination ended before it (started later,
    %% SPEC §7.5) exited first: those whose 'DOWN' came before this one, also when
    %% the killed worker was blocked in its own API request (SPEC §16.6, §20).
    {Id, Watch1} = maps:take(Ref, Watch),
    St1 = St#st{watch = Watch1},
    case maps:get(Id, St1#st.procs) of
        #proc{pid = Pid} when St1#st.running =/= none -> exited(Id, Reason, note_downed_supervisors(St1));
        _ -> St1
    end;
handle({'DOWN', Ref, process, _, Reason}, St = #st{downs = Downs, down_seq = N}) ->
    St#st{downs = Downs#{Ref => {N, Reason}}, down_seq = N + 1};  % a supervisor's: used when its exit is noted
handle({crashed, Pid, Info}, _St) -> error({worker_crashed, Pid, Info});
handle({gave_up, Pid}, St = #st{gave_up = G}) -> St#st{gave_up = G#{Pid => true}};  % concord_reports
handle({Ref, ok}, St) when is_reference(Ref) -> St;  % a held supervisor's answer to its suspension
handle(Other, _St) -> error({unexpected_message, Other}).

request(started, _Pid, St) -> {ok, St};
request(settle, _Pid, St = #st{v2 = false}) -> {ok, St};
request(settle, _Pid, St = #st{resumed = Resumed}) ->  % after a root's start, inside a spawn (SPEC §17.2)
    St1 = lists:foldl(fun(P, S) -> sys_request(P, suspend, S) end, St#st{resumed = []}, Resumed),
    {ok, settle_all(St1)};
request({sup_in, _, _}, _Pid, St) -> {ok, St};  % a supervisor that is not handling pending items
request({sup_out, Idx, _, Count}, _Pid, St = #st{sups = Sups}) ->
    {ok, St#st{sups = setelement(Idx + 1, Sups, (element(Idx + 1, Sups))#sup{restarts = Count})}};
request({link, Name}, Pid, St = #st{links = L}) ->
    case named(Name, St) of
        {Y, YPid, true} ->
            X = maps:get(Pid, St#st.pids),
            L1 = L#{X => ordsets:add_element(Y, maps:get(X, L, [])), Y => ordsets:add_element(X, maps:get(Y, L, []))},
            {{YPid, true}, St#st{links = L1}};
        {_, Dead, false} -> {{Dead, false}, St}
    end;
request({unlink, Name}, Pid, St = #st{links = L}) ->
    case named(Name, St) of
        {Y, YPid, true} ->
            X = maps:get(Pid, St#st.pids),
            L1 = L#{X => ordsets:del_element(Y, maps:get(X, L, [])), Y => ordsets:del_element(X, maps:get(Y, L, []))},
            {YPid, St#st{links = L1}};
        {_, Dead, false} -> {Dead, St}
    end;
request({monitor, Name}, Pid, St = #st{monitors = Ms, mon_seq = N}) ->
    case named(Name, St) of
        {Y, YPid, true} ->
            {{YPid, true}, St#st{monitors = Ms ++ [{N, maps:get(Pid, St#st.pids), Y, down}], mon_seq = N + 1}};
        {_, Dead, false} -> {{Dead, false}, St}
    end;
request({demonitor, Name}, Pid, St = #st{monitors = Ms}) ->
    X = maps:get(Pid, St#st.pids),
    case named(Name, St) of
        {Y, YPid, true} ->
            case lists:splitwith(fun({_, H, T, K}) -> not (H =:= X andalso T =:= Y andalso K =:= down) end, Ms) of
                {Before, [_ | After]} -> {YPid, St#st{monitors = Before ++ After}};
                {_, []} -> {none, St}
            end;
        _ -> {none, St}
    end;
request({exit_signal, Name, Reason}, Pid, St = #st{signals = Q}) ->
    case named(Name, St) of
        {Y, YPid, true} ->
            #proc{name = From} = maps:get(maps:get(Pid, St#st.pids), St#st.procs),
            {YPid, St#st{signals = queue:in({exit, From, Pid, Y, YPid, Reason}, Q)}};  % SPEC §16.2: queued
        _ -> {none, St}  % [R19/dead_target]
    end;
request({self_signal, Reason, _Effect}, _Pid, St) -> {ok, St#st{self_signal = Reason}};
%% SPEC §18.1: to itself, or to no live process, the real call fails at once; to
%% a live callee, the call message joins its mailbox, the caller holds a monitor
%% on it and waits.
request({call, To, Tag, Args}, Pid, St = #st{monitors = Ms, mon_seq = N, call_seq = CallId}) ->
    X = maps:get(Pid, St#st.pids),
    #proc{name = Me} = maps:get(X, St#st.procs),
    case named(To, St) of
        _ when To =:= Me -> {{direct, Pid}, St};
        {Y, YPid, true} ->
            St1 = St#st{monitors = Ms ++ [{N, X, Y, call}], mon_seq = N + 1, call_seq = CallId + 1,
                        waiting = (St#st.waiting)#{X => {To, CallId, none}}, ready = concord_ready:remove(St#st.ready, X)},
            {{wait, YPid, CallId}, append(Y, {Me, Tag, Args, CallId}, St1)};
        {_, Dead, false} -> {{direct, Dead}, St}
    end;
%% SPEC §20: a live supervisor is resumed for the request (it handles it at once:
%% nothing is pending when a statement runs, §17.2); then held again, the api
%% event, and the run settles before the caller goes on.
%% The supervisor's pid, and the child's (a dead one when no worker of that name
%% lives, SPEC §16.2): a target whose supervisor names its children by pid asks
%% it by pid (concord_worker:api/4).
request({api, Idx, Child}, Pid, St = #st{sups = Sups, tomb = Tomb}) ->
    {_, ChildPid, _} = named(Child, St),
    case element(Idx + 1, Sups) of
        #sup{alive = true, pid = SPid} ->
            {{live, SPid, ChildPid},
             (sys_request(SPid, resume, St))#st{running = Idx, apis = (St#st.apis)#{Pid => true}}};
        #sup{pid = undefined} -> {{dead, Tomb, ChildPid}, St};
        #sup{pid = SPid} -> {{dead, SPid, ChildPid}, St}
    end;
request({api_done, From, Caller, Op, Idx, Child, Word}, _Pid, St0 = #st{sups = Sups}) ->
    St = St0#st{apis = maps:remove(Caller, St0#st.apis)},
    St1 = case element(Idx + 1, Sups) of
              #sup{alive = true, pid = SPid} -> sys_request(SPid, suspend, St);
              _ -> St
          end,
    #sup{name = SupName} = element(Idx + 1, St1#st.sups),
    %% A child supervisor it terminated exited first (its exit is seen, not told).
    St2 = journal({api, St1#st.turn, From, SupName, Op, Child, Word}, note_dead_supervisors(St1#st{running = none})),
    {ok, settle_all(St2)};
request({own_signal, call, Name, Reason}, Pid, St) ->  % a call to no live process [R31]
    #proc{name = Me} = maps:get(maps:get(Pid, St#st.pids), St#st.procs),
    {ok, ?CALL_SIGNAL({signal, St#st.turn, call, Name, Me, Reason, exit}, St)};
%% SPEC §18.1: the first reply whose caller still waits makes it ready; its call
%% monitor goes.
request({reply, CallId, V}, _Pid, St = #st{waiting = W}) ->
    case [X || {X, {_, C, none}} <- maps:to_list(W), C =:= CallId] of
        [X] ->
            {Callee, _, none} = maps:get(X, W),
            Ms = [M || M = {_, H, _, K} <- St#st.monitors, not (H =:= X andalso K =:= call)],
            {ok, St#st{waiting = W#{X := {Callee, CallId, {value, V}}}, monitors = Ms,
                       ready = concord_ready:add(St#st.ready, X)}};
        [] -> {ok, St}
    end;
request({own_signal, Kind, Name, Reason}, Pid, St) ->
    #proc{name = Me} = maps:get(maps:get(Pid, St#st.pids), St#st.procs),
    St1 = journal({signal, St#st.turn, Kind, Name, Me, Reason, message}, St),
    {ok, send(Name, Me, tag_of(Kind), [Name, Reason], St1)};
request({exit, Reason}, Pid, St) ->  % terminated by its supervisor (SPEC §7.5)
    %% A child supervisor the same termination ended first (started later, SPEC
    %% §7.5) exited first: those whose 'DOWN' came before this report.
    {ok, exited(maps:get(Pid, St#st.pids), Reason, note_downed_supervisors(St))};
%% SPEC §19.1: a start that failed (R) or was ignored (normal). Not an exit its
%% supervisor handles; during a reaction a failed start is a restart that failed,
%% whose retry's decision (§19.3) goes right after it.
request({start_ended, Reason}, Pid, St) ->
    Id = maps:get(Pid, St#st.pids),
    #proc{name = Name, sup = Sup} = maps:get(Id, St#st.procs),
    St1 = exited(Id, Reason, St),
    {ok, case Reason of
             _ when Reason =:= normal; Sup =:= none; not St1#st.settling; St1#st.v2 -> St1;
             _ -> retry_slot(Sup, Pid, Name, St1)
         end};
request({supervisor_start, Idx, Auto}, Pid, St = #st{sups = Sups}) ->
    S = element(Idx + 1, Sups),
    Mon = erlang:monitor(process, Pid),
    St1 = St#st{sups = setelement(Idx + 1, Sups, S#sup{pid = Pid, monitor = Mon, alive = true, auto = Auto,
                                                       restarts = 0, pending = []}),
                live = St#st.live + ?SUP_LIVE},
    %% Version 2: held from the start (SPEC §17.2); the suspension takes effect when
    %% its init is done, and its answer is not waited for.
    St#st.v2 andalso (Pid ! {system, {self(), make_ref()}, suspend}),
    {ok, journal({start, St#st.turn, S#sup.name, <<"supervisor">>}, St1)};
request({spawn, _K, _Sup}, _Pid, St = #st{live = Live, max = Max}) when Live >= Max ->
    {system_limit, St};  % SPEC §6.6 step 1
request({spawn, K, Sup}, _Pid, St = #st{target = Target, mod = Mod, spawned = Sp, sups = Sups}) ->
    Counter = ?COUNTER(K),
    N = maps:get(Counter, Sp, 0) + 1,
    Name = <<(Mod:spawn_prefix(K))/binary, (?NUMBER(N))/binary>>,
    %% The supervisor's latest pid, alive or not: OTP says noproc for a dead one.
    SupPid = case Sup of
                 none -> none;
                 _ -> (element(Sup + 1, Sups))#sup.pid
             end,
    %% Version 2: a held supervisor is resumed for start_child, and held again
    %% when the spawn settles.
    St1 = case Sup of
              _ when not St#st.v2; Sup =:= none -> St;
              _ -> case element(Sup + 1, Sups) of
                       #sup{alive = true} -> (sys_request(SupPid, resume, St))#st{resumed = [SupPid | St#st.resumed]};
                       _ -> St
                   end
          end,
    {{ok, Name, SupPid, Target}, St1#st{spawned = Sp#{Counter => N}, pending_spawn = Counter}}.

%% SPEC §6.7: a worker came to life (declared, spawned or restarted); a name keeps
%% its first id.
started(Pid, Name, K, Sup, St = #st{ids = Ids, procs = Procs, pids = Pids}) ->
    {Id, St1} = case Ids of
                    #{Name := Known} -> {Known, St};
                    _ -> {St#st.next_id, St#st{next_id = St#st.next_id + 1, ids = Ids#{Name => St#st.next_id}}}
                end,
    P = #proc{name = Name, kind = K, pid = Pid, last = Pid, started = St#st.starts, sup = Sup, mailbox = queue:new()},
    St1a = case St1#st.v2 of
               true -> St1#st{watch = (St1#st.watch)#{erlang:monitor(process, Pid) => Id}};
               false -> St1
           end,
    St2 = St1a#st{procs = Procs#{Id => P}, pids = Pids#{Pid => Id}, live = St#st.live + 1, starts = St#st.starts + 1,
                 pending_spawn = undefined, restarted = restarted(Name, St1)},
    journal({start, St#st.turn, Name, (St#st.mod):kind_name(K)}, St2).

%% A failed restart of supervisor Sup's child: its retry's decision goes here.
retry_slot(Sup, Pid, Name, St = #st{retries = Rs, retry_names = Names}) ->
    journal({slot, Pid}, St#st{retries = [{Sup, Pid} | Rs], retry_names = Names#{Pid => Name}}).

restarted(Name, #st{settling = true, restarted = R}) -> R#{Name => true};
restarted(_, #st{restarted = R}) -> R.

%% SPEC §6.4, §17.1: the process is gone; its mailbox and state with it; the exit
%% event; its links and monitors go, and its signals are queued: links by
%% ascending id, then one down per monitor on it, in creation order.
exited(Id, Reason, St = #st{procs = Procs, pids = Pids}) ->
    P = #proc{name = Name, pid = Pid, sup = Sup} = maps:get(Id, Procs),
    Former = case St#st.v2 andalso Sup =/= none of
                 true -> (St#st.former)#{Pid => Name};
                 false -> St#st.former
             end,
    St1 = St#st{procs = Procs#{Id := P#proc{pid = undefined, mailbox = queue:new()}}, former = Former,
                pids = maps:remove(Pid, Pids), live = St#st.live - 1, ready = concord_ready:remove(St#st.ready, Id)},
    St2 = journal({exit, St#st.turn, Name, Reason}, St1#st{waiting = maps:remove(Id, St1#st.waiting),
                                                                    frozen = maps:remove(Id, St1#st.frozen)}),
    case St2 of
        #st{links = L, monitors = []} when map_size(L) =:= 0 -> St2;
        _ -> queue_signals(Id, Name, Pid, Reason, St2)
    end.

queue_signals(Id, Name, Pid, Reason, St = #st{links = Links0, monitors = Mons, procs = Procs}) ->
    Linked = maps:get(Id, Links0, []),
    Links = lists:foldl(fun(Y, L) -> L#{Y := ordsets:del_element(Id, maps:get(Y, L))} end, maps:remove(Id, Links0),
                        Linked),
    Watchers = [{K, H} || {_, H, T, K} <- Mons, T =:= Id],
    PidOf = fun(Y) -> (maps:get(Y, Procs))#proc.pid end,
    New = ?SIGNALS([{link, Name, Pid, Y, PidOf(Y), Reason} || Y <- Linked],
                   [{K, Name, Pid, H, PidOf(H), Reason} || {K, H} <- Watchers]),
    St#st{links = Links, monitors = [M || M = {_, H, T, _} <- Mons, T =/= Id, H =/= Id],
          signals = queue:join(St#st.signals, queue:from_list(New))}.

%% SPEC §17.2 step 1: the queued signals, one at a time, each applied by OTP in
%% the receiver (concord_worker:apply_signal/3), or, for kill, by exit/2 itself.
settle_signals(St = #st{signals = Q}) ->
    case queue:out(Q) of
        {empty, _} -> St;
        {{value, S}, Q1} -> settle_signals(apply_signal(S, St#st{signals = Q1}))
    end.

apply_signal({Kind, From, FromPid, To, ToPid, Reason}, St) ->
    case maps:get(To, St#st.procs) of
        #proc{pid = ToPid, name = ToName} when ToPid =/= undefined ->
            Mon = erlang:monitor(process, ToPid),
            case Reason of
                kill -> exit(ToPid, kill);
                _ -> ToPid ! {'$concord_signal', Kind, FromPid}
            end,
            case await(St, fun({signal_done, P, Res}) when P =:= ToPid -> {true, Res};
                              ({'DOWN', R, process, _, Why}) when R =:= Mon -> {true, {died, Why}};
                              (_) -> false
                           end) of
                {{died, Why}, St1} ->
                    Shown = ?SHOWN(Reason, Why),
                    own_exit(To, Why, journal({signal, St1#st.turn, Kind, From, ToName, Shown, exit}, St1));
                {{failed, Why}, St1} ->  % a waiting caller whose callee exited (SPEC §18.2)
                    erlang:demonitor(Mon, [flush]),
                    St2 = journal({signal, St1#st.turn, call, From, ToName, Why, exit}, St1),
                    own_exit(To, concord_worker:call_failure(Why), St2);
                {{Effect, Why}, St1} ->
                    erlang:demonitor(Mon, [flush]),
                    St2 = journal({signal, St1#st.turn, Kind, From, ToName, Why, Effect}, St1),
                    case Effect of
                        message -> send(From, ToName, tag_of(Kind), [From, Why], St2);
                        ignore -> St2
                    end
            end;
        _ ->
            St  % its receiver has exited since: discarded (SPEC §16.3)
    end.

tag_of(down) -> <<"down">>;
tag_of(_) -> <<"exit">>.

%% A name's pid for link, monitor and exit: {Pid, true} when alive, else a dead
%% pid (its last, or the tombstone) and false: OTP then says noproc itself.
named(Name, #st{ids = Ids, procs = Procs, tomb = Tomb}) ->
    case Ids of
        #{Name := Id} ->
            case maps:get(Id, Procs) of
                #proc{pid = undefined, last = Last} -> {Id, Last, false};
                #proc{pid = Pid} -> {Id, Pid, true}
            end;
        _ -> {none, Tomb, false}
    end.

sends(_From, [], St) -> St;
sends(From, [{To, Tag, Args} | Out], St) -> sends(From, Out, send(From, To, Tag, Args, St)).

%% SPEC §6.5: append to a live receiver's mailbox, or journal a drop.
send(From, To, Tag, Args, St = #st{ids = Ids, procs = Procs}) ->
    case Ids of
        #{To := Id} ->
            case maps:get(Id, Procs) of
                #proc{pid = Pid} when Pid =/= undefined ->
                    append(Id, {From, Tag, Args}, St);
                _ ->
                    drop(From, To, Tag, Args, St)
            end;
        _ ->
            drop(From, To, Tag, Args, St)
    end.

%% A message joins a live worker's mailbox; it is ready unless it waits in a call
%% (SPEC §18.3).
append(Id, Message, St = #st{procs = Procs}) ->
    P = #proc{mailbox = Q} = maps:get(Id, Procs),
    ?ROOM(Q),
    Ready = case queue:is_empty(Q) andalso not is_map_key(Id, St#st.waiting) of
                true -> concord_ready:add(St#st.ready, Id);
                false -> St#st.ready
            end,
    St#st{procs = Procs#{Id := P#proc{mailbox = ?ENQUEUE(Message, Q)}}, ready = Ready}.

drop(From, To, Tag, Args, St) -> journal({drop, St#st.turn, From, To, Tag, Args}, St).

journal(Event, St = #st{settling = true, pending = P}) -> St#st{pending = [Event | P]};
journal({slot, _}, St) -> St;  % a decision only a reaction makes
journal(Event, St) -> record(Event, St).

%% A final event: into the journal, and into failures or decisions (SPEC §9.1).
record(Event, St = #st{journal = J}) ->
    St1 = St#st{journal = append(J, concord_json:event(Event))},
    case Event of
        {exit, _, _, R} when ?FAILURE(R) ->  % every abnormal reason (SPEC §22)
            St1#st{failures = append(St1#st.failures, concord_json:failure(Event))};
        {decision, _, _, _, _} -> St1#st{decisions = append(St1#st.decisions, concord_json:decision(Event))};
        _ -> St1
    end.

append(<<>>, Item) -> Item;
append(List, Item) -> <<List/binary, $,, Item/binary>>.

%% --- the result (SPEC §9.1) ------------------------------------------------------------

result(Seed, Outcome, St = #st{mod = Mod, procs = Procs}) ->
    Ids = lists:seq(0, St#st.next_id - 1),
    Processes = [{Id, Name, Mod:kind_name(K)} || Id <- Ids, #proc{name = Name, kind = K} <- [maps:get(Id, Procs)]],
    Alive = [{Name, Mod:fields(K, S)}
             || Id <- ?ALIVE_ORDER(Ids, St), #proc{name = Name, pid = Pid, kind = Kind} <- [maps:get(Id, Procs)], Pid =/= undefined,
                {K, S} <- [case St#st.frozen of
                               #{Id := Frozen} -> {Kind, Frozen};  % waiting in a call (SPEC §18.3)
                               _ -> gen_server:call(Pid, concord_state, infinity)
                           end]],
    Sups = [supervisor_result(Idx, St) || Idx <- lists:seq(0, tuple_size(St#st.sups) - 1)],
    #{run => {Seed, St#st.limit, St#st.max}, outcome => Outcome, turns => St#st.turn, journal => St#st.journal,
      failures => St#st.failures, decisions => St#st.decisions, processes => Processes, alive => Alive,
      supervisors => Sups}.

%% Version 2: the held supervisors' children, from their own state (sys:get_state/1
%% answers a suspended process; the target reads it, concord_target:state_children/3),
%% asked by hand so that a supervisor's hook is answered meanwhile.
final_children(St = #st{v2 = false}) -> St;
final_children(St = #st{sups = Sups, target = Target, mod = Mod}) ->
    lists:foldl(fun(Idx, S) ->
                        case element(Idx + 1, Sups) of
                            #sup{alive = true, pid = Pid} ->
                                Ref = erlang:monitor(process, Pid),
                                Pid ! {system, {self(), Ref}, get_state},
                                {State, S1} = await(S, fun({R, Answer}) when R =:= Ref -> {true, Answer};
                                                                (_) -> false
                                                             end),
                                erlang:demonitor(Ref, [flush]),
                                Entries = in_start_order(Target:state_children(Mod, Idx, State), #{}, S1),
                                S1#st{final = (S1#st.final)#{Idx => Entries}};
                            _ -> S
                        end
                end, St, lists:seq(0, tuple_size(Sups) - 1)).

%% The result wants start order (SPEC §7.7): entries/4 has it.
supervisor_result(Idx, St = #st{final = Final}) when is_map_key(Idx, Final) ->
    {(element(Idx + 1, St#st.sups))#sup.name, true, [{Id, is_pid(Child)} || {Id, Child} <- maps:get(Idx, Final)]};
supervisor_result(Idx, St) ->
    case element(Idx + 1, St#st.sups) of
        #sup{name = Name, alive = false} -> {Name, false, []};
        #sup{name = Name, pid = Pid} ->
            Children = entries(Idx, supervisor:which_children(Pid), #{}, St),
            {Name, true, [{Id, is_pid(Child)} || {Id, Child} <- Children]}
    end.

%% CONCORD_ERLANG_STATS=1 (for bench/): memory at the end of the run, before the
%% result is built, as one JSON line on stderr. `processes` is all of the node's
%% process memory (every worker, supervisor and the conductor with its journal and
%% mailboxes), `workers` the live workers' own (process_info memory).
print_stats(#st{procs = Procs, live = Live}) ->
    Workers = lists:sum([M || #proc{pid = P} <- maps:values(Procs), P =/= undefined,
                              {memory, M} <- [erlang:process_info(P, memory)]]),
    io:format(standard_error, "{\"stats\":true,\"processes\":~b,\"workers\":~b,\"live\":~b}~n",
              [erlang:memory(processes), Workers, Live]).

%% Nothing of a run outlives it. Supervisors go first, so that none restarts a
%% worker killed after it.
cleanup(Starter, #st{sups = Sups, procs = Procs, helpers = Helpers}) ->
    [exit(H, kill) || H <- Helpers],
    [exit(P, kill) || #sup{alive = true, pid = P} <- tuple_to_list(Sups)],
    [exit(P, kill) || #proc{pid = P} <- maps:values(Procs), P =/= undefined],
    exit(Starter, kill),
    ok.
