%% concord_json: a run's result in the canonical serialisation (SPEC §9.3), as
%% iodata. The conductor keeps events as plain tuples; this module is the only
%% place that knows key order and escaping, as oracle/result.cpp is for the oracle.
-module(concord_json).
-export([result/1, error_line/2, string/1]).

%% #{run := {Seed, Turns, Max}, outcome := atom(), turns := integer(),
%%   journal := [event()] (oldest first), processes := [{Id, Name, KindName}],
%%   alive := [{Name, [{Field, Value}]}], supervisors := [{Name, Alive, [{Child, Running}]}]}
result(#{run := {Seed, Limit, Max}, outcome := Outcome, turns := Turns, journal := Journal,
         processes := Procs, alive := Alive, supervisors := Sups}) ->
    [<<"{\"ok\":true,\"run\":{\"seed\":">>, integer_to_binary(Seed),
     <<",\"turns\":">>, integer_to_binary(Limit),
     <<",\"max_processes\":">>, integer_to_binary(Max),
     <<"},\"outcome\":\"">>, atom_to_binary(Outcome), <<"\",\"turns\":">>, integer_to_binary(Turns),
     <<",\"journal\":">>, array([event(E) || E <- Journal]),
     <<",\"failures\":">>, array([failure(E) || {exit, _, _, {fail, _}} = E <- Journal]),
     <<",\"decisions\":">>, array([decision(E) || {decision, _, _, _, _} = E <- Journal]),
     <<",\"processes\":">>, array([process(P) || P <- Procs]),
     <<",\"alive\":">>, array([alive(A) || A <- Alive]),
     <<",\"supervisors\":">>, array([supervisor(S) || S <- Sups]),
     <<"}\n">>].

error_line(Code, Message) ->
    [<<"{\"ok\":false,\"code\":">>, string(Code), <<",\"message\":">>, string(Message), <<"}\n">>].

%% Events, as the conductor journals them:
%%   {start, Turn, Name, KindName}          KindName = <<"supervisor">> for a supervisor
%%   {deliver, Turn, Ready, To, From, Tag, Args}
%%   {drop, Turn, From, To, Tag, Args}      From = null for a given message
%%   {exit, Turn, Name, Reason}             normal | shutdown | {fail, Code} | anything OTP said
%%   {decision, Turn, Supervisor, Process, Action}
event({start, Turn, Name, Kind}) ->
    [<<"{\"ev\":\"start\",\"turn\":">>, integer_to_binary(Turn), <<",\"name\":">>, string(Name),
     <<",\"kind\":">>, string(Kind), $}];
event({deliver, Turn, Ready, To, From, Tag, Args}) ->
    [<<"{\"ev\":\"deliver\",\"turn\":">>, integer_to_binary(Turn), <<",\"ready\":">>, integer_to_binary(Ready),
     <<",\"to\":">>, string(To), <<",\"from\":">>, name_or_null(From), <<",\"tag\":">>, string(Tag),
     <<",\"args\":">>, array([value(A) || A <- Args]), $}];
event({drop, Turn, From, To, Tag, Args}) ->
    [<<"{\"ev\":\"drop\",\"turn\":">>, integer_to_binary(Turn), <<",\"from\":">>, name_or_null(From),
     <<",\"to\":">>, string(To), <<",\"tag\":">>, string(Tag), <<",\"args\":">>, array([value(A) || A <- Args]), $}];
event({exit, Turn, Name, Reason}) ->
    [<<"{\"ev\":\"exit\",\"turn\":">>, integer_to_binary(Turn), <<",\"name\":">>, string(Name),
     <<",\"reason\":">>, string(reason(Reason)), $}];
event({decision, Turn, Sup, Proc, Action}) ->
    [<<"{\"ev\":\"decision\",\"turn\":">>, integer_to_binary(Turn), <<",\"supervisor\":">>, string(Sup),
     <<",\"process\":">>, string(Proc), <<",\"action\":\"">>, atom_to_binary(Action), <<"\"}">>].

failure({exit, Turn, Name, {fail, Code}}) ->
    [<<"{\"process\":">>, string(Name), <<",\"code\":">>, string(Code), <<",\"turn\":">>, integer_to_binary(Turn), $}].

decision({decision, Turn, Sup, Proc, Action}) ->
    [<<"{\"process\":">>, string(Proc), <<",\"supervisor\":">>, string(Sup), <<",\"action\":\"">>,
     atom_to_binary(Action), <<"\",\"turn\":">>, integer_to_binary(Turn), $}].

process({Id, Name, Kind}) ->
    [<<"{\"id\":">>, integer_to_binary(Id), <<",\"name\":">>, string(Name), <<",\"kind\":">>, string(Kind), $}].

alive({Name, Fields}) ->
    [<<"{\"name\":">>, string(Name), <<",\"state\":{">>,
     lists:join($,, [[string(F), $:, value(V)] || {F, V} <- Fields]), <<"}}">>].

supervisor({Name, Alive, Children}) ->
    [<<"{\"name\":">>, string(Name), <<",\"alive\":">>, atom_to_binary(Alive), <<",\"children\":">>,
     array([[<<"{\"name\":">>, string(C), <<",\"running\":">>, atom_to_binary(R), $}] || {C, R} <- Children]), $}].

%% An exit reason as the journal spells it. Anything but the three forms of the spec
%% is printed as Erlang wrote it, so that a divergence shows what OTP really did.
reason(normal) -> <<"normal">>;
reason(shutdown) -> <<"shutdown">>;
reason({fail, Code}) -> Code;
reason(Other) -> iolist_to_binary(io_lib:format("~0p", [Other])).

value(V) when is_integer(V) -> integer_to_binary(V);
value(V) when is_binary(V) -> string(V).

name_or_null(null) -> <<"null">>;
name_or_null(Name) -> string(Name).

array(Items) -> [$[, lists:join($,, Items), $]].

%% A JSON string: \" \\ \b \f \n \r \t, other bytes below 0x20 as \u00xx (lower-case
%% hex), everything else as itself.
string(S) when is_list(S) -> string(unicode:characters_to_binary(S));
string(S) when is_binary(S) -> [$", escape(S), $"].

escape(S) ->
    case needs_escape(S) of
        false -> S;
        true -> [escape_char(C) || <<C>> <= S]
    end.

needs_escape(<<>>) -> false;
needs_escape(<<C, _/binary>>) when C < 16#20; C =:= $"; C =:= $\\ -> true;
needs_escape(<<_, Rest/binary>>) -> needs_escape(Rest).

escape_char($") -> <<"\\\"">>;
escape_char($\\) -> <<"\\\\">>;
escape_char($\b) -> <<"\\b">>;
escape_char($\f) -> <<"\\f">>;
escape_char($\n) -> <<"\\n">>;
escape_char($\r) -> <<"\\r">>;
escape_char($\t) -> <<"\\t">>;
escape_char(C) when C < 16#20 -> io_lib:format("\\u~4.16.0b", [C]);
escape_char(C) -> C.
