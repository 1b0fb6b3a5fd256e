%% concord_free.hrl: what the modules of a free run (SPEC §25) share. A free run has
%% no conductor: each worker and supervisor incarnation writes its own events and
%% its own books into the run's ETS tables as it goes, and the run's process only
%% reads them, to tell when the run has ended (concord_free_end) and to write the
%% trace (concord_free_trace). The context #cf{} is what every process of the run
%% is given at its start (in its start arguments, as the conductor's pid is in a
%% conducted run) and keeps in its process dictionary ('$cf').

-record(cf, {
    mod,       % the emitted module (concord_prog)
    trace,     % ordered_set {{Name, Inc, Seq}, Event}: every incarnation's events, each written by
               % the incarnation itself (Seq counts from 1; `final` for what the watcher adds after its exit)
    meta,      % set: the books, rows below
    pids,      % set {Pid, Name, Inc, worker | supervisor}: every incarnation started, by pid
    live,      % set {Pid}: the incarnations alive, as far as the books know (in at the start, out when the
               % watcher records the exit): the processes the run's end looks at
    busy,      % set {{Name, Inc}, What, GaveUp}: an incarnation in the middle of something whose end
               % another process waits for (a spawn, a supervisor's input): the run cannot have ended
    xsig,      % ordered_set {{Receiver, Sender, N}, Reason}: exit/2 signals sent (concord_free_links)
    tomb,      % a dead pid: what a statement on a name that never lived acts on, so that OTP answers noproc
    kids,      % ordered_set {{{SupName, SupInc}, Pid}}: a supervisor incarnation's children, as far as
               % the books know: each child enters itself at its start, the supervisor's hook takes out the
               % one whose exit it handles and, after each input, those no longer in its child list
    loose,     % set {{Name, Inc}, Pid, {SupName, SupInc}}: a supervised exit the watcher recorded and its
               % supervisor is not yet known to have handled or consumed (concord_free_end)
    counters,  % atomics, the ?C_ slots below
    spawned,   % atomics, one per kind: the spawned names taken (SPEC §2)
    watcher,   % the run's watcher (concord_free_watcher): linked to every incarnation
    turns,     % the turn limit L
    max,       % the process limit P
    v2         % the program is version 2
}).

%% The counters (atomics, one array per run).
-define(C_TURNS, 1).     % turn tickets taken: a ticket above L is no turn (SPEC §25.4 G10)
-define(C_LIVE, 2).      % live workers, up at their start, down when the watcher records their exit
-define(C_ACTIVITY, 3).  % every event recorded, start and exit: the end is a snapshot with no change
-define(C_COUNT, 3).

%% Rows of the `meta` table:
%%   {{reg, Name}, Pid, Inc}                  the registry: a worker name's latest incarnation
%%   {{incs, Name}, N}                        incarnations of Name so far
%%   {{inc, Name, Inc}, Type, Kind, By, Pid}  Kind: kind index, or the supervisor's index;
%%                                            By: null | {Name, Inc} (SPEC §25.6 `by`)
%%   {{exit, Name, Inc}, Reason}              written by the watcher
%%   {{start_ended, Name, Inc}, Reason}       a start that failed or was ignored (version 2), by itself
%%   {{sup, Idx}, Pid, Inc}                   supervisor Idx's latest incarnation
%%   {{rx, Name, Inc}, Sent, Delivered}       messages sent to a worker incarnation (counted by each
%%                                            sender after its send), and its deliveries
%%   {{spawn_id, Ref}, Name}                  the name a child started by `spawn ... under` took: its child
%%                                            spec's id is {concord_spawn, Ref} (concord_free_worker)
%%   {{child_id, Name}, Id}                   a spawned child's id in its supervisor (the API's argument)
%%   {{calling, Name, Inc}, State}            a worker waiting in a call, with its state so far (SPEC §18)
%%   {{api, Pid}, Name, Inc, N}               a worker's API request in flight (its supervisor's hook reads it)
%%   {{internal, N}, Text}                    something this runtime cannot explain: the run is INTERNAL
