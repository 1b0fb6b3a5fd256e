%% concord_otp: the erlang target's side of the shared BEAM runtime (the behaviour
%% concord_target): how its module is compiled and loaded, how its workers and
%% supervisors are started, and how an OTP supervisor's which_children answer
%% reads. The emitted module concord_prog is both the gen_server and the
%% supervisor callback module (targets/erlang/README.md).
-module(concord_otp).
-behaviour(concord_target).
-export([name/0, setup/0, load/1, unload/1]).
-export([start_worker/2, start_supervisor/3, start_child/5, children/3, state_children/3]).

-define(MODULE_NAME, concord_prog).

name() -> <<"erlang">>.

setup() -> ok.

%% compile:forms/2 on the parsed source, without the optimisation passes: they
%% cost more compile time than the short runs they would speed up.
-define(COMPILE_OPTIONS, [binary, return_errors, no_spawn_compiler_process,
                          no_ssa_opt, no_bool_opt, no_share_opt, no_recv_opt, no_bsm_opt, no_copt]).

load(Source) ->
    try
        Forms = forms(binary_to_list(Source)),
        case compile:forms(Forms, ?COMPILE_OPTIONS) of
            {ok, ?MODULE_NAME, Beam} ->
                {module, ?MODULE_NAME} = code:load_binary(?MODULE_NAME, "concord_prog.erl", Beam),
                {ok, ?MODULE_NAME, [?MODULE_NAME]};
            {ok, Other, _} ->
                {error, io_lib:format("it defines module ~p, not ~p", [Other, ?MODULE_NAME])};
            {error, Errors, _Warnings} ->
                {error, format_errors(Errors)}
        end
    catch
        throw:{parse, Why} -> {error, Why}
    end.

unload(Modules) ->
    [begin
         code:purge(M),   % kills any process a run left behind
         code:delete(M),
         code:purge(M)
     end || M <- Modules],
    ok.

forms(Source) ->
    case erl_scan:string(Source) of
        {ok, Tokens, _} -> split_forms(Tokens, []);
        {error, {Line, Mod, Desc}, _} -> throw({parse, io_lib:format("line ~p: ~s", [Line, Mod:format_error(Desc)])})
    end.

split_forms([], []) -> [];
split_forms([], _Partial) -> throw({parse, "the source ends inside a form"});
split_forms([Dot = {dot, _} | Rest], Acc) ->
    case erl_parse:parse_form(lists:reverse([Dot | Acc])) of
        {ok, Form} -> [Form | split_forms(Rest, [])];
        {error, {Line, Mod, Desc}} -> throw({parse, io_lib:format("line ~p: ~s", [Line, Mod:format_error(Desc)])})
    end;
%% The parser does not preprocess; ?MODULE is the one macro an emitted module uses.
split_forms([{'?', _}, {var, Anno, 'MODULE'} | Rest], Acc) -> split_forms(Rest, [{atom, Anno, ?MODULE_NAME} | Acc]);
split_forms([T | Rest], Acc) -> split_forms(Rest, [T | Acc]).

format_errors(Errors) ->
    Text = [io_lib:format("line ~p: ~s; ", [Line, Mod:format_error(Desc)])
            || {_File, Es} <- Errors, {Line, Mod, Desc} <- Es],
    lists:sublist(lists:flatten(Text), 2000).

%% --- starting and asking --------------------------------------------------------

start_worker(Mod, Start) -> gen_server:start(Mod, {worker, Start}, []).

%% Version 2: OTP's supervisor (what supervisor:start_link/2 starts), with the
%% conductor's sys debug hook (concord_worker:sup_hook/3).
start_supervisor(Mod, C, Idx) ->
    case erlang:function_exported(Mod, version, 0) andalso Mod:version() >= 2 of
        true -> gen_server:start_link(supervisor, {self, Mod, {supervisor, C, Idx}}, [{debug, [hook(C, Idx)]}]);
        false -> supervisor:start_link(Mod, {supervisor, C, Idx})
    end.

hook(C, Idx) -> {install, {fun concord_worker:sup_hook/3, {concord_hook, C, Idx}}}.  % not a pair: sys would take it for one of its own forms

%% A dynamic child (SPEC §6.6): OTP's start_child on a non-simple supervisor,
%% which appends it to the child list [R10].
%% Restart is {R, significant} for a significant child (SPEC §21).
start_child(Mod, SupIdx, SupPid, Start, {Restart, significant}) ->
    start_child(Mod, SupIdx, SupPid, Start, Restart, #{significant => true});
start_child(Mod, SupIdx, SupPid, Start, Restart) ->
    start_child(Mod, SupIdx, SupPid, Start, Restart, #{}).

start_child(Mod, _SupIdx, SupPid, Start = {_C, _K, Name, _Sup, _Args}, Restart, Extra) ->
    Shutdown = case erlang:function_exported(Mod, version, 0) andalso Mod:version() >= 2 of
                   true -> 200;  % as the emitter's static children (SPEC §16.6 [R50])
                   false -> 5000
               end,
    Spec = #{id => Name, start => {gen_server, start_link, [Mod, {worker, Start}, []]}, restart => Restart,
             shutdown => Shutdown, type => worker, modules => [Mod]},
    supervisor:start_child(SupPid, maps:merge(Spec, Extra)).

%% OTP lists children newest first, by id (the name); start order is the reverse
%% (SPEC §7.7, [R14]).
children(_Mod, _Idx, WhichChildren) ->
    {ids, [{Id, Child} || {Id, Child, _, _} <- lists:reverse(WhichChildren)]}.

%% Version 2: OTP's #state.children ids are newest first.
state_children(_Mod, _Idx, State) ->
    {ids, lists:reverse(concord_worker:otp_children(State))}.
