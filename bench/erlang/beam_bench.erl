%% bench/erlang/beam_bench.erl: the stands of bench/run_c.sh done with plain BEAM
%% processes, so the c target is compared with Erlang/OTP in the same run. Each
%% function prints one JSON object per line on stdout:
%%   {"stand":..., "n":..., "value":..., "unit":...}
%% Run: erl -noshell +P 2000000 -pa DIR -run beam_bench main STAND ARGS... -s init stop
-module(beam_bench).
-export([main/1]).

main([Stand | Args]) ->
    Ns = [list_to_integer(A) || A <- Args],
    run(list_to_atom(Stand), Ns),
    erlang:halt(0).

emit(Stand, N, Value, Unit) ->
    io:format("{\"stand\":\"~s\",\"n\":~b,\"value\":~.3f,\"unit\":\"~s\"}~n", [Stand, N, float(Value), Unit]).

%% ping: two processes bounce one message; the slope between two message counts
%% cancels start-up. ping_last: the same after Idle idle processes exist.
run(ping, [N1, N2]) ->
    emit("ping", 2, slope(fun(N) -> pingpong(N) end, N1, N2), "ns/delivery");
run(ping_last, [Idle, N1, N2]) ->
    Idlers = [spawn(fun idle/0) || _ <- lists:seq(1, Idle)],
    emit("ping-last", Idle + 2, slope(fun(N) -> pingpong(N) end, N1, N2), "ns/delivery"),
    [exit(P, kill) || P <- Idlers];
%% quiet: bytes per idle process (erlang:memory(processes) before and after).
run(quiet, [N]) ->
    garbage_collect(),
    Before = erlang:memory(processes),
    Ps = [spawn(fun idle/0) || _ <- lists:seq(1, N)],
    After = erlang:memory(processes),
    emit("quiet", N, (After - Before) / N, "bytes/process"),
    [exit(P, kill) || P <- Ps];
%% swarm: cost per spawn of a process that receives one message and waits on.
run(swarm, [N]) ->
    garbage_collect(),
    Before = erlang:memory(processes),
    T0 = erlang:monotonic_time(nanosecond),
    Ps = [begin P = spawn(fun ran/0), P ! go, P end || _ <- lists:seq(1, N)],
    [begin P ! {sync, self()}, receive {synced, P} -> ok end end || P <- Ps],
    T1 = erlang:monotonic_time(nanosecond),
    After = erlang:memory(processes),
    emit("swarm", N, (T1 - T0) / N, "ns/spawn"),
    emit("swarm-memory", N, (After - Before) / N, "bytes/process"),
    [exit(P, kill) || P <- Ps];
%% heavy: see heavy/2 below.
run(heavy, [W, M1, M2]) ->
    emit("heavy", W, slope(fun(M) -> heavy(W, M) end, M1 * W, M2 * W), "ns/message");
%% swarm_waiting: N processes, each always has a message to itself; cost per
%% switch (one message handled) as N grows.
run(swarm_waiting, [N, Msgs]) ->
    Self = self(),
    Per = max(1, Msgs div N),
    Ps = [spawn(fun() -> receive start -> spin(Per), Self ! done end end) || _ <- lists:seq(1, N)],
    T0 = erlang:monotonic_time(nanosecond),
    [P ! start || P <- Ps],
    [receive done -> ok end || _ <- Ps],
    T1 = erlang:monotonic_time(nanosecond),
    emit("swarm-waiting", N, (T1 - T0) / (N * Per), "ns/switch").

%% heavy: W processes, each handling M work messages it sends itself, each message
%% ~6,000 multiply-adds (kept below 2^28: small integers, as the c target's int64s
%% are machine words); ns per work message, the slope between two M.
heavy(W, Total) ->
    Self = self(),
    Per = Total div W,
    Ps = [spawn(fun() -> receive go -> work(Per, 1), Self ! done end end) || _ <- lists:seq(1, W)],
    [P ! go || P <- Ps],
    [receive done -> ok end || _ <- Ps],
    ok.

work(0, _X) -> ok;
work(N, X) ->
    self() ! work,
    receive work -> work(N - 1, mul_add(6000, X)) end.

mul_add(0, X) -> X;
mul_add(K, X) -> mul_add(K - 1, (X * 31 + 7) band 16#FFFFFFF).

idle() -> receive stop -> ok end.

ran() -> receive go -> ok end, receive {sync, From} -> From ! {synced, self()} end, idle().

spin(0) -> ok;
spin(K) -> self() ! tick, receive tick -> spin(K - 1) end.

slope(F, N1, N2) ->
    T1 = best(F, N1), T2 = best(F, N2),
    (T2 - T1) / (N2 - N1).

best(F, N) -> lists:min([timed(F, N) || _ <- [1, 2, 3]]).

timed(F, N) ->
    T0 = erlang:monotonic_time(nanosecond),
    F(N),
    erlang:monotonic_time(nanosecond) - T0.

%% N deliveries between two processes.
pingpong(N) ->
    Self = self(),
    B = spawn(fun() -> bouncer() end),
    A = spawn(fun() -> receive {go, Peer} -> pinger(Peer, N), Self ! done end end),
    A ! {go, B},
    receive done -> ok end,
    exit(B, kill).

pinger(_Peer, K) when K =< 0 -> ok;
pinger(Peer, K) -> Peer ! {ping, self()}, receive pong -> pinger(Peer, K - 2) end.

bouncer() -> receive {ping, From} -> From ! pong, bouncer() end.
