%% exp_sup: the supervisor callback module of the version 2 experiments. A
%% supervisor is started with its flags and child specs as the argument and
%% reports {sup_started, Id} to exp_collector, which also watches it
%% ({down, Id, Reason} when it exits).
-module(exp_sup).
-behaviour(supervisor).

-export([start_link/3, spec/5, flags/2, flags/3]).
-export([init/1]).

%% Flags: strategy and intensity, with a period long enough never to expire
%% (as the version 1 experiments), and optionally auto_shutdown.
flags(Strategy, MaxR) -> #{strategy => Strategy, intensity => MaxR, period => 3600}.
flags(Strategy, MaxR, AutoShutdown) -> (flags(Strategy, MaxR))#{auto_shutdown => AutoShutdown}.

start_link(Id, Flags, Specs) -> supervisor:start_link(?MODULE, {Id, Flags, Specs}).

%% A child spec for a nested supervisor.
spec(Id, Restart, Flags, Specs, Significant) ->
    #{id => Id, start => {?MODULE, start_link, [Id, Flags, Specs]}, restart => Restart,
      significant => Significant, shutdown => infinity, type => supervisor, modules => [?MODULE]}.

init({Id, Flags, Specs}) ->
    exp_lib:register_sup(Id, self()),
    exp_lib:watch(Id),
    exp_collector ! {sup_started, Id},
    {ok, {Flags, Specs}}.
