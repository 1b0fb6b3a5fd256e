%% concord_node: the persistent BEAM node of the erlang target. It reads frames
%% from stdin (targets/erlang/README.md: a 4-byte big-endian length, a line of
%% `SEED TURNS MAX` runs separated by `;`, then the module's source), compiles the
%% module in memory, runs each seed under its own conductor, writes one result line
%% per run on stdout, purges the module and waits for the next frame. It runs until
%% stdin closes. stdout carries results only; nothing else may print there, so the
%% logger is silenced.
-module(concord_node).
-export([main/0, run_frame/1]).

-define(MODULE_NAME, concord_prog).

main() ->
    logger:set_primary_config(level, none),  % OTP's reports are ours to read, not to print
    start_stats(os:getenv("CONCORD_NODE_STATS")),
    Port = open_port({fd, 0, 1}, [binary, stream, eof]),
    loop(Port, <<>>).

%% For the soak benchmark (bench/soak.py): with $CONCORD_NODE_STATS set to a folder,
%% the node appends one JSON line of its own figures every 10 s to
%% FOLDER/node-OSPID.jsonl: what grows inside the VM, where /proc cannot see.
start_stats(false) -> ok;
start_stats("") -> ok;
start_stats(Dir) ->
    File = filename:join(Dir, "node-" ++ os:getpid() ++ ".jsonl"),
    spawn(fun() -> stats_loop(File) end).

stats_loop(File) ->
    Line = io_lib:format("{\"t\":~b,\"atoms\":~b,\"processes\":~b,\"memory\":~b,\"ets\":~b,\"modules\":~b}~n",
                         [erlang:system_time(second), erlang:system_info(atom_count),
                          erlang:system_info(process_count), erlang:memory(total), length(ets:all()),
                          length(code:all_loaded())]),
    ok = file:write_file(File, Line, [append]),
    timer:sleep(10000),
    stats_loop(File).

loop(Port, Buffer) ->
    case Buffer of
        <<Len:32, Frame:Len/binary, Rest/binary>> ->
            run_frame(Frame, fun(Line) -> port_command(Port, Line) end),
            loop(Port, Rest);
        _ ->
            receive
                {Port, {data, Data}} -> loop(Port, <<Buffer/binary, Data/binary>>);
                {Port, eof} -> halt(0)
            end
    end.

%% For tests and benchmarks from an Erlang shell: the lines, as a list.
run_frame(Frame) ->
    Self = self(),
    run_frame(Frame, fun(Line) -> Self ! {line, iolist_to_binary(Line)} end),
    collect().

collect() -> receive {line, L} -> [L | collect()] after 0 -> [] end.

run_frame(Frame, Write) ->
    case binary:split(Frame, <<"\n">>) of
        [RunsLine, Source] ->
            Runs = parse_runs(RunsLine),
            case load(Source) of
                ok ->
                    [Write(run_one(Seed, Turns, Max)) || {Seed, Turns, Max} <- Runs],
                    unload();
                {error, Why} ->
                    Line = concord_json:error_line(<<"INTERNAL">>, ["erlang: the emitted module does not compile: ", Why]),
                    [Write(Line) || _ <- Runs]
            end;
        _ ->
            Write(concord_json:error_line(<<"INTERNAL">>, <<"erlang: a frame without a runs line">>))
    end,
    ok.

parse_runs(Line) ->
    [list_to_tuple([binary_to_integer(N) || N <- binary:split(Run, <<" ">>, [global])])
     || Run <- binary:split(Line, <<";">>, [global]), Run =/= <<>>].

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
                ok;
            {ok, Other, _} ->
                {error, io_lib:format("it defines module ~p, not ~p", [Other, ?MODULE_NAME])};
            {error, Errors, _Warnings} ->
                {error, format_errors(Errors)}
        end
    catch
        throw:{parse, Why} -> {error, Why}
    end.

unload() ->
    code:purge(?MODULE_NAME),   % kills any process a run left behind
    code:delete(?MODULE_NAME),
    code:purge(?MODULE_NAME).

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

%% One run under its own conductor process; a conductor that dies is an INTERNAL
%% error of this target, with the reason.
run_one(Seed, Turns, Max) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), concord_conductor:run(?MODULE_NAME, Seed, Turns, Max)} end),
    receive
        {Pid, Line} ->
            erlang:demonitor(Ref, [flush]),
            Line;
        {'DOWN', Ref, process, Pid, Why} ->
            Text = lists:sublist(lists:flatten(io_lib:format("~0p", [Why])), 2000),
            concord_json:error_line(<<"INTERNAL">>, ["erlang: the conductor crashed: ", Text])
    end.
