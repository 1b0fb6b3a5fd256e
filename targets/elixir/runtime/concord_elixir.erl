%% concord_elixir: the elixir target's side of the shared BEAM runtime (the
%% behaviour concord_target of targets/erlang/runtime). A program is Elixir source:
%% Concord.Prog (the program's tables and how it starts and asks its processes),
%% one GenServer module per kind and one Supervisor or DynamicSupervisor module per
%% supervisor (targets/elixir/README.md). It is compiled in memory by Elixir's own
%% compiler (Code.compile_string/2), run by the shared conductor, and purged.
-module(concord_elixir).
-behaviour(concord_target).
-export([name/0, setup/0, load/1, unload/1]).
-export([start_worker/2, start_supervisor/3, start_child/5, children/3, state_children/3]).

-define(MAIN, 'Elixir.Concord.Prog').

name() -> <<"elixir">>.

%% Elixir's compiler needs its application; Concord.Ops (the operators) is in the
%% runtime's ebin, loaded once here rather than at the first program's first turn.
setup() ->
    {ok, _} = application:ensure_all_started(elixir),
    {module, _} = code:ensure_loaded('Elixir.Concord.Ops'),
    ok.

load(Source) ->
    try 'Elixir.Code':compile_string(Source, <<"concord_prog.ex">>) of
        Compiled ->
            Loaded = [M || {M, _Beam} <- Compiled],
            case lists:member(?MAIN, Loaded) of
                true -> {ok, ?MAIN, Loaded};
                false -> unload(Loaded), {error, "it defines no module Concord.Prog"}
            end
    catch
        Class:Reason:Stack ->
            %% Whatever compiled before the error is loaded: purge it.
            unload(loaded()),
            Banner = 'Elixir.Exception':format_banner(Class, Reason, Stack),
            {error, string:slice(Banner, 0, 2000)}
    end.

unload(Modules) ->
    [begin
         code:purge(M),   % kills any process a run left behind
         code:delete(M),
         code:purge(M)
     end || M <- Modules],
    ok.

%% Every module of a program (Concord.Prog and Concord.Prog.*) that is loaded.
loaded() ->
    [M || {M, _} <- code:all_loaded(), lists:prefix("Elixir.Concord.Prog", atom_to_list(M))].

%% --- starting and asking: the emitted Concord.Prog does it, as Elixir code -------

start_worker(Mod, Start) -> Mod:start_worker(Start).

start_supervisor(Mod, C, Idx) -> Mod:start_supervisor(Idx, C).

-ifdef('FAULT_DYNAMIC_CHILD_ALWAYS_PERMANENT').
%% Planted fault (held out 3): a dynamic child's spec is made without its restart
%% type, so it is Elixir's default, :permanent (a significant one keeps its own).
-define(RESTART_TYPE(R), case R of {_, significant} -> R; _ -> permanent end).
-else.
-define(RESTART_TYPE(R), R).
-endif.

-ifdef('FAULT_CHILD_LIST_CAPPED').
%% Planted fault (targets/FAULTS.md): a supervisor holds 100 children at most, as
%% if every DynamicSupervisor were started with max_children: 100.
start_child(Mod, SupIdx, SupPid, Start, Restart) ->
    case proplists:get_value(active, supervisor:count_children(SupPid)) of
        N when N >= 100 -> {error, max_children};
        _ -> Mod:start_child(SupIdx, SupPid, Start, ?RESTART_TYPE(Restart))
    end.
-else.
start_child(Mod, SupIdx, SupPid, Start, Restart) -> Mod:start_child(SupIdx, SupPid, Start, ?RESTART_TYPE(Restart)).
-endif.

children(Mod, Idx, WhichChildren) -> Mod:children(Idx, WhichChildren).

%% Version 2, at the end of a run: a DynamicSupervisor's state is Elixir's own
%% (concord_dynsup), a Supervisor's is OTP's (ids newest first).
state_children(_Mod, _Idx, State = #{'__struct__' := 'Elixir.DynamicSupervisor'}) ->
    {pids, concord_dynsup:children(State)};
state_children(_Mod, _Idx, State) ->
    {ids, start_order(concord_worker:otp_children(State))}.

-ifdef('FAULT_SUPERVISOR_CHILDREN_NEWEST_FIRST').
%% Planted fault (targets/FAULTS.md): the reverse that puts OTP's ids in start order
%% is missing.
start_order(NewestFirst) -> NewestFirst.
-else.
start_order(NewestFirst) -> lists:reverse(NewestFirst).
-endif.
