%% monitors: experiments that pin down monitors and 'DOWN' messages on a real
%% OTP node (SPEC §16, §17; rules R24-R27), and the order of the messages one
%% exit leaves in one mailbox. Run with spec/experiments/run.sh monitors.
%%
%% Same conventions as links.erl: exp_actor actors, events from exp_collector;
%% a monitor is made with a tag, and a 'DOWN' is reported as
%% {got, Watcher, {'DOWN', Tag, Target, Reason}}.
-module(monitors).
-export([main/0]).

-define(BOOM, {fail, 'BOOM'}).
-define(ORDER_TRIALS, 200).  % trials per order check of R25

main() ->
    exp_lib:main(?MODULE, [fun r24/0, fun r25/0, fun r26/0, fun r27/0]).

%%====================================================================
%% R24 a monitor gives one 'DOWN' with the exit reason, and never kills
%%====================================================================
r24() ->
    lists:foreach(
      fun({Why, Stop}) ->
              actor(a, []), actor(x, []),
              ok = exp_actor:do(x, {monitor, a, m}),
              _ = take(),
              Stop(),
              check("R24/" ++ Why,
                    "x (not trapping) monitors a; a exits (" ++ Why ++ "): x gets one"
                    " {'DOWN', m, a, Reason} and lives on",
                    {[{down, a, reason(Why)}, {got, x, {'DOWN', m, a, reason(Why)}}], alive},
                    {take(), exp_lib:sync(exp_lib:pid(x))}),
              exp_lib:kill_all()
      end,
      [{"normal", fun() -> exp_actor:cast(a, {stop, normal}) end},
       {"shutdown", fun() -> exp_actor:cast(a, {stop, shutdown}) end},
       {"abnormal", fun() -> exp_actor:cast(a, {stop, ?BOOM}) end},
       {"killed", fun() -> exit(exp_lib:pid(a), kill) end}]),
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, {monitor, a, m}),
    _ = take(),
    exp_actor:cast(x, {stop, ?BOOM}),
    check("R24/one_way",
          "a monitor is one way: when the watcher x dies, a hears nothing",
          {[{down, x, ?BOOM}], alive}, {take(), exp_lib:sync(exp_lib:pid(a))}).

reason("normal") -> normal;
reason("shutdown") -> shutdown;
reason("abnormal") -> ?BOOM;
reason("killed") -> killed.

%%====================================================================
%% R25 several monitors; a dead target; itself
%%====================================================================
r25() ->
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, [{monitor, a, m1}, {monitor, a, m2}]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R25/twice",
          "x monitors a twice: a's exit gives two 'DOWN's, one per monitor, in the order"
          " the monitors were made",
          [{down, a, ?BOOM}, {got, x, {'DOWN', m1, a, ?BOOM}}, {got, x, {'DOWN', m2, a, ?BOOM}}],
          take()),
    exp_lib:kill_all(),
    dead(z),
    actor(x, []),
    _ = take(),
    exp_actor:cast(x, [{monitor, z, m}, {send, exp_collector, after_monitor}]),
    check("R25/dead",
          "monitoring a dead process is no error: x goes on and gets {'DOWN', m, z, noproc}",
          {[after_monitor, {got, x, {'DOWN', m, z, noproc}}], alive},
          {take(), exp_lib:sync(exp_lib:pid(x))}),
    exp_lib:kill_all(),
    actor(x, []),
    _ = take(),
    exp_actor:cast(x, [{monitor, {registered, concord_no_such_name}, m},
                       {send, exp_collector, after_monitor}]),
    check("R25/unknown",
          "monitoring a name nobody has: the same, {'DOWN', m, {Name, Node}, noproc}",
          {[after_monitor, {got, x, {'DOWN', m, {concord_no_such_name, node()}, noproc}}], alive},
          {take(), exp_lib:sync(exp_lib:pid(x))}),
    exp_lib:kill_all(),
    r25_order(),
    actor(x, []),
    _ = take(),
    ok = exp_actor:do(x, {monitor, x, m}),
    check("R25/self", "monitoring itself is allowed and does nothing",
          {[], alive}, {take(), exp_lib:sync(exp_lib:pid(x))}),
    exp_lib:kill_all(),
    actor(a, []), actor(x, [trap]),
    ok = exp_actor:do(x, {monitor, a, m}),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R25/trapping",
          "trapping exits changes nothing for monitors",
          [{down, a, ?BOOM}, {got, x, {'DOWN', m, a, ?BOOM}}], take()).

%% The order of the noproc 'DOWN' and a message the monitoring process sends itself
%% right after monitor/2 (SPEC §16.2, §17.4). ERTS differs by the target's form
%% (bif.c, monitor_2/2): a dead pid gets a monitor-down *signal* to the caller
%% (erts_proc_sig_send_monitor_down), which becomes a message only once the
%% caller's receive finds no message left to take: after a message it sent itself
%% meanwhile (that one is put in its message queue directly); a name nobody has
%% gets the 'DOWN' put in the message queue by the BIF itself, at once. (free.erl
%% F8 shows the 'DOWN' of a dead pid coming after a later callback's message too.) The checks expect every trial to
%% give the same order. A process scheduled out between the two calls might have
%% its signals handled in between; each trial starts on a fresh reduction budget
%% (a new process, or a gen_server woken by the cast), which makes that unlikely.
r25_order() ->
    N = ?ORDER_TRIALS,
    Detail = exp_lib:trials(N),
    Pid = exp_lib:counted(N, fun() -> plain_order(exp_lib:dead_pid()) end),
    check("R25/dead_pid_order",
          "a plain process monitors a dead pid, then sends itself x: its mailbox holds x first,"
          " then the 'DOWN' noproc (the 'DOWN' is a signal, not there at once)",
          #{[x, 'DOWN'] => N}, Pid, Detail),
    Name = exp_lib:counted(N, fun() -> plain_order(concord_no_such_name) end),
    check("R25/registered_name_order",
          "a plain process monitors a name nobody has, then sends itself x: the 'DOWN' noproc"
          " is in its mailbox at once, before x",
          #{['DOWN', x] => N}, Name, Detail),
    dead(z),
    actor(x, []),
    _ = take(),
    GenPid = exp_lib:counted(N, fun() -> actor_order({monitor, z, m}) end),
    check("R25/dead_pid_order_gen_server",
          "the same in a gen_server (one cast: monitor the dead z, then x ! x): handle_info"
          " gets x first, then the 'DOWN' noproc; nothing else arrives",
          {#{[x, 'DOWN'] => N}, []}, {GenPid, take()}, Detail),
    GenName = exp_lib:counted(N, fun() -> actor_order({monitor, {registered, concord_no_such_name}, m}) end),
    check("R25/registered_name_order_gen_server",
          "the same in a gen_server, monitoring a name nobody has: the 'DOWN' noproc first, then x;"
          " nothing else arrives",
          {#{['DOWN', x] => N}, []}, {GenName, take()}, Detail),
    exp_lib:kill_all().

%% A new plain process monitors Target, sends itself x, then takes its two messages
%% in the order its mailbox holds them.
plain_order(Target) ->
    Self = self(),
    {P, Ref} = spawn_monitor(fun() ->
                                     M = erlang:monitor(process, Target),
                                     self() ! x,
                                     First = mine(M),
                                     Self ! {order, self(), [First, mine(M)]}
                             end),
    receive {order, P, Order} -> ok end,
    receive {'DOWN', Ref, process, P, _} -> Order end.

mine(M) ->
    receive
        {'DOWN', M, process, _, noproc} -> 'DOWN';
        x -> x
    after 5000 -> timeout
    end.

%% Actor x, idle, is cast [Monitor, x ! x]: the order in which it handles the two.
actor_order(Monitor) ->
    exp_actor:cast(x, [Monitor, {send, x, x}]),
    [case Got of
         {got, x, {'DOWN', m, _, noproc}} -> 'DOWN';
         {got, x, x} -> x;
         Other -> Other
     end || Got <- exp_lib:take(2)].

%%====================================================================
%% R26 demonitor
%%====================================================================
r26() ->
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, [{monitor, a, m}, {demonitor, m}]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R26/before", "after demonitor, a's exit gives no 'DOWN'", [{down, a, ?BOOM}], take()),
    exp_lib:kill_all(),
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, [{monitor, a, m1}, {monitor, a, m2}, {demonitor, m1}]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R26/one_of_two", "demonitor removes one monitor: the other still fires",
          [{down, a, ?BOOM}, {got, x, {'DOWN', m2, a, ?BOOM}}], take()),
    exp_lib:kill_all(),
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, {monitor, a, m}),
    _ = take(),
    %% x is busy when a exits, and demonitors only after the 'DOWN' is queued
    exp_actor:cast(x, [{sleep, 50}, {demonitor, m}, {send, exp_collector, demonitored}]),
    exp_actor:cast(a, {stop, ?BOOM}),
    timer:sleep(80),
    check("R26/after_queued",
          "demonitor/1 after the 'DOWN' was queued does not remove it: x still receives it",
          [{down, a, ?BOOM}, demonitored, {got, x, {'DOWN', m, a, ?BOOM}}], take()).

%%====================================================================
%% R27 the messages one exit leaves in one mailbox
%%====================================================================
r27() ->
    lists:foreach(
      fun({Name, Setup}) ->
              actor(a, []), actor(x, [trap]),
              ok = exp_actor:do(x, Setup),
              _ = take(),
              exp_actor:cast(a, {stop, ?BOOM}),
              check("R27/" ++ Name,
                    "x traps exits, is linked to a and monitors it (" ++ Name ++ "): a's exit"
                    " leaves the 'EXIT' first, then one 'DOWN' per monitor in the order the"
                    " monitors were made, whatever the order of link and monitor",
                    [{down, a, ?BOOM}, {got, x, {'EXIT', a, ?BOOM}},
                     {got, x, {'DOWN', m1, a, ?BOOM}}, {got, x, {'DOWN', m2, a, ?BOOM}}],
                    take()),
              exp_lib:kill_all()
      end,
      [{"link_first", [{link, a}, {monitor, a, m1}, {monitor, a, m2}]},
       {"monitors_first", [{monitor, a, m1}, {monitor, a, m2}, {link, a}]},
       {"link_between", [{monitor, a, m1}, {link, a}, {monitor, a, m2}]}]),
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, [{monitor, a, m}, {link, a}]),
    _ = take(),
    exp_actor:cast(a, {stop, normal}),
    check("R27/normal_not_trapping",
          "x not trapping, linked to a and monitoring it: a exits normal, the link signal"
          " is ignored and the 'DOWN' arrives",
          {[{down, a, normal}, {got, x, {'DOWN', m, a, normal}}], alive},
          {take(), exp_lib:sync(exp_lib:pid(x))}),
    exp_lib:kill_all(),
    actor(a, []), actor(x, []),
    ok = exp_actor:do(x, [{monitor, a, m}, {link, a}]),
    _ = take(),
    exp_actor:cast(a, {stop, ?BOOM}),
    check("R27/abnormal_not_trapping",
          "x not trapping, linked to a and monitoring it: a's abnormal exit kills x by the"
          " link before the 'DOWN' can be handled",
          [{down, a, ?BOOM}, {down, x, ?BOOM}], take()).

%%====================================================================
%% helpers
%%====================================================================
actor(Id, Opts) ->
    exp_lib:opts(Id, Opts),
    {ok, P} = exp_actor:start(Id),
    P.

dead(Id) ->
    actor(Id, []),
    exp_actor:cast(Id, {stop, normal}),
    _ = exp_lib:wait_down(exp_lib:pid(Id)),
    ok.

take() -> exp_lib:take().
check(Id, What, Expected, Got) -> exp_lib:check(Id, What, Expected, Got).
check(Id, What, Expected, Got, Detail) -> exp_lib:check(Id, What, Expected, Got, Detail).
