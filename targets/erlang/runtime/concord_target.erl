%% concord_target: what a BEAM target gives the shared runtime (concord_node,
%% concord_conductor, concord_worker). The conductor, the ready set, the journal
%% and the worker glue are one for every BEAM target; a target differs only in
%% the program it emits and in these callbacks. Implemented by concord_otp (the
%% erlang target) and concord_elixir (targets/elixir/runtime).
-module(concord_target).

%% The target's name, for messages ("erlang: the conductor crashed: ...").
-callback name() -> binary().

%% Once per node, before the first frame.
-callback setup() -> ok.

%% Compiles and loads a program's source. Mod is the module whose functions the
%% runtime calls (supervisors/0, roots/0, given/0, kind_name/1, spawn_prefix/1,
%% fields/2: targets/erlang/README.md); Loaded, every module to purge after the runs.
-callback load(Source :: binary()) -> {ok, Mod :: module(), Loaded :: [module()]} | {error, iodata()}.
-callback unload(Loaded :: [module()]) -> ok.

%% Start is {Conductor, Kind, Name, SupIdx | none, Args}.
%% An unsupervised worker (a root, or spawned without `under`): not linked.
-callback start_worker(Mod :: module(), Start :: tuple()) -> {ok, pid()}.
%% A root supervisor, linked to the caller.
-callback start_supervisor(Mod :: module(), Conductor :: pid(), Idx :: non_neg_integer()) -> {ok, pid()}.
%% A dynamic child of supervisor SupIdx (pid SupPid): {ok, Pid}, or an exit
%% {noproc, _} in the caller when the supervisor is dead (SPEC [R13]).
-callback start_child(Mod :: module(), SupIdx :: non_neg_integer(), SupPid :: pid(), Start :: tuple(),
                      Restart :: permanent | transient | temporary) -> {ok, pid()}.

%% Reads supervisor Idx's answer to which_children: {ids, [{Name, Pid | undefined}]}
%% in start order when the supervisor names its children, or {pids, [Pid]} when
%% it does not (Elixir's DynamicSupervisor: every id is `undefined`); the
%% conductor then names them from its books and lists them in the order their
%% processes started.
-callback children(Mod :: module(), Idx :: non_neg_integer(), WhichChildren :: list()) ->
    {ids, [{binary(), pid() | undefined}]} | {pids, [pid()]}.

%% Version 2: the same read from supervisor Idx's own state (sys:get_state/1) at
%% the end of a run; a child whose failed restart waits for its retry (SPEC §19.3)
%% is `restarting` in {ids, _}, and {restarting, Pid} in {pids, _}, Pid the pid of
%% the exit it restarts.
-callback state_children(Mod :: module(), Idx :: non_neg_integer(), State :: term()) ->
    {ids, [{binary(), pid() | undefined | restarting}]} | {pids, [pid() | {restarting, pid()}]}.
