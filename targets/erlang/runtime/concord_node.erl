%% concord_node: the persistent BEAM node of the BEAM targets (erlang, elixir). It
%% reads frames from stdin (targets/erlang/README.md: a 4-byte big-endian length, a
%% line of `SEED TURNS MAX` runs separated by `;`, then the program's source), has
%% its target compile and load the program (concord_target), runs each seed under
%% its own conductor, writes one result line per run on stdout, has the target
%% purge the program and waits for the next frame. A frame whose runs line starts
%% with `free ` asks for free runs (SPEC §25): each is run by concord_free_run, with
%% no conductor, one at a time, each cleaned up before the next, and answers a
%% trace. It runs until stdin closes. Once set up, before the first frame, it prints
%% `concord ready` (its boot is not a run's time: targets/common/framed_runtime.hpp).
%% stdout carries results only; nothing else may print there, so the logger is
%% silenced.
%%
%%   erl ... -s concord_node main                  the erlang target (concord_otp)
%%   erl ... -s concord_node main concord_elixir   another target: its concord_target module
-module(concord_node).
-export([main/0, main/1, run_frame/1, run_frame/2, load_apart/2]).

main() -> main([concord_otp]).

main([Target]) ->
    logger:set_primary_config(level, none),  % OTP's reports are ours to read, not to print
    ok = concord_reports:install(),           % but for supervisors giving up (SPEC §21)
    start_stats(os:getenv("CONCORD_NODE_STATS")),
    ok = Target:setup(),
    Port = open_port({fd, 0, 1}, [binary, stream, eof]),
    port_command(Port, <<"concord ready\n">>),  % up: the launcher's first run timeout starts now
    loop(Target, Port, <<>>).

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

loop(Target, Port, Buffer) ->
    case Buffer of
        <<Len:32, Frame:Len/binary, Rest/binary>> ->
            run_frame(Target, Frame, fun(Line) -> port_command(Port, Line) end),
            loop(Target, Port, Rest);
        _ ->
            receive
                {Port, {data, Data}} -> loop(Target, Port, <<Buffer/binary, Data/binary>>);
                {Port, eof} -> halt(0)
            end
    end.

%% For tests and benchmarks from an Erlang shell: the lines, as a list.
run_frame(Frame) -> run_frame(concord_otp, Frame).

run_frame(Target, Frame) ->
    Self = self(),
    run_frame(Target, Frame, fun(Line) -> Self ! {line, iolist_to_binary(Line)} end),
    collect().

collect() -> receive {line, L} -> [L | collect()] after 0 -> [] end.

run_frame(Target, Frame, Write) ->
    Who = Target:name(),
    case binary:split(Frame, <<"\n">>) of
        [<<"free ", RunsLine/binary>>, _Source] when Target =/= concord_otp, Target =/= concord_elixir ->
            %% Free runs (SPEC §25) are the erlang and elixir targets' (concord_free_run).
            [Write(concord_json:error_line(<<"UNSUPPORTED">>, [Who, <<": free runs (SPEC 25) are not implemented">>]))
             || _ <- parse_runs(RunsLine)];
        [<<"free ", RunsLine/binary>>, Source] ->
            run_loaded(Who, Target, Source, parse_runs(RunsLine), fun run_free/5, Write);
        [RunsLine, Source] ->
            run_loaded(Who, Target, Source, parse_runs(RunsLine),
                       fun(Mod, Seed, Turns, Max, W) -> run_one(W, Target, Mod, Seed, Turns, Max) end, Write);
        _ ->
            Write(concord_json:error_line(<<"INTERNAL">>, [Who, <<": a frame without a runs line">>]))
    end,
    ok.

%% The program loaded, each run of Runs by Run(Mod, Seed, Turns, Max, Who), one
%% after the other, each line written as it comes; then the program purged.
run_loaded(Who, Target, Source, Runs, Run, Write) ->
    case load_apart(Target, Source) of
        {ok, Mod, Loaded} ->
            [Write(Run(Mod, Seed, Turns, Max, Who)) || {Seed, Turns, Max} <- Runs],
            Target:unload(Loaded);
        {error, Why} ->
            Line = concord_json:error_line(<<"INTERNAL">>, [Who, ": the emitted module does not compile: ", Why]),
            [Write(Line) || _ <- Runs]
    end.

%% The program is compiled and loaded by a process of its own, born with a heap the
%% size of the compiler's work and thrown away with it. Compiled in a long-lived
%% process whose heap stays small, the compiler's ~1.4 M words of garbage per
%% program cost up to ~120 collections (2 in a process born with 1 M words): the
%% node's CPU time in a 400-program erlang campaign went from 15.0 s to 11.6 s. The
%% code it loads is the node's. A compiler that crashes is the program's error, as
%% one that returns an error.
-define(LOAD_HEAP_WORDS, 1 bsl 20).

load_apart(Target, Source) ->
    Self = self(),
    {Pid, Ref} = spawn_opt(fun() -> Self ! {self(), Target:load(Source)} end,
                           [monitor, {min_heap_size, ?LOAD_HEAP_WORDS}]),
    receive
        {Pid, Result} ->
            erlang:demonitor(Ref, [flush]),
            Result;
        {'DOWN', Ref, process, Pid, Why} ->
            {error, "the compiler crashed: " ++ text(Why)}
    end.

%% A crash's reason as text, its first 2,000 characters.
text(Why) -> lists:sublist(lists:flatten(io_lib:format("~0p", [Why])), 2000).

parse_runs(Line) ->
    [list_to_tuple([binary_to_integer(N) || N <- binary:split(Run, <<" ">>, [global])])
     || Run <- binary:split(Line, <<";">>, [global]), Run =/= <<>>].

%% One run under its own conductor process; a conductor that dies is an INTERNAL
%% error of this target, with the reason.
run_one(Who, Target, Mod, Seed, Turns, Max) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), concord_conductor:run(Target, Mod, Seed, Turns, Max)} end),
    receive
        {Pid, Line} ->
            erlang:demonitor(Ref, [flush]),
            Line;
        {'DOWN', Ref, process, Pid, Why} ->
            concord_json:error_line(<<"INTERNAL">>, [Who, ": the conductor crashed: ", text(Why), where(Why)])
    end.

%% One free run (SPEC §25, concord_free_run) in a process of its own, which cleans up
%% after it even when it fails; one that crashes is an INTERNAL error, with the reason.
run_free(Mod, Seed, Turns, Max, Who) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), concord_free_run:run(Mod, Seed, Turns, Max)} end),
    receive
        {Pid, Line} ->
            erlang:demonitor(Ref, [flush]),
            Line;
        {'DOWN', Ref, process, Pid, Why} ->
            concord_json:error_line(<<"INTERNAL">>, [Who, ": the free run crashed: ", text(Why), where(Why)])
    end.

%% Where the crash was raised, as " [at M:F/A]" (runners/PROTOCOL.md): the innermost
%% frame of its stack in this runtime's modules (a crash in lists:nth/2 is met in
%% the concord_ function that called it), else the innermost; nothing for a reason
%% without a stack. Triage puts crashes raised in two places in two buckets, one in
%% one however its programs differ.
where({_, [{_, _, _, _} | _] = Stack}) ->
    Ours = [Frame || {M, _, _, _} = Frame <- Stack, is_atom(M), lists:prefix("concord", atom_to_list(M))],
    case Ours ++ Stack of
        [{M, F, A, _} | _] when is_atom(M), is_atom(F) ->
            Arity = if is_list(A) -> length(A); true -> A end,
            io_lib:format(" [at ~s:~s/~b]", [M, F, Arity]);
        _ ->
            ""
    end;
where(_) ->
    "".
