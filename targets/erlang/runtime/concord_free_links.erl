%% concord_free_links: links, monitors and exit signals in a free run (SPEC §16,
%% §25.5), version 2. Each statement is the real BIF on the pid of the name's live
%% incarnation, with the worker's real trap_exit flag (the program's own, set by
%% trap_exit/1): ERTS decides what a signal does, whether the receiver dies, with
%% which reason, or gets the 'EXIT' or 'DOWN' as a message. A name with no live
%% incarnation is given a dead pid (the name's last, or the run's tombstone), so
%% that OTP itself answers noproc.
%%
%% The other half is message/2: which system message a trapped 'EXIT' or a 'DOWN'
%% is, for the trace (SPEC §25.6: a link's signal, an exit/2's, a monitor's, or the
%% noproc of the receiver's own link or monitor to a dead name). ERTS's messages
%% carry a pid and a reason only, so each statement leaves what its answer will
%% need: a monitor's reference maps to its effect number, a link or monitor to a
%% dead name is noted by pid, and an exit/2 signal's effect number is written, before
%% the signal is sent, under {Receiver, Sender, N} in the run's `xsig` table.
-module(concord_free_links).
-export([trap_exit/1, link/1, unlink/1, monitor/1, demonitor/1, exit_signal/2, message/1]).

-include("concord_free.hrl").

trap_exit(V) ->
    process_flag(trap_exit, V =/= 0),
    ok.

%% link(e) (SPEC §16.2): to itself, nothing. To a dead name: trapping, the 'EXIT'
%% noproc OTP sends is its message; not trapping, link/1 raises noproc [R20].
link(Name) ->
    Ctx = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    {Me, MyInc} = concord_free_books:me(),
    case Name =:= Me of
        true ->
            concord_free_books:record({link, N, Name, MyInc});
        false ->
            {Pid, Inc} = target(Ctx, Name),
            Inc =:= null andalso noted('$cf_noproc', Pid, {N, Name}),
            try erlang:link(Pid) of
                true ->
                    Seq = concord_free_books:record({link, N, Name, Inc}),
                    Inc =:= null orelse noted('$cf_linked', Pid, {N, Name, Inc, Seq})
            catch
                error:noproc ->
                    concord_free_books:record({link, N, Name, null}),
                    throw({concord_exit, {fail, <<"NOPROC">>}})
            end
    end,
    ok.

%% unlink(e): the link with the live incarnation goes; a dead one has none left
%% (SPEC §17.1 step 2), and its signal, sent or not, is not undone.
unlink(Name) ->
    Ctx = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    {Me, MyInc} = concord_free_books:me(),
    Inc = case Name =:= Me of
              true -> MyInc;
              false ->
                  case concord_free_books:lookup(Ctx, Name) of
                      {Pid, I} -> true = erlang:unlink(Pid), I;
                      none -> null
                  end
          end,
    concord_free_books:record({unlink, N, Name, Inc}),
    ok.

%% monitor(e): a real monitor; on a dead name its 'DOWN' (noproc) is the message
%% [R25]. It comes when OTP puts it in: for the dead pid monitored here, after what
%% the worker sends itself meanwhile (SPEC §25.7 F8 [R25/dead_pid_order]), which a
%% free run may show. Monitoring itself: nothing, it could never fire.
monitor(Name) ->
    Ctx = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    {Me, MyInc} = concord_free_books:me(),
    case Name =:= Me of
        true ->
            concord_free_books:record({monitor, N, Name, MyInc});
        false ->
            {Pid, Inc} = target(Ctx, Name),
            Ref = erlang:monitor(process, Pid),
            Seq = concord_free_books:record({monitor, N, Name, Inc}),
            put('$cf_monitors', (monitors())#{Ref => {N, Name, Pid, Inc, Seq}})
    end,
    ok.

%% demonitor(e): the oldest monitor held on e's live incarnation goes; a 'DOWN'
%% already in the mailbox stays [R26]. Monitors on an incarnation that has exited
%% are used up (SPEC §17.1 step 3).
demonitor(Name) ->
    Ctx = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    Inc = case concord_free_books:lookup(Ctx, Name) of
              {Pid, I} ->
                  Held = lists:sort([{M, Ref} || {Ref, {M, Nm, P, _, _}} <- maps:to_list(monitors()), Nm =:= Name,
                                                 P =:= Pid]),
                  case Held of
                      [{_, Ref} | _] ->
                          erlang:demonitor(Ref),
                          put('$cf_monitors', maps:remove(Ref, monitors()));
                      [] ->
                          ok
                  end,
                  I;
              none ->
                  null
          end,
    concord_free_books:record({demonitor, N, Name, Inc}),
    ok.

%% exit(e, r), exit(e, kill): a real exit/2 (SPEC §16.3 [R18, R19]); to itself
%% too, where OTP decides: not trapping it dies (normal too), trapping and
%% supervised the 'EXIT' is a message, trapping and unsupervised gen_server stops
%% on its parent's (its own) 'EXIT' once the callback is done. To a dead name:
%% nothing [R19/dead_target].
exit_signal(Name, Reason) ->
    Ctx = #cf{xsig = X} = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    {Me, MyInc} = concord_free_books:me(),
    Target = case Name =:= Me of
                 true -> {self(), MyInc};
                 false -> concord_free_books:lookup(Ctx, Name)
             end,
    case Target of
        {Pid, Inc} when Pid =:= self() ->  % it may die of it here: recorded first
            Reason =:= kill orelse ets:insert(X, {{Pid, self(), N}, Reason}),
            concord_free_books:record({exit_signal, N, Name, Inc}),
            erlang:exit(Pid, Reason);
        {Pid, Inc} ->
            Reason =:= kill orelse ets:insert(X, {{Pid, self(), N}, Reason}),
            erlang:exit(Pid, Reason),
            concord_free_books:record({exit_signal, N, Name, Inc});
        none ->
            concord_free_books:record({exit_signal, N, Name, null})
    end,
    ok.

%% The pid a statement acts on: the live incarnation's, or a dead pid.
target(Ctx, Name) ->
    case concord_free_books:lookup(Ctx, Name) of
        {Pid, Inc} -> {Pid, Inc};
        none -> {concord_free_books:dead_pid(Ctx, Name), null}
    end.

monitors() ->
    case get('$cf_monitors') of
        undefined -> #{};
        Ms -> Ms
    end.

%% Links by pid, in the order made: to dead names ('$cf_noproc', {N, Name}), and to
%% live incarnations ('$cf_linked', {N, Name, Inc, Seq}).
noted(Key, Pid, Entry) ->
    Noted = case get(Key) of undefined -> #{}; M -> M end,
    put(Key, Noted#{Pid => maps:get(Pid, Noted, []) ++ [Entry]}).

%% OTP answered noproc to a link or monitor that the books had found alive: the
%% incarnation had exited before the BIF reached it (its own reason is not noproc),
%% and the statement found none (SPEC §25.4 G6). Its record is corrected.
found_none(Ctx, Name, Inc) -> concord_free_books:exit_reason(Ctx, Name, Inc) =/= noproc.

%% A trapped 'EXIT' or a 'DOWN' as the system message it is (SPEC §16.4, §25.6):
%% {Tag, Args, Signal} with Signal = {link, From} | {exit, From, N} | {down, From, M}
%% | {noproc, N}, or ignore for what is no message of the program.
message({'EXIT', Pid, Reason}) ->
    Ctx = #cf{xsig = X} = concord_free_books:ctx(),
    Dead = case get('$cf_noproc') of undefined -> #{}; M -> M end,
    Linked = case get('$cf_linked') of undefined -> #{}; L -> L end,
    case Dead of
        #{Pid := [{N, Name} | Rest]} when Reason =:= noproc ->
            put('$cf_noproc', Dead#{Pid := Rest}),
            {<<"exit">>, [Name, noproc], {noproc, N}};
        _ ->
            case {concord_free_books:whois(Ctx, Pid), first_xsig(X, Pid), Linked} of
                {none, _, _} ->
                    ignore;
                {{Name, Inc, _}, {Key = {_, _, N}, Reason}, _} ->
                    ets:delete(X, Key),
                    {<<"exit">>, [Name, Reason], {exit, {Name, Inc}, N}};
                {{Name, Inc, _}, _, #{Pid := [{N, Name, Inc, Seq} | Rest]}} when Reason =:= noproc ->
                    put('$cf_linked', Linked#{Pid := Rest}),
                    case found_none(Ctx, Name, Inc) of
                        true ->
                            concord_free_books:rewrite(Seq, {link, N, Name, null}),
                            {<<"exit">>, [Name, noproc], {noproc, N}};
                        false ->
                            {<<"exit">>, [Name, Reason], {link, {Name, Inc}}}
                    end;
                {{Name, Inc, _}, _, _} ->
                    {<<"exit">>, [Name, Reason], {link, {Name, Inc}}}
            end
    end;
message({'DOWN', Ref, process, _Pid, Reason}) ->
    Ctx = concord_free_books:ctx(),
    case maps:take(Ref, monitors()) of
        {{N, Name, _, null, _}, Rest} ->
            put('$cf_monitors', Rest),
            {<<"down">>, [Name, noproc], {noproc, N}};
        {{N, Name, _, Inc, Seq}, Rest} ->
            put('$cf_monitors', Rest),
            case Reason =:= noproc andalso found_none(Ctx, Name, Inc) of
                true ->
                    concord_free_books:rewrite(Seq, {monitor, N, Name, null}),
                    {<<"down">>, [Name, noproc], {noproc, N}};
                false ->
                    {<<"down">>, [Name, Reason], {down, {Name, Inc}, N}}
            end;
        error ->
            ignore
    end;
message(_) ->
    ignore.

%% The oldest exit/2 signal Sender sent us that is still unread: {Key, Reason}.
first_xsig(X, Sender) ->
    Me = self(),
    case ets:next(X, {Me, Sender, -1}) of
        Key = {Me, Sender, _} -> {Key, ets:lookup_element(X, Key, 2)};
        _ -> none
    end.
