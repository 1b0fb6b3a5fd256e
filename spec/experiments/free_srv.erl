%% free_srv: the gen_server of the free-run experiments (free.erl). Lighter than
%% exp_actor: it reports to the experiment's own process, not to exp_collector,
%% and never waits for the node to be idle, so that a check can run thousands
%% of trials in a few seconds.
%%
%%  Opts (a map, all keys optional):
%%    name   => atom()         registered under this name (gen_server {local, Name})
%%    trap   => boolean()      traps exits
%%    link   => pid()          links to this process in init
%%    report => {Pid, Ref}     init sends Pid {Ref, started, Id, self(), Parent}
%%                             (Parent: the process that started it, its supervisor)
%%    state  => term()         the initial state given to handle
%%    handle => fun((Msg, State) -> {noreply, State} | {stop, Reason, State})
%%                             what it does with every cast and every message
%%                             (an 'EXIT' when it traps); default: nothing
%%  A call `state` answers the current state; a call `sync` answers ok (after
%%  everything the caller sent before it: ERTS's pair order).
-module(free_srv).
-behaviour(gen_server).

-export([start_link/2, start/2, spec/2, spec/3]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).

start_link(Id, Opts = #{name := Name}) ->
    gen_server:start_link({local, Name}, ?MODULE, {Id, Opts}, []);
start_link(Id, Opts) -> gen_server:start_link(?MODULE, {Id, Opts}, []).

start(Id, Opts = #{name := Name}) -> gen_server:start({local, Name}, ?MODULE, {Id, Opts}, []);
start(Id, Opts) -> gen_server:start(?MODULE, {Id, Opts}, []).

%% A permanent worker child spec.
spec(Id, Opts) -> spec(Id, Opts, permanent).
spec(Id, Opts, Restart) ->
    #{id => Id, start => {?MODULE, start_link, [Id, Opts]}, restart => Restart,
      shutdown => 5000, type => worker, modules => [?MODULE]}.

init({Id, Opts}) ->
    _ = maps:get(trap, Opts, false) andalso process_flag(trap_exit, true),
    case Opts of
        #{link := L} -> link(L);
        _ -> ok
    end,
    case Opts of
        #{report := {To, Ref}} ->
            [Parent | _] = get('$ancestors'),
            To ! {Ref, started, Id, self(), parent_pid(Parent)};
        _ -> ok
    end,
    {ok, {maps:get(handle, Opts, fun(_, S) -> {noreply, S} end), maps:get(state, Opts, undefined)}}.

parent_pid(P) when is_pid(P) -> P;
parent_pid(Name) -> whereis(Name).

handle_call(state, _From, S = {_, U}) -> {reply, U, S};
handle_call(sync, _From, S) -> {reply, ok, S}.

handle_cast(Msg, S) -> handle(Msg, S).

handle_info(Msg, S) -> handle(Msg, S).

handle(Msg, {Handle, U}) ->
    case Handle(Msg, U) of
        {noreply, U2} -> {noreply, {Handle, U2}};
        {stop, Reason, U2} -> {stop, Reason, {Handle, U2}}
    end.
