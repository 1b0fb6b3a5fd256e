# spec/experiments/elixir_supervision.exs: how Elixir 1.14's supervisors behave on
# OTP 25, checked on a real node without concord, beside the OTP rules of
# supervision.erl that SPEC §7 follows. Elixir's Supervisor is OTP's supervisor.erl
# (Supervisor.init/2 only builds its flags and child specs); DynamicSupervisor is
# Elixir's own (lib/elixir/lib/dynamic_supervisor.ex), and where it departs from
# OTP the elixir target declares a deviation (targets/elixir/deviations.json names
# each check below). E1-E4 are version 1's supervision (SPEC §7); E5 and E6 what
# the target's version 2 relies on (SPEC §19-§21): Supervisor's flags and child
# specs, and what DynamicSupervisor does with significant children, failed and
# ignored restarts, the supervisor API, sys:suspend/1 and a sys debug hook.
#
# Run: elixir spec/experiments/elixir_supervision.exs   (ctest: elixir_supervision_experiments)
# Every check prints one line, PASS or FAIL, as supervision.erl's do; the script
# exits with status 0 when every check passes, 1 otherwise, 2 when it crashed.
#
# Observation: workers trap exits and send {:started, id} from init/1 (also from
# a start that fails or is ignored) and {:stopped, id, reason} from terminate/2 to
# this process, in the order they happen; which_children/1 shows what a supervisor
# keeps. The order of a supervisor's shutdowns is read from a call trace of its
# erlang:exit/2 (exits_traced/2), one process's calls, where the reports of many
# children on two schedulers fix no order. A failing restart can be held in its
# init ({:hold, _}) to ask the supervisor something before the retry.
# Elixir 1.14's children map is an Erlang map: by pid (oldest first, while pids
# have not wrapped) up to 32 entries, in its hash order beyond, and by pid again
# when it falls back to 32; Enum.reduce/3 walks it as :maps.fold/3 does.

defmodule Exp.Worker do
  use GenServer
  @oops_reason {:fail, :START}
  def start_link(id), do: GenServer.start_link(__MODULE__, id)

  # {id, plan}: plan is an Agent holding the answers of this and later inits, in
  # order (:ok, :ignore, :fail, or {:hold, answer}: tell the collector
  # {:held, id, self()} and wait for :go before answering), the last one repeated;
  # a bare id always starts. A held init holds its supervisor in start_link, so
  # what is sent to the supervisor meanwhile is handled after that start.
  @impl true
  def init({id, plan}) do
    answer(id, Agent.get_and_update(plan, fn [a] -> {a, [a]}; [a | rest] -> {a, rest} end))
  end

  def init(id) do
    Process.flag(:trap_exit, true)
    send(:exp_collector, {:started, id})
    {:ok, id}
  end

  defp answer(id, {:hold, a}) do
    send(:exp_collector, {:held, id, self()})
    receive do
      :go -> answer(id, a)
    end
  end

  defp answer(id, a) do
    case a do
      :ok ->
        init(id)

      :ignore ->
        send(:exp_collector, {:started, id})
        :ignore

      :fail ->
        send(:exp_collector, {:started, id})
        {:stop, @oops_reason}
    end
  end

  @impl true
  def handle_info({:exp_die, reason}, id), do: {:stop, reason, id}
  def handle_info(_, id), do: {:noreply, id}

  @impl true
  def terminate(reason, id), do: send(:exp_collector, {:stopped, id, reason})
end

defmodule Exp.Dyn do
  use DynamicSupervisor
  def start_link(max), do: DynamicSupervisor.start_link(__MODULE__, max)
  @impl true
  def init(max), do: DynamicSupervisor.init(strategy: :one_for_one, max_restarts: max, max_seconds: 3600)
end

defmodule Exp.Sup do
  use Supervisor
  def start_link({strategy, max, children}), do: Supervisor.start_link(__MODULE__, {strategy, max, children})
  @impl true
  def init({strategy, max, children}),
    do: Supervisor.init(children, strategy: strategy, max_restarts: max, max_seconds: 3600)
end

# A Supervisor whose init/1 returns OTP's flags map and child specs as given.
defmodule Exp.Flags do
  use Supervisor
  def start_link(init), do: Supervisor.start_link(__MODULE__, init)
  @impl true
  def init({flags, children}), do: {:ok, {flags, children}}
end

defmodule Exp do
  @oops {:fail, :OOPS}

  def spec(id, restart), do: Supervisor.child_spec({Exp.Worker, id}, id: id, restart: restart)

  # Everything the workers reported since the last look, once the node is quiet.
  def take do
    Process.sleep(50)
    take_now([])
  end

  defp take_now(acc) do
    receive do
      {:started, _} = m -> take_now([m | acc])
      {:stopped, _, _} = m -> take_now([m | acc])
    after
      0 -> Enum.reverse(acc)
    end
  end

  def check(id, what, expected, observed) do
    if expected == observed do
      IO.puts("PASS #{id}: #{what}; observed #{inspect(observed)}")
    else
      IO.puts("FAIL #{id}: expected #{inspect(expected)}, got #{inspect(observed)} (#{what})")
      Process.put(:fails, Process.get(:fails, 0) + 1)
    end
  end

  def die(pid, reason), do: send(pid, {:exp_die, reason})

  # The ids of a DynamicSupervisor's children, in which_children's order, by pid.
  def dyn_order(sup, ids), do: for({:undefined, pid, _, _} <- DynamicSupervisor.which_children(sup), do: ids[pid])

  def down_reason(pid) do
    ref = Process.monitor(pid)
    receive do
      {:DOWN, ^ref, :process, ^pid, reason} -> reason
    after
      5000 -> :still_alive
    end
  end

  # A DynamicSupervisor with children `specs` started in order: {sup, %{pid => id}, [pids]}.
  def dyn(max, specs) do
    {:ok, sup} = Exp.Dyn.start_link(max)
    pids = for {id, restart} <- specs, do: elem(DynamicSupervisor.start_child(sup, spec(id, restart)), 1)
    _ = take()
    {sup, Map.new(Enum.zip(pids, Enum.map(specs, &elem(&1, 0)))), pids}
  end

  def stop(sup) do
    Process.unlink(sup)
    Process.exit(sup, :shutdown)
    _ = down_reason(sup)
    _ = take()
  end

  # The children `n` permanent workers, ids 1..n, for dyn/2.
  def numbered(n), do: for(i <- 1..n, do: {i, :permanent})

  # The pids of a DynamicSupervisor's children map, without `gone`, in the order
  # Enum.reduce/3 walks it, as which_children and terminate_children/2 do: by pid
  # while it has at most 32 entries, in its hash order beyond (:maps.fold/3's, the
  # reverse of :maps.to_list/1's for a hash map on OTP 25).
  def map_order(sup, gone \\ []),
    do: Enum.map(Map.drop(:sys.get_state(sup).children, gone), fn {pid, _} -> pid end)

  # The exit signals `sup` sends, [{pid, reason}] in the order it calls
  # erlang:exit/2, while `act` runs and until `sup` is down. A call trace of the
  # supervisor itself: the children's own reports reach the collector from many
  # processes on two schedulers, in no order the supervisor fixes, but its calls
  # are one process's, and a tracer gets them in that order.
  def exits_traced(sup, act) do
    me = self()
    tracer = spawn_link(fn -> traced(me, []) end)
    _ = :erlang.trace_pattern({:erlang, :exit, 2}, true, [:global])
    1 = :erlang.trace(sup, true, [:call, {:tracer, tracer}])
    ref = Process.monitor(sup)
    act.()
    receive do
      {:DOWN, ^ref, :process, ^sup, _} -> :ok
    after
      5000 -> raise "supervisor #{inspect(sup)} still alive"
    end
    tref = :erlang.trace_delivered(:all)
    receive do
      {:trace_delivered, :all, ^tref} -> :ok
    end
    send(tracer, :done)
    receive do
      {:traced, ^tracer, exits} -> exits
    end
  end

  defp traced(me, acc) do
    receive do
      {:trace, _, :call, {:erlang, :exit, [pid, reason]}} -> traced(me, [{pid, reason} | acc])
      :done -> send(me, {:traced, self(), Enum.reverse(acc)})
    end
  end

  # The process of child `id` whose init is held ({:hold, _} in its plan).
  def held(id) do
    receive do
      {:held, ^id, pid} -> pid
    after
      5000 -> raise "no held init of #{inspect(id)}"
    end
  end

  # A call to `sup` put in its mailbox now, answered when it gets to it (while a
  # held init holds it in start_link, after that start); reply/1 waits for it.
  def ask(sup, request) do
    ref = make_ref()
    send(sup, {:"$gen_call", {self(), ref}, request})
    ref
  end

  def reply(ref) do
    receive do
      {^ref, answer} -> answer
    after
      5000 -> raise "no reply"
    end
  end

  # Until `sup`'s mailbox holds a message (an 'EXIT' it takes after a held start).
  def queued(sup) do
    case Process.info(sup, :message_queue_len) do
      {:message_queue_len, 0} ->
        Process.sleep(1)
        queued(sup)

      _ ->
        :ok
    end
  end

  # --- E1: where DynamicSupervisor agrees with OTP (SPEC §7.2, §7.4) ---------------
  def e1 do
    {sup, _, [p, t, x]} = dyn(10, [p: :permanent, t: :transient, x: :temporary])
    die(p, :normal)
    check("E1/permanent_normal", "a permanent child is restarted after exit normal [R1]",
          [{:stopped, :p, :normal}, {:started, :p}], take())
    die(t, @oops)
    check("E1/transient_failure", "a transient child is restarted after a failure [R2]",
          [{:stopped, :t, @oops}, {:started, :t}], take())
    die(x, @oops)
    check("E1/temporary_failure", "a temporary child is not restarted and is removed [R3]",
          {[{:stopped, :x, @oops}], 2}, {take(), length(DynamicSupervisor.which_children(sup))})
    stop(sup)

    {sup, _, [_a, b, _c]} = dyn(2, [a: :permanent, b: :permanent, c: :permanent])
    die(b, @oops)
    _ = take()
    [_, _, b2] = for {_, pid, _, _} <- DynamicSupervisor.which_children(sup), do: pid
    die(b2, @oops)
    check("E1/intensity_allowed", "max_restarts 2: restarts 1 and 2 are done [R7]",
          {[{:stopped, :b, @oops}, {:started, :b}], true}, {take(), Process.alive?(sup)})
    Process.unlink(sup)
    [_, _, b3] = for {_, pid, _, _} <- DynamicSupervisor.which_children(sup), do: pid
    die(b3, @oops)
    check("E1/intensity_give_up", "max_restarts 2: the third restart gives up, exit reason shutdown [R7]",
          :shutdown, down_reason(sup))
    _ = take()

    {sup, _, _} = dyn(0, [a: :permanent])
    stop(sup)
    check("E1/noproc", "start_child on a dead DynamicSupervisor exits with {:noproc, _} in the caller [R13]",
          :noproc,
          try do
            DynamicSupervisor.start_child(sup, spec(:z, :permanent))
          catch
            :exit, {reason, _} -> reason
          end)
  end

  # --- E2: a transient child that ends normally is removed, not kept ------------
  # dynamic_supervisor.ex, maybe_restart_child(_, :normal, pid, _child, state):
  # {:ok, delete_child(pid, state)}, for transient and temporary alike; OTP's
  # do_restart/3 keeps a transient child with pid undefined [R2].
  def e2 do
    {sup, _, [_a, b]} = dyn(10, [a: :permanent, b: :transient])
    die(b, :normal)
    check("E2/transient_normal_removed",
          "DynamicSupervisor: a transient child that exits normal is removed from which_children",
          {[{:stopped, :b, :normal}], 1}, {take(), length(DynamicSupervisor.which_children(sup))})
    stop(sup)
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 10, [spec(:a, :permanent), spec(:b, :transient)]})
    _ = take()
    [{:b, b, _, _}, _] = Supervisor.which_children(sup)
    die(b, :normal)
    check("E2/otp_transient_normal_kept",
          "Supervisor (OTP): the same child is kept, not running [R2]",
          {[{:stopped, :b, :normal}], [b: :undefined, a: :pid]},
          {take(),
           for({id, pid, _, _} <- Supervisor.which_children(sup), do: {id, if(is_pid(pid), do: :pid, else: pid)})})
    stop(sup)

    # The same for the other exits a transient child is not restarted after
    # (maybe_restart_child/5's clauses for :shutdown and {:shutdown, _}).
    {sup, _, [_a, b, c]} = dyn(10, [a: :permanent, b: :transient, c: :transient])
    die(b, :shutdown)
    die(c, {:shutdown, :x})
    check("E2/transient_shutdown_removed",
          "DynamicSupervisor: transient children that exit shutdown and {:shutdown, _} are removed, not restarted",
          {[{:stopped, :b, :shutdown}, {:stopped, :c, {:shutdown, :x}}], [undefined: :pid]},
          {Enum.sort(take()), listed(DynamicSupervisor.which_children(sup))})
    stop(sup)
    {:ok, sup} =
      Exp.Sup.start_link({:one_for_one, 10, [spec(:a, :permanent), spec(:b, :transient), spec(:c, :transient)]})
    _ = take()
    [{:c, c, _, _}, {:b, b, _, _}, _] = Supervisor.which_children(sup)
    die(b, :shutdown)
    die(c, {:shutdown, :x})
    check("E2/otp_transient_shutdown_kept", "Supervisor (OTP): both are kept, not running [R2]",
          {[{:stopped, :b, :shutdown}, {:stopped, :c, {:shutdown, :x}}], [c: :undefined, b: :undefined, a: :pid]},
          {Enum.sort(take()), listed(Supervisor.which_children(sup))})
    stop(sup)
  end

  # --- E3: a restarted child moves to the end of the children --------------------
  # dynamic_supervisor.ex keeps children in a map by pid (`children: %{}`,
  # save_child/7), and which_children lists the map; a restart is a new pid, so the
  # child is listed after every older one while the map has at most 32 entries
  # (beyond, in its hash order); OTP keeps its position [R14].
  def e3 do
    {sup, ids, [a, _b, _c]} = dyn(10, [a: :permanent, b: :permanent, c: :permanent])
    check("E3/start_order", "DynamicSupervisor: which_children lists children by pid, oldest first",
          [:a, :b, :c], dyn_order(sup, ids))
    die(a, @oops)
    _ = take()
    [_, _, new_a] = for {_, pid, _, _} <- DynamicSupervisor.which_children(sup), do: pid
    check("E3/restart_moves_last", "DynamicSupervisor: the restarted a is listed after b and c",
          [:b, :c, :a], dyn_order(sup, Map.put(ids, new_a, :a)))
    stop(sup)
    {:ok, sup} =
      Exp.Sup.start_link({:one_for_one, 10, [spec(:a, :permanent), spec(:b, :permanent), spec(:c, :permanent)]})
    _ = take()
    {:ok, _} = Supervisor.start_child(sup, spec(:d, :permanent))
    [{:d, _, _, _}, _, _, {:a, a, _, _}] = Supervisor.which_children(sup)
    die(a, @oops)
    _ = take()
    check("E3/otp_restart_keeps_place", "Supervisor (OTP): the restarted a keeps its place (newest first) [R14]",
          [:d, :c, :b, :a], for({id, _, _, _} <- Supervisor.which_children(sup), do: id))
    stop(sup)

    # A restart that fails (SPEC §19.3): restart_child/4's {:error, _} clause puts
    # {:restarting, child} under the old pid and sends {:"$gen_restart", pid} to
    # itself. which_children, asked while b's failing restart is held (so the call
    # comes before the retry), lists b as restarting in its old place; the retry
    # starts it under a new pid, listed last.
    {:ok, sup} = Exp.Dyn.start_link(10)
    [a, b, c] =
      for s <- [spec(:a, :permanent), planned(:b, [:ok, {:hold, :fail}, :ok], :permanent), spec(:c, :permanent)],
          do: elem(DynamicSupervisor.start_child(sup, s), 1)
    _ = take()
    die(b, @oops)
    h = held(:b)
    ref = ask(sup, :which_children)
    send(h, :go)
    meanwhile = reply(ref)
    named = fn children, ids ->
      for {:undefined, pid, :worker, [Exp.Worker]} <- children, do: Map.get(ids, pid, pid)
    end
    check("E3/restarting_keeps_place",
          "DynamicSupervisor: while b's restart has failed and waits for its retry, which_children lists it as restarting, in b's place",
          [:a, :restarting, :c], named.(meanwhile, %{a => :a, c => :c}))
    _ = take()
    [new_b] = map_order(sup, [a, c])
    check("E3/retry_moves_last", "DynamicSupervisor: the retry starts b under a new pid, listed after a and c",
          [:a, :c, :b], named.(DynamicSupervisor.which_children(sup), %{a => :a, c => :c, new_b => :b}))
    stop(sup)
    {:ok, sup} =
      Exp.Sup.start_link(
        {:one_for_one, 10,
         [spec(:a, :permanent), planned(:b, [:ok, {:hold, :fail}, :ok], :permanent), spec(:c, :permanent)]}
      )
    _ = take()
    [_, {:b, b, _, _}, _] = Supervisor.which_children(sup)
    die(b, @oops)
    h = held(:b)
    ref = ask(sup, :which_children)
    send(h, :go)
    meanwhile = reply(ref)
    _ = take()
    check("E3/otp_restarting_keeps_place",
          "Supervisor (OTP): the same: b restarting in its place, then running in its place (newest first) [R14, R35]",
          {[c: :pid, b: :restarting, a: :pid], [c: :pid, b: :pid, a: :pid]},
          {listed(meanwhile), listed(Supervisor.which_children(sup))})
    stop(sup)

    # More than 32 children: the children map is a hash map, and which_children
    # lists it in hash order, not by pid; a restarted child comes wherever its new
    # pid hashes, not necessarily last.
    {sup, ids, pids} = dyn(10, numbered(40))
    listing = fn -> for {_, pid, _, _} <- DynamicSupervisor.which_children(sup), do: pid end
    check("E3/over_32_listed_in_hash_order",
          "DynamicSupervisor, 40 children: which_children lists them in the map's order, which is not start order",
          {Enum.map(map_order(sup), &ids[&1]), false},
          {Enum.map(listing.(), &ids[&1]), Enum.map(listing.(), &ids[&1]) == Enum.to_list(1..40)})
    die(hd(pids), @oops)
    _ = take()
    [new1] = map_order(sup, tl(pids))
    ids = Map.put(ids, new1, 1)
    check("E3/over_32_restart_in_hash_order",
          "DynamicSupervisor, 40 children: the restarted child 1 is listed where its new pid falls in the map's order, not last",
          {Enum.map(map_order(sup), &ids[&1]), false},
          {Enum.map(listing.(), &ids[&1]), Enum.map(listing.(), &ids[&1]) == Enum.to_list(2..40) ++ [1]})
    stop(sup)
  end

  # --- E4: terminating its children: oldest first, and all at once --------------
  # dynamic_supervisor.ex, terminate_children/2 -> monitor_children/1 sends every
  # child exit(pid, :shutdown) in the order of the children map (by pid for up to
  # 32 children), then waits for them all; OTP's terminate_children/2 shuts them
  # down one by one, newest first [R7, R11]. A child restarting after a failed
  # restart has no process (skipped) but an entry, counted toward the 32.
  def e4 do
    {sup, _, [_a, b, _c, _d]} = dyn(0, [a: :permanent, b: :permanent, c: :permanent, d: :permanent])
    Process.unlink(sup)
    die(b, @oops)
    reason = down_reason(sup)
    check("E4/give_up_oldest_first",
          "DynamicSupervisor max_restarts 0: b fails, the others are terminated oldest first, then it exits shutdown",
          {[{:stopped, :b, @oops}, {:stopped, :a, :shutdown}, {:stopped, :c, :shutdown}, {:stopped, :d, :shutdown}],
           :shutdown},
          {take(), reason})

    {:ok, top} =
      Exp.Sup.start_link(
        {:one_for_all, 10,
         [spec(:w, :permanent), Supervisor.child_spec({Exp.Dyn, 10}, id: :dyn, restart: :permanent)]}
      )
    [{:dyn, dsup, _, _}, {:w, w, _, _}] = Supervisor.which_children(top)
    for id <- [:x, :y, :z], do: {:ok, _} = DynamicSupervisor.start_child(dsup, spec(id, :permanent))
    _ = take()
    die(w, @oops)
    check("E4/terminated_by_parent_oldest_first",
          "DynamicSupervisor terminated by its parent's one_for_all: x, y, z (oldest first), then w restarts",
          [{:stopped, :w, @oops}, {:stopped, :x, :shutdown}, {:stopped, :y, :shutdown}, {:stopped, :z, :shutdown},
           {:started, :w}], take())
    stop(top)

    {:ok, sup} =
      Exp.Sup.start_link({:one_for_one, 0, [spec(:a, :permanent), spec(:b, :permanent), spec(:c, :permanent)]})
    _ = take()
    Process.unlink(sup)
    [_, {:b, b, _, _}, _] = Supervisor.which_children(sup)
    die(b, @oops)
    _ = down_reason(sup)
    check("E4/otp_give_up_newest_first", "Supervisor (OTP) intensity 0: c, a terminated newest first [R7]",
          [{:stopped, :b, @oops}, {:stopped, :c, :shutdown}, {:stopped, :a, :shutdown}], take())
    e4_traced()
  end

  # The order of the exit signals themselves (exits_traced/2), for up to 32 and
  # for more than 32 entries in the children map: the map's order, which is by
  # pid (oldest first) up to 32 and its hash order beyond; a map that falls back
  # to 32 entries is ordered by pid again. Each running child gets one shutdown.
  def e4_traced do
    {ids, exits, stopped} = give_up_traced(4, 2)
    check("E4/give_up_traced_3",
          "DynamicSupervisor intensity 0, 4 children, 2 fails: it sends exit(pid, :shutdown) to 1, 3, 4 in that order; each child stops once",
          {[1, 3, 4], [:shutdown], {[], []}}, {named(exits, ids), reasons(exits), once(stopped, 4, 2)})
    {ids, exits, stopped} = give_up_traced(33, 17)
    check("E4/give_up_32_oldest_first",
          "DynamicSupervisor intensity 0, 33 children, 17 fails: 32 left in the map, the shutdowns go oldest first; each child stops once",
          {Enum.to_list(1..16) ++ Enum.to_list(18..33), [:shutdown], {[], []}},
          {named(exits, ids), reasons(exits), once(stopped, 33, 17)})
    for {id, n, fail} <- [{"E4/give_up_33_map_order", 34, 17}, {"E4/give_up_40_map_order", 40, 1}] do
      {ids, exits, stopped, expected} = give_up_traced(n, fail, :map_order)
      order = named(exits, ids)
      check(id,
            "DynamicSupervisor intensity 0, #{n} children, #{fail} fails: #{n - 1} left in the map, the shutdowns go in its hash order, not oldest first; each child stops once",
            {Enum.map(expected, &ids[&1]), false, [:shutdown], {[], []}},
            {order, order == Enum.to_list(1..n) -- [fail], reasons(exits), once(stopped, n, fail)})
    end
    orders =
      for _ <- 1..4 do
        {ids, exits, _} = give_up_traced(40, 1)
        named(exits, ids)
      end
    check("E4/over_32_order_varies",
          "DynamicSupervisor, 40 children, 1 fails, 4 times in one node: the order of the shutdowns by start index is not the same each time (#{length(Enum.uniq(orders))} orders)",
          true, length(Enum.uniq(orders)) > 1)

    # After a restart, the restarted child is the youngest: shut down last.
    {sup, ids, [a, _b, c, _d]} = dyn(1, [a: :permanent, b: :permanent, c: :permanent, d: :permanent])
    Process.unlink(sup)
    die(a, @oops)
    _ = take()
    [new_a] = map_order(sup, Map.keys(ids))
    ids = Map.put(ids, new_a, :a)
    exits = exits_traced(sup, fn -> die(c, @oops) end)
    check("E4/give_up_restarted_last",
          "DynamicSupervisor max_restarts 1: a restarts, then c fails and it gives up: b, d, then the restarted a",
          {[:b, :d, :a], [:shutdown]}, {named(exits, ids), reasons(exits)})
    _ = take()

    # A child whose restart failed (restarting, under its old pid) has no process
    # and gets no shutdown, but its entry counts toward the 32: r's restart is held
    # and fails, and meanwhile child 1 fails; max_restarts 1, so 1's exit (in the
    # mailbox before r's retry) gives up with r still restarting.
    for {id, n, how} <- [{"E4/give_up_restarting_32_oldest_first", 33, "oldest first"},
                         {"E4/give_up_restarting_33_map_order", 34, "in its hash order"}] do
      {:ok, sup} = Exp.Dyn.start_link(1)
      {:ok, r} = DynamicSupervisor.start_child(sup, planned(:r, [:ok, {:hold, :fail}], :permanent))
      pids = for i <- 1..(n - 1), do: elem(DynamicSupervisor.start_child(sup, spec(i, :permanent)), 1)
      _ = take()
      Process.unlink(sup)
      ids = Map.new(Enum.zip(pids, 1..(n - 1)))
      # The order of the map r's entry stays in (its key kept, its value replaced).
      expected = map_order(sup, [hd(pids)]) -- [r]
      exits =
        exits_traced(sup, fn ->
          die(r, @oops)
          h = held(:r)
          die(hd(pids), @oops)
          _ = down_reason(hd(pids))
          queued(sup)
          send(h, :go)
        end)
      order = named(exits, ids)
      check(id,
            "DynamicSupervisor, r restarting and #{n - 2} running (#{n - 1} entries): shutdowns to the running ones only, #{how}",
            {Enum.map(expected, &ids[&1]), n == 33, [:shutdown]},
            {order, order == Enum.to_list(2..(n - 1)), reasons(exits)})
      _ = take()
    end

    # Terminated by its parent (its terminate/2), with 40 children: the same hash order.
    {:ok, top} =
      Exp.Sup.start_link({:one_for_all, 10, [spec(:w, :permanent), Supervisor.child_spec({Exp.Dyn, 10}, id: :dyn)]})
    [{:dyn, dsup, _, _}, {:w, w, _, _}] = Supervisor.which_children(top)
    pids = for i <- 1..40, do: elem(DynamicSupervisor.start_child(dsup, spec(i, :permanent)), 1)
    _ = take()
    ids = Map.new(Enum.zip(pids, 1..40))
    expected = map_order(dsup)
    exits = exits_traced(dsup, fn -> die(w, @oops) end)
    order = named(exits, ids)
    check("E4/terminated_by_parent_40_map_order",
          "DynamicSupervisor with 40 children terminated by its parent's one_for_all: the shutdowns go in its map's hash order; each child stops once",
          {Enum.map(expected, &ids[&1]), false, [:shutdown], {[], []}},
          {order, order == Enum.to_list(1..40), reasons(exits),
           once(take() -- [{:stopped, :w, @oops}, {:started, :w}], 40, nil)})
    stop(top)

    # OTP's supervisor, 40 children: one by one, newest first, whatever the count.
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 0, for(i <- 1..40, do: spec(i, :permanent))})
    _ = take()
    Process.unlink(sup)
    ids = Map.new(for {id, pid, _, _} <- Supervisor.which_children(sup), do: {pid, id})
    [{1, p1, _, _}] = for c = {1, _, _, _} <- Supervisor.which_children(sup), do: c
    exits = exits_traced(sup, fn -> die(p1, @oops) end)
    check("E4/otp_give_up_40_newest_first", "Supervisor (OTP) intensity 0, 40 children, 1 fails: 40 down to 2, newest first [R7]",
          {Enum.to_list(40..2), [:shutdown]}, {named(exits, ids), reasons(exits)})
    _ = take()
  end

  # Traced exits: the children they go to, by id, and their reasons.
  def named(exits, ids), do: for({pid, _} <- exits, do: Map.get(ids, pid, pid))
  def reasons(exits), do: Enum.uniq(for({_, reason} <- exits, do: reason))

  # The collector's reports from children 1..n, child `fail` failing (nil: none),
  # against one stop each: {reports beyond those, those missing}.
  def once(reports, n, fail) do
    expected = for i <- 1..n, do: {:stopped, i, if(i == fail, do: @oops, else: :shutdown)}
    {reports -- expected, expected -- reports}
  end

  # A DynamicSupervisor with n children, intensity 0, child `fail` failing:
  # {%{pid => i}, traced exits, the collector's reports} (and with :map_order the
  # map's order of the others, taken before the failure).
  def give_up_traced(n, fail, map_order \\ nil) do
    {sup, ids, pids} = dyn(0, numbered(n))
    Process.unlink(sup)
    failed = Enum.at(pids, fail - 1)
    expected = map_order(sup, [failed])
    exits = exits_traced(sup, fn -> die(failed, @oops) end)
    result = {ids, exits, take()}
    if map_order, do: Tuple.append(result, expected), else: result
  end

  # --- E5: what the elixir target's version 2 supervisors rely on (SPEC §21) --------
  # Supervisor.init/2 keeps only strategy, intensity and period: :auto_shutdown is
  # dropped, so the emitted init/1 returns the flags map itself; Supervisor.child_spec/2
  # refuses :significant, so the emitted spec puts it in the map; and OTP honours both
  # when init/1 returns them (a significant transient child that exits normal under
  # auto_shutdown any_significant shuts its supervisor down, reason shutdown [R46]).
  def e5 do
    {:ok, {flags, _}} = Supervisor.init([], strategy: :one_for_one, auto_shutdown: :any_significant)
    check("E5/init_drops_auto_shutdown", "Supervisor.init/2 builds no :auto_shutdown flag",
          false, Map.has_key?(flags, :auto_shutdown))
    refused =
      try do
        Supervisor.child_spec({Exp.Worker, :a}, id: :a, significant: true)
        :accepted
      rescue
        ArgumentError -> :argument_error
      end
    check("E5/child_spec_refuses_significant", "Supervisor.child_spec/2 raises on :significant",
          :argument_error, refused)
    a = Map.put(spec(:a, :transient), :significant, true)
    {:ok, sup} = Exp.Flags.start_link({%{strategy: :one_for_one, intensity: 1, period: 3600,
                                          auto_shutdown: :any_significant}, [a, spec(:b, :permanent)]})
    _ = take()
    Process.unlink(sup)
    [{:b, _, _, _}, {:a, pa, _, _}] = Supervisor.which_children(sup)
    die(pa, :normal)
    reason = down_reason(sup)
    check("E5/flags_map_auto_shutdown",
          "init/1 returning the flags map: a significant child's normal exit shuts the supervisor down",
          {:shutdown, [{:stopped, :a, :normal}, {:stopped, :b, :shutdown}]}, {reason, take()})
  end

  # --- E6: a DynamicSupervisor in version 2 (SPEC §19-§21) -------------------------
  # What the elixir target's version 2 relies on and declares about Elixir's
  # DynamicSupervisor, beside OTP's Supervisor where they differ
  # (dynamic_supervisor.ex, Elixir 1.14: init/1, validate_child/1,
  # handle_start_child/2, restart_child/3, handle_call/3).
  def planned(id, answers, restart) do
    {:ok, plan} = Agent.start_link(fn -> answers end)
    Supervisor.child_spec({Exp.Worker, {id, plan}}, id: id, restart: restart)
  end

  def listed(children), do: for({id, pid, _, _} <- children, do: {id, if(is_pid(pid), do: :pid, else: pid)})

  def e6 do
    # Significant children and auto_shutdown (SPEC §21): neither exists.
    {:ok, flags} = DynamicSupervisor.init(strategy: :one_for_one, auto_shutdown: :any_significant)
    check("E6/init_drops_auto_shutdown", "DynamicSupervisor.init/1 builds no :auto_shutdown flag",
          false, Map.has_key?(flags, :auto_shutdown))
    {sup, _, []} = dyn(10, [])
    {:ok, a} = DynamicSupervisor.start_child(sup, Map.put(spec(:a, :transient), :significant, true))
    _ = take()
    die(a, :normal)
    check("E6/significant_ignored",
          "start_child takes significant: true and ignores it: the child's normal exit leaves the supervisor running",
          {[{:stopped, :a, :normal}], true, []}, {take(), Process.alive?(sup), DynamicSupervisor.which_children(sup)})
    stop(sup)

    # Failed restarts (SPEC §19.3): counted and retried, as OTP's [R35].
    {sup, _, []} = dyn(3, [])
    {:ok, b} = DynamicSupervisor.start_child(sup, planned(:b, [:ok, :fail], :permanent))
    _ = take()
    Process.unlink(sup)
    die(b, @oops)
    reason = down_reason(sup)
    check("E6/restart_always_fails",
          "max_restarts 3, every restart fails: 3 attempts, each counted, then it exits shutdown [R35/always_fails]",
          {[{:stopped, :b, @oops}, {:started, :b}, {:started, :b}, {:started, :b}], :shutdown}, {take(), reason})
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 3, []})
    {:ok, b} = Supervisor.start_child(sup, planned(:b, [:ok, :fail], :permanent))
    _ = take()
    Process.unlink(sup)
    die(b, @oops)
    reason = down_reason(sup)
    check("E6/otp_restart_always_fails", "Supervisor (OTP): the same [R35/always_fails]",
          {[{:stopped, :b, @oops}, {:started, :b}, {:started, :b}, {:started, :b}], :shutdown}, {take(), reason})
    {sup, _, []} = dyn(10, [])
    {:ok, c} = DynamicSupervisor.start_child(sup, planned(:c, [:ok, :fail, :ok], :permanent))
    _ = take()
    die(c, @oops)
    check("E6/restart_retried", "a restart that fails once: retried, two restarts counted, the child runs [R35]",
          {[{:stopped, :c, @oops}, {:started, :c}, {:started, :c}], 2, [undefined: :pid]},
          {take(), length(:sys.get_state(sup).restarts), listed(DynamicSupervisor.which_children(sup))})
    stop(sup)

    # A start that is ignored (SPEC §19.3, §19.4): the child is not kept.
    {sup, _, []} = dyn(10, [])
    got = DynamicSupervisor.start_child(sup, planned(:i, [:ignore], :permanent))
    check("E6/start_child_ignore_not_added",
          "an ignored start_child answers :ignore and adds nothing (OTP: {:ok, :undefined}, kept not running [R38/start_child_ignore])",
          {:ignore, [{:started, :i}], []}, {got, take(), DynamicSupervisor.which_children(sup)})
    {:ok, j} = DynamicSupervisor.start_child(sup, planned(:j, [:ok, :ignore], :permanent))
    _ = take()
    die(j, @oops)
    check("E6/restart_ignore_removed", "an ignored restart is counted, and the child is removed (OTP keeps it [R37])",
          {[{:stopped, :j, @oops}, {:started, :j}], 1, []},
          {take(), length(:sys.get_state(sup).restarts), DynamicSupervisor.which_children(sup)})
    stop(sup)
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 10, []})
    {:ok, :undefined} = Supervisor.start_child(sup, planned(:i, [:ignore], :permanent))
    {:ok, j} = Supervisor.start_child(sup, planned(:j, [:ok, :ignore], :permanent))
    _ = take()
    die(j, @oops)
    _ = take()
    check("E6/otp_ignored_kept", "Supervisor (OTP): both stay in the list, not running [R37, R38/start_child_ignore]",
          [j: :undefined, i: :undefined], listed(Supervisor.which_children(sup)))
    stop(sup)

    # The supervisor API (SPEC §20): terminate_child(sup, pid) only.
    {sup, _, [p]} = dyn(10, [p: :permanent])
    first = DynamicSupervisor.terminate_child(sup, p)
    check("E6/terminate_child_removes",
          "terminate_child of a running permanent child: :ok, it exits shutdown and is removed; again: not_found (OTP keeps it not running [R40])",
          {:ok, [{:stopped, :p, :shutdown}], [], {:error, :not_found}},
          {first, take(), DynamicSupervisor.which_children(sup), DynamicSupervisor.terminate_child(sup, p)})
    check("E6/terminate_child_by_id", "supervisor:terminate_child/2 with a child id, not a pid: {:error, :not_found}",
          {:error, :not_found}, :supervisor.terminate_child(sup, :p))
    stop(sup)
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 10, [spec(:p, :permanent)]})
    _ = take()
    first = Supervisor.terminate_child(sup, :p)
    check("E6/otp_terminate_child_keeps", "Supervisor (OTP): the terminated child stays, not running; restart_child restarts it [R40, R39]",
          {:ok, [{:stopped, :p, :shutdown}], [p: :undefined], :ok, [{:started, :p}]},
          {first, take(), listed(Supervisor.which_children(sup)), elem(Supervisor.restart_child(sup, :p), 0), take()})
    stop(sup)
    crashes("E6/restart_child_crashes", :restart_child)
    crashes("E6/delete_child_crashes", :delete_child)
    e6_any_restart()
    e6_restarting()

    # Held by sys:suspend/1, it still takes its parent's exit, as OTP's supervisor
    # does [R49/held]; and a sys debug hook given to start_link sees each child's
    # 'EXIT', each retry ({:"$gen_restart", pid} to itself) and the state after each.
    {:ok, top} =
      Exp.Sup.start_link({:one_for_all, 10, [spec(:w, :permanent), Supervisor.child_spec({Exp.Dyn, 10}, id: :dyn)]})
    [{:dyn, dsup, _, _}, {:w, w, _, _}] = Supervisor.which_children(top)
    {:ok, _} = DynamicSupervisor.start_child(dsup, spec(:x, :permanent))
    _ = take()
    :ok = :sys.suspend(dsup)
    die(w, @oops)
    check("E6/suspended_obeys_parent", "held by sys:suspend/1, terminated by its parent's one_for_all: x goes, w restarts",
          [{:stopped, :w, @oops}, {:stopped, :x, :shutdown}, {:started, :w}], take())
    stop(top)
    me = self()
    hook = {fn st, event, _ -> send(me, {:hook, event}); st end, :exp}
    {:ok, sup} = DynamicSupervisor.start_link(Exp.Dyn, 10, debug: [install: hook])
    {:ok, c} = DynamicSupervisor.start_child(sup, planned(:c, [:ok, :fail, :ok], :permanent))
    _ = take()
    _ = hooked(c)
    die(c, @oops)
    _ = take()
    check("E6/debug_hook",
          "the hook sees c's 'EXIT', the state with c restarting under its old pid (1 restart), the failed start's 'EXIT', the retry, the state (2)",
          [{:exit, true}, {:noreply, [restarting: true], 1}, {:exit, false}, {:noreply, [restarting: true], 1},
           {:retry, true}, {:noreply, [:running], 2}], hooked(c))
    stop(sup)
  end

  # Children not kept, whatever their restart type; and what terminate_child
  # answers for a pid the DynamicSupervisor no longer keeps.
  def e6_any_restart do
    {sup, _, []} = dyn(10, [])
    got = for r <- [:transient, :temporary], do: DynamicSupervisor.start_child(sup, planned(r, [:ignore], r))
    check("E6/start_child_ignore_any_restart",
          "an ignored start_child of a transient and of a temporary child: :ignore, nothing added",
          {[:ignore, :ignore], []}, {got, DynamicSupervisor.which_children(sup)})
    {:ok, t} = DynamicSupervisor.start_child(sup, planned(:t, [:ok, :ignore], :transient))
    _ = take()
    die(t, @oops)
    check("E6/restart_ignore_removed_transient", "a transient child's ignored restart: counted, the child removed",
          {[{:stopped, :t, @oops}, {:started, :t}], 1, []},
          {take(), length(:sys.get_state(sup).restarts), DynamicSupervisor.which_children(sup)})
    children = for r <- [:transient, :temporary], do: elem(DynamicSupervisor.start_child(sup, spec(r, r)), 1)
    _ = take()
    first = for pid <- children, do: DynamicSupervisor.terminate_child(sup, pid)
    check("E6/terminate_child_removes_any_restart",
          "terminate_child of a running transient and temporary child: :ok, each exits shutdown and is removed; again: not_found",
          {[:ok, :ok], [{:stopped, :transient, :shutdown}, {:stopped, :temporary, :shutdown}], [],
           [{:error, :not_found}, {:error, :not_found}]},
          {first, take(), DynamicSupervisor.which_children(sup),
           for(pid <- children, do: DynamicSupervisor.terminate_child(sup, pid))})
    # Pids it kept once: a transient child ended normal, a child whose restart was
    # ignored (t above), a temporary child that failed.
    {:ok, n} = DynamicSupervisor.start_child(sup, spec(:n, :transient))
    {:ok, x} = DynamicSupervisor.start_child(sup, spec(:x, :temporary))
    _ = take()
    die(n, :normal)
    die(x, @oops)
    _ = take()
    check("E6/terminate_child_not_running_not_found",
          "terminate_child of a transient child ended normal, of a child whose restart was ignored, of a failed temporary child: not_found",
          List.duplicate({:error, :not_found}, 3), for(pid <- [n, t, x], do: DynamicSupervisor.terminate_child(sup, pid)))
    stop(sup)
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 10, []})
    got = for r <- [:transient, :temporary], do: Supervisor.start_child(sup, planned(r, [:ignore], r))
    for r <- [:t2, :x2], do: {:ok, _} = Supervisor.start_child(sup, spec(r, if(r == :t2, do: :transient, else: :temporary)))
    _ = take()
    check("E6/otp_ignore_and_terminate_any_restart",
          "Supervisor (OTP): an ignored start and terminate_child keep a transient child not running, not a temporary one [R38, R40]",
          {[{:ok, :undefined}, {:ok, :undefined}], [:ok, :ok], [t2: :undefined, transient: :undefined]},
          {got, for(id <- [:t2, :x2], do: Supervisor.terminate_child(sup, id)), listed(Supervisor.which_children(sup))})
    stop(sup)
  end

  # A child whose restart failed and waits for its retry (held, as in E3): it
  # is kept under its old pid, which_children lists it with no pid, and
  # terminate_child of that old pid answers :ok and removes it, so the retry
  # finds nothing to start.
  def e6_restarting do
    {sup, _, []} = dyn(10, [])
    {:ok, b} = DynamicSupervisor.start_child(sup, planned(:b, [:ok, {:hold, :fail}, :ok], :permanent))
    _ = take()
    die(b, @oops)
    h = held(:b)
    listing = ask(sup, :which_children)
    terminated = ask(sup, {:terminate_child, b})
    send(h, :go)
    check("E6/terminate_child_restarting",
          "DynamicSupervisor, b restarting: which_children lists {:undefined, :restarting, ...}; terminate_child(b's old pid): :ok, b removed, not retried",
          {[{:undefined, :restarting, :worker, [Exp.Worker]}], :ok, [{:stopped, :b, @oops}, {:started, :b}], []},
          {reply(listing), reply(terminated), take(), DynamicSupervisor.which_children(sup)})
    stop(sup)
    {:ok, sup} = Exp.Sup.start_link({:one_for_one, 10, [planned(:b, [:ok, {:hold, :fail}, :ok], :permanent)]})
    _ = take()
    [{:b, b, _, _}] = Supervisor.which_children(sup)
    die(b, @oops)
    h = held(:b)
    terminated = ask(sup, {:terminate_child, :b})
    send(h, :go)
    check("E6/otp_terminate_child_restarting",
          "Supervisor (OTP), b restarting: terminate_child(:b): :ok, b kept not running, not retried [R40]",
          {:ok, [{:stopped, :b, @oops}, {:started, :b}], [b: :undefined]},
          {reply(terminated), take(), listed(Supervisor.which_children(sup))})
    stop(sup)
  end

  def crashes(id, op) do
    {sup, _, [q]} = dyn(10, [q: :permanent])
    Process.unlink(sup)
    got =
      try do
        apply(:supervisor, op, [sup, q])
      catch
        :exit, {{reason, _}, _} -> reason
      end
    _ = down_reason(sup)
    check(id, "DynamicSupervisor has no #{op}: OTP's supervisor:#{op}/2 crashes it (no handle_call/3 clause), its child goes",
          {:function_clause, [{:stopped, :q, :shutdown}]}, {got, take()})
  end

  # The hook's events so far, each as what it says about child c.
  def hooked(c) do
    receive do
      {:hook, {:in, {:EXIT, pid, _}}} -> [{:exit, pid == c} | hooked(c)]
      {:hook, {:in, {:"$gen_restart", pid}}} -> [{:retry, pid == c} | hooked(c)]
      {:hook, {:noreply, %DynamicSupervisor{children: children, restarts: restarts}}} ->
        entries = for {pid, child} <- children, do: if(match?({:restarting, _}, child), do: {:restarting, pid == c}, else: :running)
        [{:noreply, entries, length(restarts)} | hooked(c)]
      {:hook, _} -> hooked(c)
    after
      0 -> []
    end
  end

  def main do
    Process.register(self(), :exp_collector)
    Process.flag(:trap_exit, true)
    :logger.set_primary_config(:level, :none)
    IO.puts("Elixir #{System.version()} on OTP #{System.otp_release()}")
    for e <- [&e1/0, &e2/0, &e3/0, &e4/0, &e5/0, &e6/0], do: e.()
    fails = Process.get(:fails, 0)
    IO.puts(if fails == 0, do: "ALL PASS", else: "SOME FAILED: #{fails} check(s)")
    System.halt(if fails == 0, do: 0, else: 1)
  end
end

try do
  Exp.main()
catch
  kind, reason ->
    IO.puts("FAIL harness: #{Exception.format(kind, reason, __STACKTRACE__)}")
    System.halt(2)
end
