%% exp_actor: the scriptable gen_server of the version 2 experiments. It is a
%% worker (or a plain unsupervised gen_server) whose init outcome, trap_exit
%% flag and actions the experiment chooses, and which reports what happens to
%% it to exp_collector (see exp_lib).
%%
%%  init:     the next outcome planned for its id (exp_lib:plan/2): ok, ignore,
%%            {stop, Reason} or crash; reports {started, Id}, {ignored, Id} or
%%            {init_failed, Id, Reason}. A started actor traps exits when its
%%            options say so (exp_lib:opts/2), and is watched by the collector
%%            ({down, Id, Reason} when it dies).
%%  do/2:     runs one action inside the actor and answers ok (a call): link,
%%            unlink, monitor, demonitor, exit, trap. An action that kills the
%%            actor makes do/2 exit instead; experiments catch it.
%%  cast/2:   the same actions without waiting, and {call, Target, Request}:
%%            the actor calls Target (gen_server:call, infinity) and reports
%%            {reply, Id, Value}, or dies as gen_server:call makes it die.
%%  requests: a call {req, Plan} is answered by Plan: {reply, V}, noreply,
%%            {stop, Reason} (stop without replying), {reply_after, Ms, V},
%%            {reply_twice, V1, V2},
%%            {call, Target, Request} (answer with what Target answers).
%%  messages: every message it receives (an 'EXIT' when it traps, a 'DOWN',
%%            a stray reply) is reported as {got, Id, Msg}, with pids replaced
%%            by actor ids and monitor references by the tag they were made
%%            with.
-module(exp_actor).
-behaviour(gen_server).

-export([start_link/1, start/1, spec/2, spec/3, do/2, cast/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).

-define(COLL, exp_collector).

start_link(Id) -> gen_server:start_link(?MODULE, Id, []).
start(Id) -> gen_server:start(?MODULE, Id, []).

%% A worker child spec (significant defaults to false, as in OTP).
spec(Id, Restart) -> spec(Id, Restart, false).
spec(Id, Restart, Significant) ->
    #{id => Id, start => {?MODULE, start_link, [Id]}, restart => Restart,
      significant => Significant, shutdown => 5000, type => worker, modules => [?MODULE]}.

do(Id, Action) -> gen_server:call(exp_lib:pid(Id), {do, Action}, 5000).
cast(Id, Msg) -> gen_server:cast(exp_lib:pid(Id), Msg).

init(Id) ->
    case exp_lib:next_init(Id) of
        ok ->
            _ = exp_lib:opt(Id, trap) andalso process_flag(trap_exit, true),
            exp_lib:register_actor(Id, self()),
            exp_lib:watch(Id),
            ?COLL ! {started, Id},
            {ok, #{id => Id, refs => #{}}};
        ignore ->
            ?COLL ! {ignored, Id},
            ignore;
        {stop, Reason} ->
            ?COLL ! {init_failed, Id, Reason},
            {stop, Reason};
        crash ->
            ?COLL ! {init_failed, Id, crash},
            error(crash_in_init)
    end.

handle_call({do, Action}, _From, S) ->
    {reply, ok, act(Action, S)};
handle_call({req, {reply, V}}, _From, S) -> {reply, V, S};
handle_call({req, noreply}, _From, S) -> {noreply, S};
handle_call({req, {stop, Reason}}, _From, S) -> {stop, Reason, S};
handle_call({req, {reply_after, Ms, V}}, _From, S) ->
    timer:sleep(Ms),
    {reply, V, S};
handle_call({req, {reply_twice, V1, V2}}, From, S) ->
    gen_server:reply(From, V1),
    gen_server:reply(From, V2),
    {noreply, S};
handle_call({req, {call, Target, Req}}, _From, S) ->
    {reply, gen_server:call(exp_lib:pid(Target), Req, infinity), S}.

handle_cast({call, Target, Req}, S = #{id := Id}) ->
    V = gen_server:call(exp_lib:pid(Target), Req, infinity),
    ?COLL ! {reply, Id, V},
    {noreply, S};
handle_cast({stop, Reason}, S) ->
    {stop, Reason, S};
handle_cast(Action, S) ->
    {noreply, act(Action, S)}.

handle_info(Msg, S = #{id := Id}) ->
    ?COLL ! {got, Id, normalize(Msg, S)},
    {noreply, S}.

act({link, T}, S) -> link(exp_lib:pid(T)), S;
act({unlink, T}, S) -> unlink(exp_lib:pid(T)), S;
act({monitor, {registered, Name}, Tag}, S = #{refs := Refs}) ->  % by name, not by pid
    Ref = erlang:monitor(process, Name),
    S#{refs := Refs#{Ref => Tag}};
act({monitor, T, Tag}, S = #{refs := Refs}) ->
    Ref = erlang:monitor(process, exp_lib:pid(T)),
    S#{refs := Refs#{Ref => Tag}};
act({demonitor, Tag}, S = #{refs := Refs}) ->
    [Ref] = [R || {R, T} <- maps:to_list(Refs), T =:= Tag],
    erlang:demonitor(Ref),
    S;
act({exit, T, Reason}, S) -> exit(exp_lib:pid(T), Reason), S;
act({trap, Bool}, S) -> process_flag(trap_exit, Bool), S;
act({send, T, Msg}, S) -> exp_lib:pid(T) ! Msg, S;
act({sleep, Ms}, S) -> timer:sleep(Ms), S;
act(List, S) when is_list(List) -> lists:foldl(fun act/2, S, List).

normalize({'EXIT', P, R}, _S) -> {'EXIT', exp_lib:id_of(P), R};
normalize({'DOWN', Ref, process, P, R}, #{refs := Refs}) ->
    {'DOWN', maps:get(Ref, Refs, Ref), exp_lib:id_of(P), R};
normalize({Ref, V}, _S) when is_reference(Ref) -> {stray_reply, V};
normalize(Msg, _S) -> Msg.
