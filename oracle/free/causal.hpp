// oracle/free/causal.hpp: the happens-before relation of a free run (SPEC §25.4
// G5) as a graph: a node per event of an incarnation (and per moment a trace does
// not record, such as the lookup of a name or the taking of a spawn number), an
// edge per "comes before". A run is admissible only if the graph has no cycle; the
// order it then gives also answers whether one event must come before another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace concord {

class CausalGraph {
 public:
  // A node, with the words that name it in a violation ("a#1's event 3 (send to b)")
  // and its place in the trace.
  size_t node(std::string label, std::string place = "");
  void edge(size_t before, size_t after);
  size_t size() const { return labels_.size(); }
  const std::string& label(size_t n) const { return labels_[n]; }
  const std::string& place(size_t n) const { return places_[n]; }

  // Sorts the graph (Kahn). nullopt when it is a strict order; otherwise one cycle,
  // its nodes in order (the first repeated at the end).
  std::optional<std::vector<size_t>> cycle();

  // After a successful cycle(): whether `a` happens before `b` (a path a -> b).
  // Searches backwards from b, only through nodes the order puts after a; `budget`
  // counts nodes visited over every call, and a query that would pass it answers
  // nullopt (not decided).
  std::optional<bool> before(size_t a, size_t b, int64_t& budget);

 private:
  std::vector<std::string> labels_, places_;
  std::vector<std::vector<uint32_t>> out_, in_;
  std::vector<uint32_t> rank_;  // position in the order found by cycle()
  std::vector<uint32_t> seen_;  // per node: the query that last visited it
  uint32_t query_ = 0;
};

}  // namespace concord
