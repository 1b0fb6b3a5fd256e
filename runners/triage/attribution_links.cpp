// runners/triage/attribution_links.cpp: see attribution_links.hpp.
#include "attribution_links.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "oracle/state.hpp"
#include "runners/triage/attribution_json.hpp"

namespace concord {
namespace {

using attribution_json::at;
using attribution_json::str;

// A worker as it exited in the oracle's run: the names on the other end of its
// links, of the monitors it held, and of those held on it.
struct AtExit {
  std::string name;
  std::set<std::string> links, held, watched_by;
};

// Every worker exit of the oracle's run, in order, with the journal index of its
// `exit` event (the event is journaled right after World::discarding sees it).
std::vector<std::pair<size_t, AtExit>> exits_of(const Program& p, const RunSettings& s) {
  std::vector<std::pair<size_t, AtExit>> out;
  auto names = [](const World& w, auto&& ids, auto id_of) {
    std::set<std::string> n;
    for (const auto& x : ids) n.insert(w.names[static_cast<size_t>(w.procs[static_cast<size_t>(id_of(x))].name)]);
    return n;
  };
  auto id = [](int32_t x) { return x; };
  auto other = [](const Monitor& m) { return m.other; };
  try {
    run(p, s, [&](const World& w, const Process& proc) {
      out.push_back({w.journal.size(), AtExit{w.names[static_cast<size_t>(proc.name)], names(w, proc.links, id),
                                              names(w, proc.held, other), names(w, proc.watched_by, other)}});
    });
  } catch (const std::bad_alloc&) {
    // past the memory limit: the exits until then
  }
  return out;
}

}  // namespace

std::optional<std::string> restarted_link(const Program& p, const RunSettings& s, const ojson& oj, const ojson& tj,
                                          size_t i) {
  const ojson& t = at(tj, i);
  std::string kind = str(t, "kind");
  if (str(t, "ev") != "signal" || (kind != "link" && kind != "down")) return std::nullopt;
  // The oracle has it nowhere later in the turn, with whatever effect (then it is
  // an order, §17.1, or another clause of §16.3).
  for (size_t j = i; j < oj.size() && oj[j].value("turn", ojson()) == t["turn"]; j++)
    if (str(oj[j], "ev") == "signal" && oj[j].value("kind", ojson()) == t["kind"] &&
        oj[j].value("from", ojson()) == t["from"] && oj[j].value("to", ojson()) == t["to"])
      return std::nullopt;
  std::string x = str(t, "from"), y = str(t, "to");
  // X's exit that sent it: the last before `i` (the journals agree up to there)
  // with the signal's reason.
  for (size_t k = std::min(i, oj.size()); k-- > 0;) {
    if (str(oj[k], "ev") != "exit" || str(oj[k], "name") != x || str(oj[k], "reason") != str(t, "reason")) continue;
    std::vector<std::pair<size_t, AtExit>> exits = exits_of(p, s);  // (once: this exit decides)
    const AtExit* now = nullptr;
    for (const auto& [index, e] : exits)
      if (index == k && e.name == x) now = &e;
    if (!now || (kind == "link" ? now->links : now->watched_by).count(y)) return std::nullopt;
    // An earlier incarnation had it: X's linked to Y, or Y's linked to or monitoring X.
    for (const auto& [index, e] : exits) {
      if (index >= k) break;
      bool had = kind == "link" ? (e.name == x && e.links.count(y)) || (e.name == y && e.links.count(x))
                                : e.name == y && e.held.count(x);
      if (had) return "§16.5 restarted";
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace concord
