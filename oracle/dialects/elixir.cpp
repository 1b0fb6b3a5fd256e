// oracle/dialects/elixir.cpp: Elixir's DynamicSupervisor as alternatives of SPEC's
// supervision rules (targets/elixir/README.md "Declared deviations", each confirmed by
// spec/experiments/elixir_supervision.exs), consulted in oracle/supervision.cpp.
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& elixir_alternatives() {
  static const std::vector<Alternative> all = {
      {Alt::DynsupTerminatesInMapOrder, "dynamic-supervisor-terminates-in-map-order", AltScope::DynamicSupervisors,
       "§7.4 step 2, §7.5 [R7, R11]", "§7.5 termination order",
       "a supervisor that gives up or is terminated ends its running children in the order of its children map: "
       "oldest process (lowest pid) first while the map holds at most 32 entries (running and restarting "
       "children), not in reverse start order",
       "beyond 32 entries the order is the map's hash order: the exits of that termination are compared as a set"},
      {Alt::DynsupRemovesTransient, "dynamic-supervisor-removes-transient", AltScope::DynamicSupervisors, "§7.2 [R2]",
       "§7.2 restart type", "a transient child that exits normal or shutdown is removed (decision remove), not kept",
       ""},
      {Alt::DynsupRestartMovesLast, "dynamic-supervisor-restart-moves-last", AltScope::DynamicSupervisors,
       "§7.3, §7.7 [R14]", "§7.3 start order",
       "a restarted child moves to the end of the child list (a new pid), not kept in place; one whose restart "
       "failed keeps its place until a retry starts it",
       ""},
      {Alt::DynsupKeepsNoStoppedChild, "dynamic-supervisor-keeps-no-stopped-child", AltScope::DynamicSupervisors,
       "§19.3 [R37], §19.4 [R38], §20 [R40]", "§19.4 spawn",
       "only running (and restarting) children are kept: an ignored start_child adds nothing, an ignored restart "
       "removes the child, terminate_child removes it whatever its restart type",
       ""},
      {Alt::DynsupApiNotFound, "dynamic-supervisor-api-not-found", AltScope::DynamicSupervisors, "§20 [R40, R42]",
       "§20 terminate_child",
       "terminate_child of a child that is neither running nor restarting, and delete_child of any child not "
       "running (restarting too), answer not_found (delete_child deletes nothing)",
       ""},
      {Alt::DynsupRestartChildNotFound, "dynamic-supervisor-restart-child-not-found", AltScope::DynamicSupervisors,
       "§20 [R39, R41]", "§20 restart_child",
       "restart_child starts nothing: running for a running child, not_found otherwise", ""},
  };
  return all;
}

}  // namespace concord
