%% concord_free_calls: calls, replies and the supervisor API in a free run (SPEC
%% §18, §20, §25.5), version 2. A call is the caller's own gen_server:call, blocking
%% it for as long as OTP does (for ever, when nobody answers: the run then ends in
%% deadlock); a reply is gen_server:reply/2 to the call's From; an API statement is
%% the caller's own supervisor:terminate_child/2 (restart_child, delete_child).
%% Every answer carries who answered it: a reply is {'$cf_reply', Callee, N, Value}
%% with the callee's incarnation and the reply's effect number (SPEC §25.6 resume);
%% an API request is announced in the books ({api, Pid}) for the supervisor's hook.
-module(concord_free_calls).
-export([call/5, reply/1, api/3, code/1]).

-include("concord_free.hrl").

%% [f =] call t(a...) to e. Type is the bound field's type (int, addr, reason) or
%% any; State, the handler's state so far, which is the caller's state at the end
%% if it still waits then (SPEC §25.6, deadlock). To itself, gen_server:call exits
%% calling_self; to a dead name, noproc [R31]; when the callee exits before
%% replying, with its reason R, and the caller fails with code(R) [R30].
call(To, Tag, Args, Type, State) ->
    Ctx = #cf{meta = M} = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    Me = {MyName, MyInc} = concord_free_books:me(),
    {Pid, Inc} = case To =:= MyName of
                     true -> {self(), MyInc};
                     false ->
                         case concord_free_books:lookup(Ctx, To) of
                             none -> {concord_free_books:dead_pid(Ctx, To), null};
                             Found -> Found
                         end
                 end,
    Seq = concord_free_books:record({call, N, To, Inc}),
    ets:insert(M, {{calling, MyName, MyInc}, State}),
    Reply = try
                gen_server:call(Pid, {'$cf_call', Me, N, Tag, Args}, infinity)
            catch
                exit:{calling_self, _} -> {failed, <<"CALLING_SELF">>};
                exit:{noproc, {gen_server, call, _}} when Inc =/= null, Pid =/= self() ->
                    %% The callee found alive had exited when the call reached it (its
                    %% own reason is not noproc): the call found no live process.
                    concord_free_books:exit_reason(Ctx, To, Inc) =:= noproc
                        orelse concord_free_books:rewrite(Seq, {call, N, To, null}),
                    {failed, <<"NOPROC">>};
                exit:{R, {gen_server, call, _}} -> {failed, code(R)}
            after
                ets:delete(M, {calling, MyName, MyInc})
            end,
    case Reply of
        {failed, Code} ->
            throw({concord_exit, {fail, Code}});
        {'$cf_reply', Callee, RN, Value} ->
            concord_free_worker:resume_turn(State),  % a turn (SPEC §18.3): it takes a ticket
            concord_free_books:record({resume, Callee, RN, Value}),
            case Type =:= any orelse has_type(Type, Value) of
                true -> Value;
                false -> throw({concord_exit, {fail, <<"BAD_REPLY">>}})
            end
    end.

has_type(int, V) -> is_integer(V);
has_type(addr, V) -> is_binary(V);
has_type(reason, V) -> is_atom(V) orelse is_tuple(V).

%% code(R) (SPEC §15), the code a failed call fails with.
code(normal) -> <<"NORMAL">>;
code(shutdown) -> <<"SHUTDOWN">>;
code({shutdown, _}) -> <<"SHUTDOWN">>;
code(killed) -> <<"KILLED">>;
code(noproc) -> <<"NOPROC">>;
code({fail, Code}) -> Code;
code(Other) -> iolist_to_binary(io_lib:format("~0p", [Other])).

%% reply e (SPEC §18.1): every reply is an effect; the first of a turn reached by a
%% call answers it for real; anything else does nothing [R29].
reply(V) ->
    N = concord_free_books:effect(),
    case get('$cf_reply_to') of
        From = {_, _} ->
            put('$cf_reply_to', answered),
            gen_server:reply(From, {'$cf_reply', concord_free_books:me(), N, V});
        _ ->
            ok
    end,
    concord_free_books:record({reply, N}),
    ok.

%% [f =] terminate_child|restart_child|delete_child(s, c): Op, supervisor s's
%% index, c's name. The caller makes OTP's request itself and waits for it (SPEC
%% §16.6: blocked; a supervisor that terminates it meanwhile does so as OTP does,
%% R50); it is busy meanwhile, so that the run cannot look ended. A dead
%% supervisor: OTP's call exits noproc [R44], and so does one that died with the
%% request in its mailbox (the request found no live supervisor to handle it).
api(Op, Sup, Child) ->
    Ctx = #cf{meta = M, mod = Mod} = concord_free_books:ctx(),
    N = concord_free_books:effect(),
    {MyName, MyInc} = concord_free_books:me(),
    concord_free_books:busy(Ctx, api),
    try
        Answer = case ets:lookup(M, {sup, Sup}) of
                     [{_, SupPid, SupInc}] ->
                         ets:insert(M, {{api, self()}, MyName, MyInc, N}),
                         try request(Ctx, Op, Sup, SupPid, Child) of
                             A -> {word(Op, A), SupInc}
                         catch
                             exit:{noproc, _} -> noproc;
                             exit:{_, {gen_server, call, _}} -> noproc
                         after
                             ets:delete(M, {api, self()})
                         end;
                     [] ->
                         noproc
                 end,
        {SupName, _} = element(Sup + 1, Mod:supervisors()),
        case Answer of
            noproc ->  % written as the oracle's traces write it (oracle/free/from_run.cpp)
                concord_free_books:record({api, N, Op, null, ok}),
                throw({concord_exit, {fail, <<"NOPROC">>}});
            {Word, Inc} ->
                concord_free_books:record({api, N, Op, {SupName, Inc}, Word}),
                number(Word)
        end
    after
        concord_free_books:unbusy()
    end.

%% OTP's supervisor:Op/2 on the child's id; another BEAM target's program may ask its
%% own way (the elixir target's Concord.Prog.api/5: a DynamicSupervisor knows its
%% children by pid only), given the id and the pid of the name's live incarnation,
%% or a dead pid, answering as OTP's does.
request(Ctx = #cf{mod = Mod}, Op, Sup, SupPid, Child) ->
    Id = concord_free_books:child_id(Ctx, Child),
    case erlang:function_exported(Mod, api, 5) of
        true ->
            Pid = case concord_free_books:lookup(Ctx, Child) of
                      {P, _} -> P;
                      none -> concord_free_books:dead_pid(Ctx, Child)
                  end,
            Mod:api(Op, Sup, SupPid, Id, Pid);
        false ->
            supervisor:Op(SupPid, Id)
    end.

%% OTP's answers, as SPEC §20's words [R39-R43]. `restarting` comes from OTP
%% only for a request that waited behind a failed restart's retry [R43], which a
%% free run allows (nothing orders the request after the retry).
word(_, ok) -> ok;
word(restart_child, {ok, undefined}) -> ignored;
word(restart_child, {ok, _}) -> ok;
word(restart_child, {ok, _, _}) -> ok;
word(_, {error, not_found}) -> not_found;
word(_, {error, running}) -> running;
word(_, {error, restarting}) -> restarting;
word(restart_child, {error, _}) -> failed.

number(ok) -> 0;
number(not_found) -> 1;
number(running) -> 2;
number(restarting) -> 3;
number(ignored) -> 4;
number(failed) -> 5.
