%% concord_expect: what an exported Common Test suite or ExUnit test (concord
%% export --as ct|exunit) uses beside the BEAM runtime it ships: loading the
%% runtime and the program from source, one run of the program under the shared
%% conductor, and the comparison of its result line with the expected one, which
%% names the first difference (a field path such as journal[3].to, both values).
%% It needs nothing of concord: only OTP (and Elixir for an ExUnit test).
-module(concord_expect).
-export([load_erlang/1, check/6, first_difference/2]).

%% Compiles and loads every *.erl of Dir, in memory. concord_target goes first: it
%% is the behaviour of the others.
load_erlang(Dir) ->
    Files = lists:sort(filelib:wildcard(filename:join(Dir, "*.erl"))),
    {First, Rest} = lists:partition(fun(F) -> filename:basename(F) =:= "concord_target.erl" end, Files),
    lists:foreach(fun load_one/1, First ++ Rest).

load_one(File) ->
    case compile:file(File, [binary, return_errors, {i, filename:dirname(File)}]) of
        {ok, Mod, Beam} -> {module, Mod} = code:load_binary(Mod, File, Beam);
        {ok, Mod, Beam, _Warnings} -> {module, Mod} = code:load_binary(Mod, File, Beam);
        {error, Errors, _} -> erlang:error({does_not_compile, File, Errors})
    end.

%% One run of the program Mod on target Target (concord_otp, concord_elixir) under
%% its own conductor process, as the concord node runs it; ok when its result line
%% is Expected byte for byte, else {differ, Text}.
check(Target, Mod, Seed, Turns, Max, Expected) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {self(), concord_conductor:run(Target, Mod, Seed, Turns, Max)} end),
    Got = receive
              {Pid, Line} ->
                  erlang:demonitor(Ref, [flush]),
                  string:trim(iolist_to_binary(Line), trailing, "\n");
              {'DOWN', Ref, process, Pid, Why} ->
                  iolist_to_binary(io_lib:format("the conductor crashed: ~0p", [Why]))
          end,
    case first_difference(Expected, Got) of
        none -> ok;
        Text -> {differ, iolist_to_binary([io_lib:format("run seed ~b, ~b turns, ~b processes: ", [Seed, Turns, Max]),
                                           Text, answer_if_error(Got)])}
    end.

%% An error answer is shown whole: its message says what went wrong.
answer_if_error(<<"{\"ok\":true", _/binary>>) -> "";
answer_if_error(Got) -> ["; the answer: ", Got].

%% --- the first difference of two JSON lines ---------------------------------------
%% Both are canonical lines, equal up to byte I. The path of byte I is read from the
%% expected line (the same as the actual one's before I); the values shown are the
%% innermost element around I in each line. When both lines are at a comma or a
%% closing bracket there, an element is missing from one of them: the next one.

first_difference(Same, Same) -> none;
first_difference(Exp, Got) ->
    I = common_prefix(Exp, Got, 0),
    {Stack, Inside} = walk(Exp, 0, I, [{top, 0, 0}], false),
    InString = Inside =/= false,
    ExpC = at(Exp, I),
    GotC = at(Got, I),
    case {not InString andalso structural(ExpC) andalso structural(GotC), Stack} of
        {true, [{arr, N, _} | Up]} ->  % an item is missing from one array: the one after this one
            Path = [N + 1 | keys(Up)],
            Shown = [after_comma(Exp, I), after_comma(Got, I)];
        {true, [{obj, _, _} | Up]} ->  % a member is missing from one object: the object
            {Path, Start} = element_of(Up),
            Shown = [value_at(Exp, Start), value_at(Got, Start)];
        _ ->
            {Path, Start} = element_of(Stack),
            Shown = [value_at(Exp, Start), value_at(Got, Start)]
    end,
    io_lib:format("first difference at ~s: expected ~s, got ~s", [path(Path) | Shown]).

common_prefix(A, B, I) when I < byte_size(A), I < byte_size(B) ->
    case binary:at(A, I) =:= binary:at(B, I) of
        true -> common_prefix(A, B, I + 1);
        false -> I
    end;
common_prefix(_, _, I) -> I.

at(B, I) when I < byte_size(B) -> binary:at(B, I);
at(_, _) -> eof.

structural(C) -> C =:= $, orelse C =:= $] orelse C =:= $} orelse C =:= eof.

%% A frame: {obj, KeyOrNone, ElementStart} (KeyOrNone = none while a key is read)
%% or {arr, Index, ElementStart}; the bottom frame {top, 0, 0} is the whole line.
walk(_B, I, I, Stack, InString) -> {Stack, InString};
walk(B, J, I, Stack, {key, From}) ->  % inside a key
    case binary:at(B, J) of
        $\\ -> walk(B, J + 2, I, Stack, {key, From});
        $" -> [{obj, _, S} | Up] = Stack, walk(B, J + 1, I, [{obj, {pending, binary:part(B, From, J - From)}, S} | Up], false);
        _ -> walk(B, J + 1, I, Stack, {key, From})
    end;
walk(B, J, I, Stack, true) ->  % inside a string value
    case binary:at(B, J) of
        $\\ -> walk(B, J + 2, I, Stack, true);
        $" -> walk(B, J + 1, I, Stack, false);
        _ -> walk(B, J + 1, I, Stack, true)
    end;
walk(B, J, I, Stack = [Top | Up], false) ->
    case {binary:at(B, J), Top} of
        {$", {obj, none, _}} -> walk(B, J + 1, I, Stack, {key, J + 1});
        {$", _} -> walk(B, J + 1, I, Stack, true);
        {${, _} -> walk(B, J + 1, I, [{obj, none, J + 1} | Stack], false);
        {$[, _} -> walk(B, J + 1, I, [{arr, 0, J + 1} | Stack], false);
        {$:, {obj, {pending, K}, _}} -> walk(B, J + 1, I, [{obj, K, J + 1} | Up], false);
        {$,, {obj, _, _}} -> walk(B, J + 1, I, [{obj, none, J + 1} | Up], false);
        {$,, {arr, N, _}} -> walk(B, J + 1, I, [{arr, N + 1, J + 1} | Up], false);
        {C, _} when C =:= $}; C =:= $] -> walk(B, J + 1, I, Up, false);
        _ -> walk(B, J + 1, I, Stack, false)
    end.

%% The element I lies in: a member's value, an array's item, or (inside a key, or
%% between members) the enclosing object as a whole.
element_of([{obj, K, S} | Up]) when is_binary(K) -> {[K | keys(Up)], S};
element_of([{arr, N, S} | Up]) -> {[N | keys(Up)], S};
element_of([{obj, _, _} | Up]) -> element_of(Up);
element_of([{top, _, S}]) -> {[], S}.

keys([{obj, K, _} | Up]) when is_binary(K) -> [K | keys(Up)];
keys([{arr, N, _} | Up]) -> [N | keys(Up)];
keys([_ | Up]) -> keys(Up);
keys([]) -> [].

path([]) -> "the whole answer";
path(Rev) ->
    lists:flatten([case P of
                       N when is_integer(N) -> io_lib:format("[~b]", [N]);
                       K -> [$. | binary_to_list(K)]
                   end || P <- lists:reverse(Rev)]) -- ".".

%% The element after the comma at I, or "(nothing)" at a closing bracket.
after_comma(B, I) ->
    case at(B, I) of
        $, -> value_at(B, I + 1);
        _ -> "(nothing)"
    end.

%% The value that starts at S, shortened to 300 bytes.
value_at(B, S) when S >= byte_size(B) -> "(nothing)";
value_at(B, S) ->
    V = binary:part(B, S, value_end(B, S, 0, false) - S),
    case byte_size(V) > 300 of
        true -> [binary:part(V, 0, 300), "..."];
        false -> V
    end.

value_end(B, J, _D, _S) when J >= byte_size(B) -> byte_size(B);
value_end(B, J, D, true) ->
    case binary:at(B, J) of
        $\\ -> value_end(B, J + 2, D, true);
        $" -> value_end(B, J + 1, D, false);
        _ -> value_end(B, J + 1, D, true)
    end;
value_end(B, J, D, false) ->
    case binary:at(B, J) of
        $" -> value_end(B, J + 1, D, true);
        C when C =:= ${; C =:= $[ -> value_end(B, J + 1, D + 1, false);
        C when C =:= $}, D =:= 0; C =:= $], D =:= 0 -> J;
        C when C =:= $}; C =:= $] -> value_end(B, J + 1, D - 1, false);
        $, when D =:= 0 -> J;
        _ -> value_end(B, J + 1, D, false)
    end.
