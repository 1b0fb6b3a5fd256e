// oracle/free/causal.cpp: sorting the happens-before graph, finding a cycle in it,
// and asking it whether one event comes before another.
#include "causal.hpp"

#include <algorithm>

namespace concord {

size_t CausalGraph::node(std::string label, std::string place) {
  labels_.push_back(std::move(label));
  places_.push_back(std::move(place));
  out_.emplace_back();
  in_.emplace_back();
  return labels_.size() - 1;
}

void CausalGraph::edge(size_t before, size_t after) {
  out_[before].push_back(static_cast<uint32_t>(after));
  in_[after].push_back(static_cast<uint32_t>(before));
}

std::optional<std::vector<size_t>> CausalGraph::cycle() {
  size_t n = labels_.size();
  std::vector<uint32_t> indegree(n);
  for (size_t v = 0; v < n; v++) indegree[v] = static_cast<uint32_t>(in_[v].size());
  std::vector<uint32_t> ready;
  for (size_t v = 0; v < n; v++)
    if (indegree[v] == 0) ready.push_back(static_cast<uint32_t>(v));
  rank_.assign(n, UINT32_MAX);
  uint32_t next = 0;
  while (!ready.empty()) {
    uint32_t v = ready.back();
    ready.pop_back();
    rank_[v] = next++;
    for (uint32_t w : out_[v])
      if (--indegree[w] == 0) ready.push_back(w);
  }
  if (next == n) {
    seen_.assign(n, 0);
    return std::nullopt;
  }
  // Every node left has a predecessor left: walking predecessors from one of them
  // must come back to a node already on the walk.
  uint32_t v = 0;
  while (rank_[v] != UINT32_MAX) v++;
  std::vector<uint32_t> walk;
  std::vector<int64_t> pos(n, -1);
  while (pos[v] < 0) {
    pos[v] = static_cast<int64_t>(walk.size());
    walk.push_back(v);
    for (uint32_t u : in_[v])
      if (rank_[u] == UINT32_MAX) {
        v = u;
        break;
      }
  }
  std::vector<size_t> cyc(walk.begin() + pos[v], walk.end());
  std::reverse(cyc.begin(), cyc.end());  // predecessors were followed: turn it into "before -> after"
  cyc.push_back(cyc.front());
  return cyc;
}

std::optional<bool> CausalGraph::before(size_t a, size_t b, int64_t& budget) {
  if (a == b) return false;
  if (rank_[a] >= rank_[b]) return false;  // the order puts b first: no path
  if (++query_ == 0) {                     // wrapped: forget every old visit
    std::fill(seen_.begin(), seen_.end(), 0);
    query_ = 1;
  }
  std::vector<uint32_t> stack = {static_cast<uint32_t>(b)};
  seen_[b] = query_;
  while (!stack.empty()) {
    uint32_t v = stack.back();
    stack.pop_back();
    if (--budget < 0) return std::nullopt;
    for (uint32_t u : in_[v]) {
      if (u == a) return true;
      if (seen_[u] == query_ || rank_[u] < rank_[a]) continue;  // ranked before a: a cannot reach it
      seen_[u] = query_;
      stack.push_back(u);
    }
  }
  return false;
}

}  // namespace concord
