%% concord_reports: a logger handler that tells a run's conductor when one of its
%% supervisors gives up. OTP logs `reached_max_restart_intensity` (supervisor.erl's
%% restart/2) just before the supervisor terminates its children and exits
%% shutdown; an auto_shutdown (SPEC §21) exits shutdown too, but logs nothing. The
%% handler runs inside the supervisor that logs, which knows its conductor
%% (concord_worker:supervisor_started/2), so the conductor reads the difference
%% from OTP's own report, before the supervisor's 'DOWN' (one sender, in order).
-module(concord_reports).
-export([install/0, log/2]).

%% The node prints nothing but results: OTP's default handler goes, and only
%% supervisor's error reports pass the primary level.
install() ->
    _ = logger:remove_handler(default),
    ok = logger:add_handler(?MODULE, ?MODULE, #{level => error}),
    ok = logger:set_module_level(supervisor, error).

log(#{msg := {report, #{label := {supervisor, _}, report := Report}}}, _Config) ->
    case {proplists:get_value(reason, Report), get('$concord_conductor')} of
        {reached_max_restart_intensity, C} when is_pid(C) -> C ! {gave_up, self()};
        _ -> ok
    end;
log(_, _) ->
    ok.
