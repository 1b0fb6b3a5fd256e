# spec/experiments/elixir_supervision.exs: how Elixir 1.14's supervisors behave on
# OTP 25, checked on a real node without concord, beside the OTP rules of
# supervision.erl that SPEC §7 follows. Elixir's Supervisor is OTP's supervisor.erl
# (Supervisor.init/2 only builds its flags and child specs); DynamicSupervisor is
# Elixir's own (lib/elixir/lib/dynamic_supervisor.ex), and where it departs from
# OTP the elixir target declares a deviation (targets/elixir/deviations.json names
# each check below).
#
# Run: elixir spec/experiments/elixir_supervision.exs   (ctest: elixir_supervision_experiments)
# Every check prints one line, PASS or FAIL, as supervision.erl's do; the script
# exits with status 0 when every check passes, 1 otherwise, 2 when it crashed.
#
# Observation: workers trap exits and send {:started, id} from init/1 and
# {:stopped, id, reason} from terminate/2 to this process, in the order they
# happen; which_children/1 shows what a supervisor keeps.

defmodule Exp.Worker do
  use GenServer
  def start_link(id), do: GenServer.start_link(__MODULE__, id)

  @impl true
  def init(id) do
    Process.flag(:trap_exit, true)
    send(:exp_collector, {:started, id})
    {:ok, id}
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
  end

  # --- E3: a restarted child moves to the end of the children --------------------
  # dynamic_supervisor.ex keeps children in a map by pid (`children: %{}`,
  # save_child/7), and which_children lists the map; a restart is a new pid, so the
  # child is listed after every older one; OTP keeps its position [R14].
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
  end

  # --- E4: terminating its children: oldest first, and all at once --------------
  # dynamic_supervisor.ex, terminate_children/2 -> monitor_children/1 sends every
  # child exit(pid, :shutdown) in the order of the children map (by pid for up to
  # 32 children), then waits for them all; OTP's terminate_children/2 shuts them
  # down one by one, newest first [R7, R11].
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

  def main do
    Process.register(self(), :exp_collector)
    Process.flag(:trap_exit, true)
    :logger.set_primary_config(:level, :none)
    IO.puts("Elixir #{System.version()} on OTP #{System.otp_release()}")
    for e <- [&e1/0, &e2/0, &e3/0, &e4/0, &e5/0], do: e.()
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
