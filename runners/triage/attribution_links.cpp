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
  // The signal one side only sends in its turn (with whatever effect: on both
  // sides, it is an order, §17.1, or another clause of §16.3): the target's extra
  // one, or the oracle's that the target lacks.
  auto sends_in_turn = [](const ojson& journal, size_t from, const ojson& sig) {
    for (size_t j = from; j < journal.size() && journal[j].value("turn", ojson()) == sig["turn"]; j++)
      if (str(journal[j], "ev") == "signal" && journal[j].value("kind", ojson()) == sig["kind"] &&
          journal[j].value("from", ojson()) == sig["from"] && journal[j].value("to", ojson()) == sig["to"])
        return true;
    return false;
  };
  auto is_signal = [](const ojson& e) {
    return str(e, "ev") == "signal" && (str(e, "kind") == "link" || str(e, "kind") == "down");
  };
  bool extra = is_signal(at(tj, i)) && !sends_in_turn(oj, i, at(tj, i));
  // (Lacking, only a link: a monitor fires once and is gone, nothing of it to keep.)
  bool lacking = !extra && str(at(oj, i), "kind") == "link" && is_signal(at(oj, i)) && !sends_in_turn(tj, i, at(oj, i));
  if (!extra && !lacking) return std::nullopt;
  const ojson& t = extra ? at(tj, i) : at(oj, i);
  std::string kind = str(t, "kind");
  std::string x = str(t, "from"), y = str(t, "to");
  // X's exit that sent it: the last before `i` (the journals agree up to there)
  // with the signal's reason.
  for (size_t k = std::min(i, oj.size()); k-- > 0;) {
    if (str(oj[k], "ev") != "exit" || str(oj[k], "name") != x || str(oj[k], "reason") != str(t, "reason")) continue;
    std::vector<std::pair<size_t, AtExit>> exits = exits_of(p, s);  // (once: this exit decides)
    const AtExit* now = nullptr;
    for (const auto& [index, e] : exits)
      if (index == k && e.name == x) now = &e;
    // The oracle's X had the link (Y's monitor) exactly when the oracle sent it.
    if (!now || ((kind == "link" ? now->links : now->watched_by).count(y) > 0) != lacking) return std::nullopt;
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
