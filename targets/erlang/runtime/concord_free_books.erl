%% concord_free_books: the books of a free run (SPEC §25), kept by the run's
%% processes themselves in the run's tables (concord_free.hrl), never through a
%% central process: an incarnation enters itself when it starts, appends its own
%% events as they happen, and names are looked up in the registry it wrote. Every
%% write that the end of the run depends on also moves the activity counter, so
%% that the run's process can tell a snapshot in which nothing happened
%% (concord_free_end).
-module(concord_free_books).
-export([new/4, delete/1, enter/6, ctx/0, me/0, record/1, rewrite/2, effect/0, bump/1, exit_reason/3]).
-export([lookup/2, dead_pid/2, whois/2, child_name/2, child_id/2, busy/2, unbusy/0, live_workers/1, internal/2]).

-include("concord_free.hrl").

%% The tables and counters of one run; the watcher is set once it runs.
new(Mod, Turns, Max, V2) ->
    Kinds = kinds(Mod, 0),
    #cf{mod = Mod,
        trace = ets:new(concord_free_trace, [ordered_set, public, {write_concurrency, true}]),
        meta = ets:new(concord_free_meta, [set, public, {read_concurrency, true}, {write_concurrency, true}]),
        pids = ets:new(concord_free_pids, [set, public, {read_concurrency, true}, {write_concurrency, true}]),
        live = ets:new(concord_free_live, [set, public, {write_concurrency, true}]),
        busy = ets:new(concord_free_busy, [set, public, {write_concurrency, true}]),
        xsig = ets:new(concord_free_xsig, [ordered_set, public, {write_concurrency, true}]),
        tomb = tombstone(),
        kids = ets:new(concord_free_kids, [ordered_set, public, {write_concurrency, true}]),
        loose = ets:new(concord_free_loose, [set, public, {write_concurrency, true}]),
        counters = atomics:new(?C_COUNT, [{signed, true}]),
        spawned = atomics:new(max(1, Kinds), [{signed, false}]),
        turns = Turns, max = Max, v2 = V2}.

%% The emitted module numbers its kinds from 0 and has no count of them.
kinds(Mod, K) ->
    try Mod:kind_name(K) of
        _ -> kinds(Mod, K + 1)
    catch
        error:badarg -> K
    end.

delete(#cf{trace = T, meta = M, pids = P, live = Live, busy = B, xsig = X, kids = K, loose = L}) ->
    [ets:delete(Tab) || Tab <- [T, M, P, Live, B, X, K, L]],
    ok.

%% The calling process starts incarnation Inc of Name (SPEC §25.2): its number, its
%% books, its link to the watcher (which records its exit), and for a worker its
%% registry entry, which replaces its previous incarnation's. Returns Inc. The link
%% comes first: an incarnation in the books always has its exit recorded. A child
%% (Supervised) enters itself among its supervisor's children (By), before that
%% supervisor can see its exit.
enter(Ctx = #cf{meta = M, pids = Pids, live = Live, kids = Kids, counters = A, watcher = W}, Type, Name, Kind, By,
      Supervised) ->
    true = link(W),
    ets:insert(Live, {self()}),
    Supervised andalso ets:insert(Kids, {{By, self()}}),
    Inc = ets:update_counter(M, {incs, Name}, 1, {{incs, Name}, 0}),
    ets:insert(M, {{inc, Name, Inc}, Type, Kind, By, self()}),
    ets:insert(Pids, {self(), Name, Inc, Type}),
    %% The run's start order, for a supervisor with no child order of its own (the
    %% elixir target's DynamicSupervisor keeps a map: concord_free_run:children/2).
    ets:insert(M, {{started, self()}, ets:update_counter(M, started, 1, {started, 0})}),
    put('$cf', Ctx),
    put('$cf_me', {Name, Inc}),
    put('$cf_seq', 0),
    put('$cf_n', 0),
    Type =:= worker andalso begin
                               ets:insert(M, [{{rx, Name, Inc}, 0, 0}, {{reg, Name}, self(), Inc}]),
                               atomics:add(A, ?C_LIVE, 1)
                           end,
    bump(Ctx),
    Inc.

ctx() -> get('$cf').

me() -> get('$cf_me').

%% Appends Event to the calling incarnation's events; returns its place.
record(Event) ->
    Ctx = #cf{trace = T} = get('$cf'),
    {Name, Inc} = get('$cf_me'),
    Seq = get('$cf_seq') + 1,
    put('$cf_seq', Seq),
    ets:insert(T, {{Name, Inc, Seq}, Event}),
    bump(Ctx),
    Seq.

%% Corrects one of the calling incarnation's own effects, at place Seq, when OTP's
%% answer came later than the record: a link, monitor or call to an incarnation that
%% was alive when looked up and had exited when the BIF reached it, which OTP then
%% answers noproc (concord_free_links, concord_free_calls).
rewrite(Seq, Event) ->
    Ctx = #cf{trace = T} = get('$cf'),
    {Name, Inc} = get('$cf_me'),
    ets:insert(T, {{Name, Inc, Seq}, Event}),
    bump(Ctx).

%% The exit reason of incarnation Name#Inc, which has exited (an OTP answer said
%% so): the watcher records it from the same exit, so it waits, yielding, for that.
exit_reason(Ctx = #cf{meta = M}, Name, Inc) ->
    case ets:lookup(M, {exit, Name, Inc}) of
        [{_, Reason}] -> Reason;
        [] -> erlang:yield(), exit_reason(Ctx, Name, Inc)
    end.

%% The calling incarnation's next effect number (SPEC §25.2: over its init and all
%% its turns).
effect() ->
    N = get('$cf_n') + 1,
    put('$cf_n', N),
    N.

bump(#cf{counters = A}) -> atomics:add(A, ?C_ACTIVITY, 1).

%% The live incarnation of worker Name: {Pid, Inc}, or none (SPEC §6.5: never
%% started, or its latest incarnation is not alive).
lookup(#cf{meta = M}, Name) ->
    case ets:lookup(M, {reg, Name}) of
        [{_, Pid, Inc}] ->
            case is_process_alive(Pid) of
                true -> {Pid, Inc};
                false -> none
            end;
        [] -> none
    end.

%% A dead pid for a name with no live incarnation: its last incarnation's, or the
%% run's tombstone for a name that never lived.
dead_pid(#cf{meta = M, tomb = Tomb}, Name) ->
    case ets:lookup(M, {reg, Name}) of
        [{_, Pid, _}] -> Pid;
        [] -> Tomb
    end.

%% A pid that is dead: spawned, and waited for.
tombstone() ->
    {Pid, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, Pid, _} -> Pid end.

%% The incarnation a pid is: {Name, Inc, Type}, or none.
whois(#cf{pids = Pids}, Pid) ->
    case ets:lookup(Pids, Pid) of
        [{_, Name, Inc, Type}] -> {Name, Inc, Type};
        [] -> none
    end.

%% A child's name from its id in an OTP supervisor's child list: its name, or for
%% a child spawned under the supervisor {concord_spawn, Ref} (concord_free_worker).
child_name(_Ctx, Id) when is_binary(Id) -> Id;
child_name(#cf{meta = M}, {concord_spawn, Ref}) -> ets:lookup_element(M, {spawn_id, Ref}, 2).

%% A child's id in its supervisor, from its name (the supervisor API, SPEC §20):
%% {concord_spawn, Ref} for a child spawned under it, else the name itself.
child_id(#cf{meta = M}, Name) ->
    case ets:lookup(M, {child_id, Name}) of
        [{_, Id}] -> Id;
        [] -> Name
    end.

%% The calling incarnation is in the middle of What until unbusy/0 (or its exit,
%% which the watcher clears): the run cannot end meanwhile.
busy(#cf{busy = B}, What) -> ets:insert(B, {get('$cf_me'), What, false}).

unbusy() ->
    Ctx = #cf{busy = B} = get('$cf'),
    ets:delete(B, get('$cf_me')),
    bump(Ctx).

%% Live workers, counted exactly: registry entries whose process is alive.
live_workers(#cf{meta = M}) ->
    length([P || P <- ets:select(M, [{{{reg, '_'}, '$1', '_'}, [], ['$1']}]), is_process_alive(P)]).

%% Something this runtime cannot explain (a crash of its own, an exit no rule
%% gives): the run answers INTERNAL with Text instead of a trace.
internal(#cf{meta = M}, Text) ->
    ets:insert(M, {{internal, erlang:unique_integer([monotonic])}, iolist_to_binary(Text)}).
