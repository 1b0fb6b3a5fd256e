%% concord_json: a run's result in the canonical serialisation (SPEC §9.3), as
%% iodata. The conductor keeps events as plain tuples; this module is the only
%% place that knows key order and escaping, as oracle/result.cpp is for the oracle.
-module(concord_json).
-export([result/1, event/1, failure/1, decision/1, error_line/2, string/1]).

%% #{run := {Seed, Turns, Max}, outcome := atom(), turns := integer(),
%%   journal, failures, decisions := the rendered items, comma-separated (event/1,
%%   failure/1, decision/1), processes := [{Id, Name, KindName}],
%%   alive := [{Name, [{Field, Value}]}], supervisors := [{Name, Alive, [{Child, Running}]}]}
result(#{run := {Seed, Limit, Max}, outcome := Outcome, turns := Turns, journal := Journal,
         failures := Failures, decisions := Decisions, processes := Procs, alive := Alive, supervisors := Sups}) ->
    [<<"{\"ok\":true,\"run\":{\"seed\":">>, integer_to_binary(Seed),
     <<",\"turns\":">>, integer_to_binary(Limit),
     <<",\"max_processes\":">>, integer_to_binary(Max),
     <<"},\"outcome\":\"">>, atom_to_binary(Outcome), <<"\",\"turns\":">>, integer_to_binary(Turns),
     <<",\"journal\":[">>, Journal, <<"],\"failures\":[">>, Failures, <<"],\"decisions\":[">>, Decisions, $],
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
%% Each is one binary, built in one go: a journal can hold millions of events.
event({deliver, Turn, Ready, To, From, Tag, Args}) ->
    <<"{\"ev\":\"deliver\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"ready\":",
      (integer_to_binary(Ready))/binary, ",\"to\":", (name(To))/binary, ",\"from\":", (name_or_null(From))/binary,
      ",\"tag\":", (name(Tag))/binary, ",\"args\":", (values(Args))/binary, "}">>;
event({call, Turn, Ready, To, From, Tag, Args}) ->  % a call message (SPEC §22)
    <<"{\"ev\":\"call\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"ready\":",
      (integer_to_binary(Ready))/binary, ",\"to\":", (name(To))/binary, ",\"from\":", (name(From))/binary,
      ",\"tag\":", (name(Tag))/binary, ",\"args\":", (values(Args))/binary, "}">>;
event({resume, Turn, Ready, To, From, Value}) ->
    <<"{\"ev\":\"resume\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"ready\":",
      (integer_to_binary(Ready))/binary, ",\"to\":", (name(To))/binary, ",\"from\":", (name(From))/binary,
      ",\"value\":", (value(Value))/binary, "}">>;
event({api, Turn, From, Sup, Op, Child, Result}) ->  % SPEC §22
    <<"{\"ev\":\"api\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"from\":", (name(From))/binary,
      ",\"supervisor\":", (name(Sup))/binary, ",\"op\":\"", (atom_to_binary(Op))/binary, "\",\"child\":",
      (name(Child))/binary, ",\"result\":\"", (atom_to_binary(Result))/binary, "\"}">>;
event({start, Turn, Name, Kind}) ->
    <<"{\"ev\":\"start\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"name\":", (name(Name))/binary,
      ",\"kind\":", (name(Kind))/binary, "}">>;
event({drop, Turn, From, To, Tag, Args}) ->
    <<"{\"ev\":\"drop\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"from\":", (name_or_null(From))/binary,
      ",\"to\":", (name(To))/binary, ",\"tag\":", (name(Tag))/binary, ",\"args\":", (values(Args))/binary, "}">>;
event({exit, Turn, Name, Reason}) ->
    <<"{\"ev\":\"exit\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"name\":", (name(Name))/binary,
      ",\"reason\":", (string(reason(Reason)))/binary, "}">>;
event({signal, Turn, Kind, From, To, Reason, Effect}) ->
    <<"{\"ev\":\"signal\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"kind\":\"", (atom_to_binary(Kind))/binary,
      "\",\"from\":", (name(From))/binary, ",\"to\":", (name(To))/binary, ",\"reason\":", (string(reason(Reason)))/binary,
      ",\"effect\":\"", (atom_to_binary(Effect))/binary, "\"}">>;
event({decision, Turn, Sup, Proc, Action}) ->
    <<"{\"ev\":\"decision\",\"turn\":", (integer_to_binary(Turn))/binary, ",\"supervisor\":", (name(Sup))/binary,
      ",\"process\":", (name(Proc))/binary, ",\"action\":\"", (atom_to_binary(Action))/binary, "\"}">>.

failure({exit, Turn, Name, Reason}) ->
    <<"{\"process\":", (string(Name))/binary, ",\"code\":", (string(reason(Reason)))/binary, ",\"turn\":",
      (integer_to_binary(Turn))/binary, "}">>.

decision({decision, Turn, Sup, Proc, Action}) ->
    <<"{\"process\":", (string(Proc))/binary, ",\"supervisor\":", (string(Sup))/binary, ",\"action\":\"",
      (atom_to_binary(Action))/binary, "\",\"turn\":", (integer_to_binary(Turn))/binary, "}">>.

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
reason(killed) -> <<"killed">>;
reason(noproc) -> <<"noproc">>;
reason(kill) -> <<"kill">>;
reason({fail, Code}) -> Code;
reason(Other) -> iolist_to_binary(io_lib:format("~0p", [Other])).

value(V) when is_integer(V) -> integer_to_binary(V);
value(V) when is_binary(V) -> name(V);
value(V) -> name(reason(V)).  % a reason (SPEC §22): normal, shutdown, killed, noproc, a code

values([]) -> <<"[]">>;
values(Vs) -> iolist_to_binary([$[, lists:join($,, [value(V) || V <- Vs]), $]]).

name_or_null(null) -> <<"null">>;
name_or_null(Name) -> name(Name).

%% A name, tag, kind or failure code of the program: its forms (SPEC §2, which the
%% program's check enforced before it was emitted) never need escaping.
name(S) -> <<$", S/binary, $">>.

array(Items) -> [$[, lists:join($,, Items), $]].

%% A JSON string, as a binary: \" \\ \b \f \n \r \t, other bytes below 0x20 as
%% \u00xx (lower-case hex), everything else as itself. Names never need escaping
%% (SPEC §2), so the common case is one pass that finds nothing.
string(S) when is_list(S) -> string(unicode:characters_to_binary(S));
string(S) when is_binary(S) ->
    case plain(S) of
        true -> <<$", S/binary, $">>;
        false -> iolist_to_binary([$", [escape_char(C) || <<C>> <= S], $"])
    end.

plain(<<C, Rest/binary>>) when C >= 16#20, C =/= $", C =/= $\\ -> plain(Rest);
plain(<<>>) -> true;
plain(_) -> false.

escape_char($") -> <<"\\\"">>;
escape_char($\\) -> <<"\\\\">>;
escape_char($\b) -> <<"\\b">>;
escape_char($\f) -> <<"\\f">>;
escape_char($\n) -> <<"\\n">>;
escape_char($\r) -> <<"\\r">>;
escape_char($\t) -> <<"\\t">>;
escape_char(C) when C < 16#20 -> io_lib:format("\\u~4.16.0b", [C]);
escape_char(C) -> C.
