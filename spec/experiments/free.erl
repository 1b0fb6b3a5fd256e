%% free: the freedoms of a free run (SPEC §25.7, rules F1-F8) on a real OTP node
%% with two schedulers or more. Run with spec/experiments/run.sh free, which
%% starts this module's node with erl +S N:N, N = max(2, cores).
%%
%% Each check repeats one small program, a *trial*, whose outcome is one of the
%% orders the freedom allows, until every allowed order has been seen and at
%% least ?MIN_TRIALS trials have run, or until ?MAX_TRIALS trials or ?MAX_MS ms
%% have run: then it fails. Every trial also checks the guarantees of
%% §25.3-§25.5 that the program could break (one turn at a time G1, pair order
%% G4, names G6, exactly once G7, the supervisors' decisions G3/G9, link
%% signals G11): one trial that breaks one fails the check at once.
%%
%% Nothing sleeps. The processes that race are released at the same moment by
%% a barrier (barrier/1, pass/2): each spins at it, so that it is running when
%% the barrier opens, and the barrier opens once they run on different
%% schedulers at the same time (the node's load balancer spreads busy
%% processes within a millisecond or so; nothing here picks a scheduler; F7
%% does not wait for that).
%% Released that way, the processes really run in parallel, and each order
%% comes up often. A trial waits for events (reports, 'DOWN's), never for the
%% clock. The PASS line says how many trials ran, after how many every order
%% had been seen, and how often each was seen.
%%
%% The workers are free_srv gen_servers; the supervisors use this module's
%% init/1. Processes report to the trial's runner as {Ref, ...} with a fresh
%% reference per trial, so that nothing of one trial is taken for the next.
-module(free).
-behaviour(supervisor).

-export([main/0]).
-export([start_sup/4, init/1]).

-define(BOOM, {fail, 'BOOM'}).
-define(MIN_TRIALS, 20).
-define(MAX_TRIALS, 5000).
-define(MAX_MS, 20000).
-define(WAIT, 5000).       % how long a trial waits for any one event before it gives up
-define(SPREAD_MS, 2000).  % how long a barrier waits for its processes to spread

main() ->
    exp_lib:main(?MODULE, [fun f1/0, fun f2/0, fun f3/0, fun f4/0, fun f5/0, fun f6/0,
                           fun f7/0, fun f8/0]).

%%====================================================================
%% F1 several senders, one mailbox
%%====================================================================
%% Two senders, released together, each cast K numbered messages to one
%% gen_server, which keeps them in the order it handles them. Each sender
%% ends with a call to it: after that call every cast of the sender was
%% handled (pair order). Outcome: the interleaving (the senders' tags in
%% handling order, as runs: "a3b1a17b19").
f1() ->
    K = 20,
    Trial =
        fun() ->
                Keep = fun({n, T, I}, L) -> {noreply, [{T, I} | L]} end,
                {ok, R} = free_srv:start(r, #{state => [], handle => Keep}),
                try
                    B = barrier(2),
                    Senders = [spawn_monitor(fun() -> f1_sender(R, B, N, T, K) end)
                               || {N, T} <- [{1, a}, {2, b}]],
                    [normal = await_down(P, M) || {P, M} <- Senders],
                    L = lists:reverse(gen_server:call(R, state)),
                    Seqs = [[I || {T, I} <- L, T =:= Tag] || Tag <- [a, b]],
                    case Seqs =:= [lists:seq(1, K), lists:seq(1, K)] of
                        true -> {ok, [runs([T || {T, _} <- L])]};
                        false -> {violation, {'G4: a sender\'s messages handled out of order', L}}
                    end
                after
                    stop(R, kill)
                end
        end,
    R = trials(Trial, fun(C) -> map_size(C) >= 2 end),
    report("F1/interleave",
           "two senders released together each cast 20 numbered messages to one gen_server:"
           " in every trial each sender's messages are handled in the order sent (G4), and"
           " the interleavings differ from trial to trial (at least two seen)",
           R,
           fun(C) ->
                   First = fun(Tag) ->
                                   lists:sum([N || {[T | _], N} <- maps:to_list(C), T =:= Tag])
                           end,
                   io_lib:format("~b different interleavings; a's first message handled first in ~b"
                                 " trials, b's in ~b; the most frequent: ~s",
                                 [map_size(C), First($a), First($b), top(C, 3)])
           end).

f1_sender(R, B, N, T, K) ->
    pass(B, N),
    [gen_server:cast(R, {n, T, I}) || I <- lists:seq(1, K)],
    ok = gen_server:call(R, sync).

%% "aaab" -> "a3b1"
runs([]) -> "";
runs([T | L]) ->
    {Same, Rest} = lists:splitwith(fun(X) -> X =:= T end, L),
    atom_to_list(T) ++ integer_to_list(1 + length(Same)) ++ runs(Rest).

%%====================================================================
%% F2 a termination in the middle of a handler
%%====================================================================
%% A one_for_all supervisor of loop and sib (neither traps exits). loop's
%% handler sends 1, 2, ..., M to a collector; sib is told to fail meanwhile
%% (the two casts go out one after the other), and the supervisor terminates
%% loop wherever its handler is. The collector monitors loop: its 'DOWN' comes
%% after every number loop sent (pair order). Outcome: the cut point k (loop
%% sent exactly 1..k).
f2() ->
    M = 1000000,
    Self = self(),
    Trial =
        fun() ->
                Ref = make_ref(),
                Rep = {Self, Ref},
                Loop = fun({loop, Coll, Max}, S) -> send_numbers(Coll, 1, Max), {noreply, S} end,
                Fail = fun(fail, S) -> {stop, ?BOOM, S} end,
                Sup = sup(s, Rep, one_for_all, 10,
                          [free_srv:spec(loop, #{report => Rep, handle => Loop}),
                           free_srv:spec(sib, #{report => Rep, handle => Fail})]),
                try
                    {LoopPid, Sup} = started(Ref, loop),
                    {Sib, Sup} = started(Ref, sib),
                    Coll = spawn(fun() -> f2_collector(LoopPid, Self, Ref) end),
                    receive {Ref, ready} -> ok end,
                    gen_server:cast(LoopPid, {loop, Coll, M}),
                    gen_server:cast(Sib, fail),
                    receive
                        {Ref, cut, Kc, shutdown} -> {ok, [Kc]};
                        {Ref, cut, Kc, Reason} ->
                            {violation, {'G3: loop was not terminated by its supervisor',
                                         Kc, Reason}};
                        {Ref, out_of_order, Expected, Got} ->
                            {violation, {'G1/G4: the collector got a number out of order',
                                         {expected, Expected, got, Got}}}
                    after ?WAIT -> {violation, {timeout, 'loop never ended'}}
                    end
                after
                    stop(Sup, shutdown)
                end
        end,
    Inside = fun(C) -> [Kc || Kc <- maps:keys(C), Kc > 0, Kc < M] end,
    R = trials(Trial, fun(C) -> length(Inside(C)) >= 2 end),
    report("F2/cut",
           "a gen_server (not trapping) sending 1..1000000 to a collector in one handler is"
           " terminated by its one_for_all supervisor when a sibling fails: in every trial the"
           " collector got exactly 1..k in order and the handler's exit is shutdown, and the"
           " cut point k differs from trial to trial (at least two k with 0 < k < 1000000)",
           R,
           fun(C) ->
                   Ks = lists:sort(lists:append([lists:duplicate(N, Kc)
                                                 || {Kc, N} <- maps:to_list(C)])),
                   io_lib:format("~b different cut points, ~b strictly inside; k min ~b, median ~b,"
                                 " max ~b", [map_size(C), length(Inside(C)), hd(Ks),
                                             lists:nth((length(Ks) + 1) div 2, Ks), lists:last(Ks)])
           end).

send_numbers(_, I, Max) when I > Max -> ok;
send_numbers(To, I, Max) -> To ! {n, I}, send_numbers(To, I + 1, Max).

f2_collector(Loop, To, Ref) ->
    MRef = erlang:monitor(process, Loop),
    To ! {Ref, ready},
    f2_collect(MRef, To, Ref, 1).

f2_collect(MRef, To, Ref, Next) ->
    receive
        {n, Next} -> f2_collect(MRef, To, Ref, Next + 1);
        {n, I} -> To ! {Ref, out_of_order, Next, I};
        {'DOWN', MRef, process, _, Reason} -> To ! {Ref, cut, Next - 1, Reason}
    end.

%%====================================================================
%% F3 a send racing a restart
%%====================================================================
%% A permanent child registered as free_f3_w, under a one_for_one supervisor
%% with an intensity it never reaches, fails once per trial while a sender
%% sends numbered messages to the name as fast as it can, until five have
%% gone to the new incarnation; the runner tells the child to fail as soon as
%% the sender's first message is out. Each send is `Name ! Msg`, bracketed by
%% two whereis/1: the message reached one of the two pids seen (in a trial a
%% name bound to the old pid stays so or becomes free, and once bound to the
%% new one stays so). Each message is one of:
%%   old      handled by the old incarnation
%%   lost     reached the old incarnation, which died before handling it
%%   dropped  the name was not registered at the send (badarg)
%%   new      handled by the new incarnation
%% and the guarantees: a message is handled at most once (G7), only by an
%% incarnation registered around its send (G6), and none that reached the new
%% incarnation (alive) is left unhandled (G7). The sender knows it has every
%% report: the old incarnation's come before its 'DOWN', the new one's before
%% the reply to a call the sender makes last (pair order).
f3() ->
    Name = free_f3_w,
    Self = self(),
    Handle = fun({msg, I, From}, S) -> From ! {handled, I, self()}, {noreply, S};
                (fail, S) -> {stop, ?BOOM, S}
             end,
    Sup = sup(s, {Self, make_ref()}, one_for_one, 1000000,
              [free_srv:spec(w, #{name => Name, handle => Handle})]),
    try
        Classes = [old, lost, dropped, new],
        R = trials(fun() -> f3_trial(Name, Self) end,
                   fun(C) -> lists:all(fun(X) -> maps:is_key(X, C) end, Classes) end),
        report("F3/restart_race",
               "messages sent by name to a child while its supervisor restarts it: each is"
               " handled by the old incarnation, lost with it, dropped (badarg: no name), or"
               " handled by the new one, and all four happen; in every trial no message is"
               " handled twice or by another incarnation than the one registered at its send",
               R,
               fun(C) ->
                       io_lib:format("messages: ~s",
                                     [string:join([io_lib:format("~s ~b", [X, maps:get(X, C, 0)])
                                                   || X <- Classes], ", ")])
               end)
    after
        stop(Sup, shutdown)
    end.

f3_trial(Name, Self) ->
    Ref = make_ref(),
    Old = whereis(Name),
    {S, SM} = spawn_monitor(fun() -> f3_sender(Name, Old, Self, Ref) end),
    receive {Ref, sending} -> Old ! fail
    after ?WAIT -> exit(S, kill), throw({violation, {timeout, 'the sender never started'}})
    end,
    receive
        {Ref, result, Sent, Handled, OldReason} ->
            _ = await_down(S, SM),
            f3_classify(Old, OldReason, Sent, Handled);
        {'DOWN', SM, process, S, Reason} -> {violation, {sender_crashed, Reason}}
    after ?WAIT -> {violation, {timeout, 'no new incarnation'}}
    end.

f3_sender(Name, Old, To, Ref) ->
    MRef = erlang:monitor(process, Old),
    Sent = lists:reverse(f3_send(Name, Old, 1, 5, [], {To, Ref})),
    [New | _] = [W || {_, ok, W, W} <- Sent, is_pid(W), W =/= Old],
    ok = gen_server:call(New, sync),
    Reason = receive {'DOWN', MRef, process, Old, R} -> R end,
    To ! {Ref, result, Sent, f3_handled([]), Reason}.

%% Sends until Left messages went to a new incarnation; after the first send
%% it tells the runner, which makes the child fail.
f3_send(_, _, _, 0, Acc, _) -> Acc;
f3_send(_, _, I, _, Acc, _) when I > 1000000 -> exit({no_new_incarnation, length(Acc)});
f3_send(Name, Old, I, Left, Acc, Runner) ->
    W1 = whereis(Name),
    Sent = try Name ! {msg, I, self()}, ok
           catch error:badarg -> badarg
           end,
    W2 = whereis(Name),
    _ = I =:= 1 andalso begin {To, Ref} = Runner, To ! {Ref, sending} end,
    Left2 = case {Sent, W1, W2} of
                {ok, W, W} when W =/= Old -> Left - 1;
                _ -> Left
            end,
    f3_send(Name, Old, I + 1, Left2, [{I, Sent, W1, W2} | Acc], Runner).

f3_handled(Acc) ->
    receive {handled, I, P} -> f3_handled([{I, P} | Acc])
    after 0 -> lists:reverse(Acc)
    end.

f3_classify(Old, OldReason, Sent, Handled) ->
    ByMsg = lists:foldl(fun({I, P}, Map) ->
                                maps:update_with(I, fun(L) -> [P | L] end, [P], Map)
                        end, #{}, Handled),
    Each = [f3_class(Old, S, maps:get(I, ByMsg, [])) || S = {I, _, _, _} <- Sent],
    case [V || {violation, V} <- Each] of
        [] when OldReason =:= ?BOOM -> {ok, Each};
        [] -> {violation, {'the old incarnation exited with', OldReason}};
        [V | _] -> {violation, V}
    end.

f3_class(_, {_, badarg, _, _}, []) -> dropped;
f3_class(_, S = {_, badarg, _, _}, Hs) ->
    {violation, {'G6: a message sent to no one was handled', S, Hs}};
f3_class(Old, S = {_, ok, W1, W2}, []) ->
    case Old =:= W1 orelse Old =:= W2 of
        true -> lost;
        false -> {violation, {'G7: the live new incarnation never handled a message', S}}
    end;
f3_class(Old, S = {_, ok, W1, W2}, [H]) ->
    case H =:= W1 orelse H =:= W2 of
        true when H =:= Old -> old;
        true -> new;
        false -> {violation, {'G6: handled by an incarnation not registered at the send', S, H}}
    end;
f3_class(_, S, Hs) -> {violation, {'G7: a message handled more than once', S, Hs}}.

%%====================================================================
%% F4 two exits reaching one supervisor
%%====================================================================
%% A one_for_one supervisor of c1 and c2, which fail at the same moment
%% (released together). The supervisor restarts each child as it handles its
%% exit, and a restart is synchronous (the new child's init, which reports
%% {started, ...}, runs before the supervisor goes on), so the order of the
%% two reports is the order in which it handled the exits.
f4() ->
    Self = self(),
    Trial =
        fun() ->
                Ref = make_ref(),
                Rep = {Self, Ref},
                Fail = fun({fail, B, N}, S) -> pass(B, N), {stop, ?BOOM, S} end,
                Sup = sup(s, Rep, one_for_one, 10,
                          [free_srv:spec(Id, #{report => Rep, handle => Fail}) || Id <- [c1, c2]]),
                try
                    Sup = sup_started(Ref, s),
                    {C1, Sup} = started(Ref, c1),
                    {C2, Sup} = started(Ref, c2),
                    B = barrier(2),
                    gen_server:cast(C1, {fail, B, 1}),
                    gen_server:cast(C2, {fail, B, 2}),
                    Restarts = [restarted(Ref), restarted(Ref)],
                    alive = exp_lib:sync(Sup),
                    Rest = drain(Ref),
                    Ids = [Id || {Id, _, _} <- Restarts],
                    New = [P || {_, P, _} <- Restarts],
                    case lists:sort(Ids) =:= [c1, c2] andalso Rest =:= []
                        andalso [Sup, Sup] =:= [S || {_, _, S} <- Restarts]
                        andalso not lists:member(C1, New) andalso not lists:member(C2, New) of
                        true -> {ok, [list_to_atom(lists:append([atom_to_list(Id) || Id <- Ids]))]};
                        false -> {violation, {'G9: not one restart of each child', Restarts, Rest}}
                    end
                after
                    stop(Sup, shutdown)
                end
        end,
    R = trials(Trial, fun(C) -> map_size(C) >= 2 end),
    report("F4/exit_order",
           "c1 and c2 of one one_for_one supervisor fail at the same moment: in every trial"
           " each is restarted exactly once, and the supervisor handles their exits (restarts"
           " them) in either order: c1 first (c1c2) and c2 first (c2c1) both seen",
           R, fun counts/1).

restarted(Ref) ->
    receive {Ref, started, Id, P, Parent} -> {Id, P, Parent}
    after ?WAIT -> throw({violation, {timeout, 'no restart'}})
    end.

%%====================================================================
%% F5 two supervisors with exits to handle, one the ancestor of the other (R49)
%%====================================================================
%% p (one_for_all) supervises w1 and the supervisor s, which supervises w2.
%% w1 and w2 fail at the same moment (released together): w1's exit goes to
%% p, w2's to s. p's reaction terminates s and starts w1 and s again (and the
%% new s starts a new w2). Outcome: handled (s#1 restarted w2 before p
%% terminated it: a w2 started by s#1 after the failures) or dropped (s#1 was
%% terminated with w2's exit unhandled). Nothing is held back: links.erl's
%% R49/held needs sys:suspend to force the second outcome; here both come by
%% themselves.
f5() ->
    Self = self(),
    Trial =
        fun() ->
                Ref = make_ref(),
                Rep = {Self, Ref},
                Fail = fun({fail, B, N}, S) -> pass(B, N), {stop, ?BOOM, S} end,
                SSpec = sup_spec(s, Rep, one_for_one, 10,
                                 [free_srv:spec(w2, #{report => Rep, handle => Fail})]),
                P = sup(p, Rep, one_for_all, 10,
                        [free_srv:spec(w1, #{report => Rep, handle => Fail}), SSpec]),
                try
                    {W1, P} = started(Ref, w1),
                    S1 = sup_started(Ref, s),
                    {W2, S1} = started(Ref, w2),
                    B = barrier(2),
                    gen_server:cast(W1, {fail, B, 1}),
                    gen_server:cast(W2, {fail, B, 2}),
                    Evs = f5_until_done(Ref, S1, []),
                    stop(P, shutdown),
                    f5_classify(P, S1, Evs ++ drain(Ref))
                after
                    stop(P, shutdown)
                end
        end,
    R = trials(Trial, fun(C) -> map_size(C) >= 2 end),
    report("F5/ancestor",
           "w1 (child of p, one_for_all) and w2 (child of s, itself a child of p) fail at the same"
           " moment, nothing held back: in every trial p restarts w1 and s once, the new s starts"
           " w2, and s#1 restarts w2 at most once; both orders happen: s#1 handles w2's exit"
           " before p terminates it (handled), or is terminated with it unhandled (dropped)",
           R, fun counts/1).

%% The reports until p has restarted w1 and s, and the new s has started w2.
f5_until_done(Ref, S1, Evs) ->
    NewS = [S || {sup_started, s, S} <- Evs, S =/= S1],
    Done = lists:keymember(w1, 2, Evs)
        andalso [W || {started, w2, W, Parent} <- Evs, lists:member(Parent, NewS)] =/= [],
    case Done of
        true -> Evs;
        false ->
            receive
                {Ref, started, Id, Pid, Parent} ->
                    f5_until_done(Ref, S1, Evs ++ [{started, Id, Pid, Parent}]);
                {Ref, sup_started, Id, Pid} ->
                    f5_until_done(Ref, S1, Evs ++ [{sup_started, Id, Pid}])
            after ?WAIT -> throw({violation, {timeout, 'p never finished its restart', Evs}})
            end
    end.

%% All the reports after the failures, p's tree stopped since: exactly one w1
%% (by p), one s#2, one w2 by s#2, and at most one w2 by s#1.
f5_classify(P, S1, Evs) ->
    W1s = [Pa || {started, w1, _, Pa} <- Evs],
    S2s = [S || {sup_started, s, S} <- Evs],
    ByS1 = [W || {started, w2, W, Pa} <- Evs, Pa =:= S1],
    ByS2 = [W || {started, w2, W, Pa} <- Evs, Pa =/= S1],
    case {W1s, S2s, ByS2, ByS1} of
        {[P], [S2], [_], []} when S2 =/= S1 -> {ok, [dropped]};
        {[P], [S2], [_], [_]} when S2 =/= S1 -> {ok, [handled]};
        _ -> {violation, {'G9: not the restarts p and s decide', Evs}}
    end.

%%====================================================================
%% F6 one exit, several linked processes (R22)
%%====================================================================
%% a fails; b and c, gen_servers that trap exits and are linked to a, each
%% report the 'EXIT' to the runner (a third process) as they handle it. a, b
%% and c are released together: a fails at once, b and c go back to waiting
%% for messages. Outcome: the order of the reports.
f6() ->
    Self = self(),
    Trial =
        fun() ->
                Ref = make_ref(),
                B = barrier(3),
                A = spawn(fun() -> receive go -> pass(B, 3), exit(?BOOM) end end),
                Report = fun(Id) -> fun({wait, N}, S) -> pass(B, N), {noreply, S};
                                       (Msg, S) -> Self ! {Ref, Id, Msg}, {noreply, S}
                                    end
                         end,
                {ok, Bp} = free_srv:start(b, #{trap => true, link => A, handle => Report(b)}),
                {ok, Cp} = free_srv:start(c, #{trap => true, link => A, handle => Report(c)}),
                try
                    gen_server:cast(Bp, {wait, 1}),
                    gen_server:cast(Cp, {wait, 2}),
                    A ! go,
                    Got = [receive {Ref, Id, Msg} -> {Id, Msg}
                           after ?WAIT -> throw({violation, {timeout, 'no EXIT reported'}})
                           end || _ <- [1, 2]],
                    case [Id || {Id, {'EXIT', From, ?BOOM}} <- Got, From =:= A] of
                        [X, Y] when X =/= Y ->
                            {ok, [list_to_atom(atom_to_list(X) ++ atom_to_list(Y))]};
                        _ -> {violation, {'G11: not one EXIT each, with a\'s reason', Got}}
                    end
                after
                    stop(Bp, kill), stop(Cp, kill)
                end
        end,
    R = trials(Trial, fun(C) -> map_size(C) >= 2 end),
    report("F6/linked_order",
           "a fails; b and c trap exits, are linked to a and report the 'EXIT' to a third"
           " process: in every trial each reports it once, with a's reason, and both orders of"
           " the reports happen (bc and cb)",
           R, fun counts/1).

%%====================================================================
%% F7 link signals against a supervisor's reaction
%%====================================================================
%% A permanent child w, registered as free_f7_w, of a one_for_one supervisor;
%% a watcher that traps exits is linked to it. w and the watcher are released
%% together: w fails, the watcher goes back to waiting for messages. As the
%% watcher handles w's 'EXIT' it looks the name up. Outcome: new (the
%% supervisor has restarted w already: the new incarnation is registered) or
%% none (not yet: the name is free). The barrier here does not wait for the
%% two to run on different schedulers (mode all): both outcomes show either
%% way, but spread, "none" comes about once in 200 trials, unspread "new"
%% about once in 10.
f7() ->
    Self = self(),
    Name = free_f7_w,
    Trial =
        fun() ->
                Ref = make_ref(),
                Rep = {Self, Ref},
                Fail = fun({fail, B, N}, S) -> pass(B, N), {stop, ?BOOM, S} end,
                Sup = sup(s, Rep, one_for_one, 10, [free_srv:spec(w, #{name => Name, report => Rep,
                                                                       handle => Fail})]),
                try
                    {W, Sup} = started(Ref, w),
                    Look = fun({wait, B, N}, S) -> pass(B, N), {noreply, S};
                              (Msg, S) -> Self ! {Ref, looked_up, Msg, whereis(Name)}, {noreply, S}
                           end,
                    {ok, Watcher} = free_srv:start(watcher, #{trap => true, link => W,
                                                              handle => Look}),
                    try
                        B = barrier(2, all),
                        gen_server:cast(Watcher, {wait, B, 1}),
                        gen_server:cast(W, {fail, B, 2}),
                        {Looked, Exit} = receive {Ref, looked_up, E, L} -> {L, E}
                                         after ?WAIT -> throw({violation, {timeout, 'no EXIT'}})
                                         end,
                        {New, Sup} = started(Ref, w),
                        case {Exit, Looked} of
                            {{'EXIT', W, ?BOOM}, undefined} -> {ok, [none]};
                            {{'EXIT', W, ?BOOM}, New} -> {ok, [new]};
                            _ -> {violation, {'G6/G11: not w#1\'s EXIT, or the name bound to w#1',
                                              Exit, Looked,
                                              {old, W}, {new, New}}}
                        end
                    after
                        stop(Watcher, kill)
                    end
                after
                    stop(Sup, shutdown)
                end
        end,
    R = trials(Trial, fun(C) -> map_size(C) >= 2 end),
    report("F7/signal_vs_restart",
           "a watcher trapping exits, linked to w (permanent, registered), looks up w's name as it"
           " handles w's 'EXIT': in every trial it finds the name free or bound to the new"
           " incarnation (never the old one), and both happen: the supervisor had restarted w"
           " already (new) or not yet (none)",
           R, fun counts/1).

%%====================================================================
%% F8 the place of a noproc answer
%%====================================================================
%% A gen_server w that traps exits monitors or links to a process that is not
%% there, and sends itself x in the same callback; on x it sends itself y. It
%% reports each message as it handles it. Outcome: where the 'DOWN' or 'EXIT'
%% noproc came: before x (at_once), between x and y (same_turn) or after y
%% (later_turn), prefixed monitor_ or link_. Each trial does four things:
%% - monitors a name nobody has: the BIF puts the 'DOWN' in the mailbox at once;
%% - monitors a dead pid: ERTS sends the caller a monitor-down *signal*, which
%%   becomes a message only once the caller's receive finds no message left to
%%   take: after x and after y, which each callback had put in its mailbox
%%   directly (R25/dead_pid_order);
%% - links to a dead pid: the 'EXIT' is there at once (R20/dead_trapping_order);
%% - links to a process that is exiting (killed just before, with a long mailbox
%%   to throw away): the process answers the link signal itself, with an 'EXIT'
%%   noproc that comes after y in some trials (on two schedulers: on one, the
%%   killed process is gone before w runs). (Or its own 'EXIT' killed, when the
%%   link came before the kill: link_reached.)
f8() ->
    Self = self(),
    Trial =
        fun() ->
                Ref = make_ref(),
                Handle = fun({Do, D}, S) ->
                                 S2 = case Do of
                                          monitor -> S#{ref => erlang:monitor(process, D)};
                                          link -> link(D), S#{ref => D}
                                      end,
                                 self() ! x,
                                 {noreply, S2};
                            (x, S) ->
                                 Self ! {Ref, x},
                                 self() ! y,
                                 {noreply, S};
                            (y, S) ->
                                 Self ! {Ref, y},
                                 {noreply, S};
                            ({'DOWN', M, process, _, Why}, S = #{ref := M}) ->
                                 Self ! {Ref, {answer, Why}},
                                 {noreply, S};
                            ({'EXIT', D, Why}, S = #{ref := D}) ->
                                 Self ! {Ref, {answer, Why}},
                                 {noreply, S}
                         end,
                {ok, W} = free_srv:start(w, #{trap => true, state => #{}, handle => Handle}),
                try
                    Place = fun(Do, D) -> gen_server:cast(W, {Do, D}), f8_place(Ref, Do) end,
                    Exiting = spawn(fun() -> receive never -> ok end end),
                    [Exiting ! {filler, I} || I <- lists:seq(1, 100000)],
                    exit(Exiting, kill),
                    {ok, [Place(monitor, free_f8_nobody), Place(monitor, exp_lib:dead_pid()),
                          Place(link, exp_lib:dead_pid()), Place(link, Exiting)]}
                after
                    stop(W, kill)
                end
        end,
    Seen = fun(C) -> lists:all(fun(O) -> maps:is_key(O, C) end,
                               [monitor_at_once, monitor_later_turn, link_at_once, link_later_turn])
           end,
    R = trials(Trial, Seen),
    report("F8/noproc_answer_place",
           "a gen_server that traps exits monitors, or links to, a process that is not there,"
           " then sends itself x (and y on x): in every trial one 'DOWN' or 'EXIT' noproc, x"
           " before y (G4, G7); the answer comes before x (at_once) and after y, in a later"
           " turn (later_turn), for a monitor (by a name nobody has; by a dead pid) and for a"
           " link (to a dead pid; to a process still exiting)",
           R, fun counts/1).

%% Where this trial's noproc answer to Do came among x and y.
f8_place(Ref, Do) ->
    Got = [receive {Ref, Msg} -> Msg
           after ?WAIT -> throw({violation, {timeout, 'x, y and an answer not all handled'}})
           end || _ <- [1, 2, 3]],
    Place = case Got of
                [{answer, noproc}, x, y] -> at_once;
                [x, {answer, noproc}, y] -> same_turn;
                [x, y, {answer, noproc}] -> later_turn;
                _ when Do =:= link ->
                    case lists:delete({answer, killed}, Got) of
                        [x, y] -> reached;
                        _ -> throw({violation, {'G4/G7: x before y, one EXIT', Got}})
                    end;
                _ -> throw({violation, {'G4/G7: x before y, one DOWN noproc', Got}})
            end,
    list_to_atom(atom_to_list(Do) ++ "_" ++ atom_to_list(Place)).

%%====================================================================
%% trials
%%====================================================================
%% Runs Trial() until Done(Counts) holds and ?MIN_TRIALS trials have run, or
%% until ?MAX_TRIALS trials or ?MAX_MS ms have. Trial() answers {ok, Outcomes}
%% (each counted in Counts) or {violation, What}, or throws {violation, What}:
%% then the loop stops at once.
trials(Trial, Done) ->
    T0 = erlang:monotonic_time(millisecond),
    trials(Trial, Done, T0, 0, #{}, undefined).

trials(Trial, Done, T0, N, Counts, Needed) ->
    Ms = erlang:monotonic_time(millisecond) - T0,
    Result = #{trials => N, needed => Needed, counts => Counts, ms => Ms, violation => none},
    if
        Needed =/= undefined, N >= ?MIN_TRIALS -> Result;
        N >= ?MAX_TRIALS; Ms >= ?MAX_MS -> Result;
        true ->
            case try Trial() catch throw:{violation, What} -> {violation, What} end of
                {ok, Outcomes} ->
                    Add = fun(O, C) -> maps:update_with(O, fun(X) -> X + 1 end, 1, C) end,
                    C2 = lists:foldl(Add, Counts, Outcomes),
                    Needed2 = case Needed =:= undefined andalso Done(C2) of
                                  true -> N + 1;
                                  false -> Needed
                              end,
                    trials(Trial, Done, T0, N + 1, C2, Needed2);
                {violation, V} ->
                    Result#{trials := N + 1, violation := V}
            end
    end.

%% One PASS or FAIL line: the guarantees held in every trial, and every order
%% was seen.
report(Id, What, Result, Summary) ->
    #{trials := N, needed := Needed, counts := C, ms := Ms, violation := V} = Result,
    Got = {guarantees, case V of none -> held; _ -> {broken, V} end,
           orders, case Needed of undefined -> not_all_seen; _ -> all_seen end},
    Detail = io_lib:format("~b trials in ~b ms, every order seen after ~s; ~s",
                           [N, Ms, case Needed of
                                       undefined -> "none";
                                       _ -> integer_to_list(Needed)
                                   end, Summary(C)]),
    exp_lib:check(Id, What, {guarantees, held, orders, all_seen}, Got, Detail).

counts(C) ->
    string:join([io_lib:format("~s ~b", [O, N]) || {O, N} <- lists:sort(maps:to_list(C))], ", ").

%% The N most frequent outcomes with their counts.
top(C, N) ->
    Sorted = lists:sublist(lists:reverse(lists:keysort(2, maps:to_list(C))), N),
    string:join([io_lib:format("~s (~b)", [O, K]) || {O, K} <- Sorted], ", ").

%%====================================================================
%% the barrier
%%====================================================================
%% barrier(N, Mode): a barrier that releases N processes at the same moment.
%% Each calls pass(B, I), I = 1..N, and spins there (it keeps running: when
%% the barrier opens, it is running or next to run) until the barrier opens.
%% The one that sees first that all N have arrived (mode all), and that they
%% run on min(N, schedulers) different schedulers at once (mode spread: after
%% ?SPREAD_MS without that, it opens anyway), opens it. Slots of the atomics:
%% 1 open, 2 arrived, 2 + I the scheduler process I last ran on.
barrier(N) -> barrier(N, spread).
barrier(N, Mode) -> {atomics:new(2 + N, []), N, Mode}.

pass({A, N, Mode}, I) ->
    atomics:add(A, 2, 1),
    pass(A, N, Mode, I, erlang:monotonic_time(millisecond) + ?SPREAD_MS).

pass(A, N, Mode, I, Deadline) ->
    atomics:put(A, 2 + I, erlang:system_info(scheduler_id)),
    case atomics:get(A, 1) of
        0 ->
            case atomics:get(A, 2) =:= N andalso (Mode =:= all orelse spread(A, N, Deadline)) of
                true -> atomics:put(A, 1, 1);
                false -> pass(A, N, Mode, I, Deadline)
            end;
        _ -> ok
    end.

spread(A, N, Deadline) ->
    Scheds = lists:usort([atomics:get(A, 2 + J) || J <- lists:seq(1, N)]),
    length(Scheds) >= min(N, erlang:system_info(schedulers_online))
        orelse erlang:monotonic_time(millisecond) > Deadline.

%%====================================================================
%% processes
%%====================================================================
%% A supervisor with this module's init/1, started by the caller and unlinked
%% from it (the runner traps exits). It reports {Ref, sup_started, Id, self()}.
sup(Id, Rep, Strategy, MaxR, Specs) ->
    {ok, P} = start_sup(Id, Rep, flags(Strategy, MaxR), Specs),
    unlink(P),
    P.

sup_spec(Id, Rep, Strategy, MaxR, Specs) ->
    #{id => Id, start => {?MODULE, start_sup, [Id, Rep, flags(Strategy, MaxR), Specs]},
      restart => permanent, shutdown => infinity, type => supervisor, modules => [?MODULE]}.

flags(Strategy, MaxR) -> #{strategy => Strategy, intensity => MaxR, period => 3600}.

start_sup(Id, Rep, Flags, Specs) -> supervisor:start_link(?MODULE, {Id, Rep, Flags, Specs}).

init({Id, {To, Ref}, Flags, Specs}) ->
    To ! {Ref, sup_started, Id, self()},
    {ok, {Flags, Specs}}.

%% The next {started, Id, ...} report of this trial: {Pid, Parent}.
started(Ref, Id) ->
    receive {Ref, started, Id, P, Parent} -> {P, Parent}
    after ?WAIT -> throw({violation, {timeout, {no_start, Id}}})
    end.

sup_started(Ref, Id) ->
    receive {Ref, sup_started, Id, P} -> P
    after ?WAIT -> throw({violation, {timeout, {no_start, Id}}})
    end.

%% This trial's reports still in the mailbox.
drain(Ref) ->
    receive
        {Ref, started, Id, P, Parent} -> [{started, Id, P, Parent} | drain(Ref)];
        {Ref, sup_started, Id, P} -> [{sup_started, Id, P} | drain(Ref)]
    after 0 -> []
    end.

%% exit(Pid, Reason), then waits until Pid is gone (a supervisor told shutdown
%% by its parent terminates its children first).
stop(Pid, Reason) ->
    MRef = erlang:monitor(process, Pid),
    exit(Pid, Reason),
    _ = await_down(Pid, MRef),
    ok.

await_down(Pid, MRef) ->
    receive {'DOWN', MRef, process, Pid, Reason} -> Reason
    after ?WAIT -> throw({violation, {timeout, {still_alive, Pid}}})
    end.
