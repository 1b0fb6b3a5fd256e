%% exp_worker: the tiny gen_server worker used by supervision.erl.
%% On init it sends {started, Id} and in terminate/2 it sends
%% {stopped, Id, Reason} to the process registered as concord_collector.
%% It traps exits, so terminate/2 also runs when its supervisor shuts it
%% down (exit signal `shutdown` from the parent).
-module(exp_worker).
-behaviour(gen_server).

-export([start_link/1, exit_with/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

start_link(Id) ->
    gen_server:start_link(?MODULE, Id, []).

%% Make the worker stop with the given reason: normal, shutdown,
%% {shutdown, T} or an abnormal reason such as {fail, 'OOPS'}.
exit_with(Pid, Reason) when is_pid(Pid) ->
    gen_server:cast(Pid, {exit, Reason}).

init(Id) ->
    process_flag(trap_exit, true),
    notify({started, Id}),
    {ok, Id}.

handle_call(_Req, _From, Id) -> {reply, ok, Id}.

handle_cast({exit, Reason}, Id) -> {stop, Reason, Id}.

handle_info(_Msg, Id) -> {noreply, Id}.

terminate(Reason, Id) ->
    notify({stopped, Id, Reason}),
    ok.

notify(Event) ->
    case whereis(concord_collector) of
        undefined -> ok;
        Pid -> Pid ! Event
    end.
