%% concord_free_trace: a free run's trace (SPEC §25.6) as one line of JSON, from
%% what the run's processes recorded (concord_free_books) and the final states read
%% at its end (concord_free_run). Strings are escaped as concord_json does
%% (canonical, SPEC §9.3); keys are written in the order of §25.6's tables, though
%% a trace's reader takes them in any order.
-module(concord_free_trace).
-export([line/1, reason/1]).

%% #{run := {Seed, Turns, Max}, outcome := atom(), given := [{To, Inc | null}],
%%   workers := [{Name, Inc, By, Events, Exit, State}],
%%   supervisors := [{Name, Inc, By, Events, Exit, Children}]}
%% By: null | {Name, Inc}; Exit: a reason, or alive; State: [{Field, Value}] or none
%% (dead); Children: [{Name, Running}] or none (dead).
line(#{run := {Seed, Limit, Max}, outcome := Outcome, given := Given, workers := Ws, supervisors := Ss}) ->
    [<<"{\"ok\":true,\"mode\":\"free\",\"run\":{\"seed\":">>, integer_to_binary(Seed),
     <<",\"turns\":">>, integer_to_binary(Limit), <<",\"max_processes\":">>, integer_to_binary(Max),
     <<"},\"outcome\":\"">>, atom_to_binary(Outcome), <<"\",\"given\":">>,
     array([[<<"{\"to\":">>, str(To), <<",\"inc\":">>, int_or_null(Inc), $}] || {To, Inc} <- Given]),
     <<",\"workers\":">>, array([worker(W) || W <- Ws]),
     <<",\"supervisors\":">>, array([supervisor(S) || S <- Ss]),
     <<"}\n">>].

worker({Name, Inc, By, Events, Exit, State}) ->
    [incarnation(Name, Inc, By, Events, Exit),
     case State of
         none -> [];
         Fields -> [<<",\"state\":{">>, lists:join($,, [[str(F), $:, value(V)] || {F, V} <- Fields]), $}]
     end, $}].

supervisor({Name, Inc, By, Events, Exit, Children}) ->
    [incarnation(Name, Inc, By, Events, Exit),
     case Children of
         none -> [];
         Cs -> [<<",\"children\":">>,
                array([[<<"{\"name\":">>, str(C), <<",\"running\":">>, atom_to_binary(R), $}] || {C, R} <- Cs])]
     end, $}].

%% The keys every incarnation has; the caller closes the object.
incarnation(Name, Inc, By, Events, Exit) ->
    [<<"{\"name\":">>, str(Name), <<",\"inc\":">>, integer_to_binary(Inc), <<",\"by\":">>, ref(By),
     <<",\"events\":">>, array([event(E) || E <- Events]),
     <<",\"exit\":">>, case Exit of
                           alive -> <<"null">>;
                           R -> str(reason(R))
                       end].

%% The events as the runtime records them (concord_free_worker, concord_free_sup).
event({deliver, From, N, Tag, Args}) ->
    [<<"{\"ev\":\"deliver\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N),
     <<",\"tag\":">>, str(Tag), <<",\"args\":">>, array([value(V) || V <- Args]), $}];
event({deliver_call, From, N, Tag, Args}) ->  % a call message (SPEC §18.1)
    [<<"{\"ev\":\"deliver\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N),
     <<",\"tag\":">>, str(Tag), <<",\"args\":">>, array([value(V) || V <- Args]), <<",\"call\":true}">>];
event({deliver_signal, Tag, Args, Signal}) ->  % a system message (SPEC §16.4)
    [<<"{\"ev\":\"deliver\",\"tag\":">>, str(Tag), <<",\"args\":">>, array([value(V) || V <- Args]),
     case Signal of
         {link, From} -> [<<",\"signal\":\"link\",\"from\":">>, ref(From)];
         {exit, From, N} -> [<<",\"signal\":\"exit\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N)];
         {down, From, M} -> [<<",\"signal\":\"down\",\"from\":">>, ref(From), <<",\"monitor\":">>, integer_to_binary(M)];
         {noproc, N} -> [<<",\"signal\":\"noproc\",\"n\":">>, integer_to_binary(N)]
     end, $}];
event({resume, From, N, Value}) ->
    [<<"{\"ev\":\"resume\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N),
     <<",\"value\":">>, value(Value), $}];
event({Ev, N, To, Inc}) when Ev =:= link; Ev =:= unlink; Ev =:= monitor; Ev =:= demonitor; Ev =:= exit_signal;
                             Ev =:= call ->
    [<<"{\"ev\":\"">>, atom_to_binary(Ev), <<"\",\"n\":">>, integer_to_binary(N), <<",\"to\":">>, str(To),
     <<",\"inc\":">>, int_or_null(Inc), $}];
event({reply, N}) ->
    [<<"{\"ev\":\"reply\",\"n\":">>, integer_to_binary(N), $}];
event({api, N, Op, Sup, Result}) ->
    [<<"{\"ev\":\"api\",\"n\":">>, integer_to_binary(N), <<",\"op\":\"">>, atom_to_binary(Op),
     <<"\",\"supervisor\":">>, ref(Sup), <<",\"result\":">>,
     case Result of null -> <<"null">>; _ -> [$", atom_to_binary(Result), $"] end, $}];
event({retry, Child}) ->
    [<<"{\"ev\":\"retry\",\"child\":">>, str(Child), $}];
event({api_request, From, N}) ->
    [<<"{\"ev\":\"api\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N), $}];
event({send, N, To, Inc}) ->
    [<<"{\"ev\":\"send\",\"n\":">>, integer_to_binary(N), <<",\"to\":">>, str(To),
     <<",\"inc\":">>, integer_to_binary(Inc), $}];
event({drop, N, To}) ->
    [<<"{\"ev\":\"drop\",\"n\":">>, integer_to_binary(N), <<",\"to\":">>, str(To), $}];
event({spawn, N, Name, Result}) ->
    [<<"{\"ev\":\"spawn\",\"n\":">>, integer_to_binary(N), <<",\"name\":">>, str(Name),
     <<",\"result\":\"">>, atom_to_binary(Result), <<"\"}">>];
event({refused, N, Code}) ->
    [<<"{\"ev\":\"spawn\",\"n\":">>, integer_to_binary(N), <<",\"refused\":">>, str(Code), $}];
event({exit, Child, Reason}) ->
    [<<"{\"ev\":\"exit\",\"child\":">>, ref(Child), <<",\"reason\":">>, str(reason(Reason)), $}];
event({start_child, From, N, Child}) ->
    [<<"{\"ev\":\"start_child\",\"from\":">>, ref(From), <<",\"n\":">>, integer_to_binary(N),
     <<",\"child\":">>, str(Child), $}];
event({decision, Child, Action}) ->
    [<<"{\"ev\":\"decision\",\"child\":">>, str(Child), <<",\"action\":\"">>, atom_to_binary(Action), <<"\"}">>].

%% An exit reason as SPEC §15 writes it, or error for one no rule gives (the
%% caller answers INTERNAL). A supervisor whose start fails exits with OTP's
%% {shutdown, {failed_to_start_child, ...}}, written shutdown (§15).
reason(normal) -> <<"normal">>;
reason(shutdown) -> <<"shutdown">>;
reason({shutdown, _}) -> <<"shutdown">>;
reason(killed) -> <<"killed">>;
reason(noproc) -> <<"noproc">>;
reason({fail, Code}) when is_binary(Code) -> Code;
reason(_) -> error.

%% An incarnation [name, inc], or null.
ref(null) -> <<"null">>;
ref({Name, Inc}) -> [$[, str(Name), $,, integer_to_binary(Inc), $]].

int_or_null(null) -> <<"null">>;
int_or_null(I) -> integer_to_binary(I).

%% A value (SPEC §9.1, §22): an int, an addr (a name) or a reason.
value(V) when is_integer(V) -> integer_to_binary(V);
value(V) when is_binary(V) -> str(V);
value(V) -> str(reason(V)).

str(S) -> concord_json:string(S).

array(Items) -> [$[, lists:join($,, Items), $]].
