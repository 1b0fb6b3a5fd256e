// generators/basics.hpp: the pieces every generator of concord::gen is built from:
// a weighted choice, bounded lists, and the pools of valid names (SPEC §2) the
// generators draw from.
//
// Random sources: every combinator used here (mapcat, apply, container, exec)
// hands each sub-generator its own split of the random source, so changing one
// part of a program's generator does not reshuffle the others, and shrinking one
// part keeps the rest of a counterexample as it was.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace concord::gen {

/// An integer in [lo, hi), uniform whatever the size. (rc::gen::inRange scales its
/// range with the size: at size 60 it never draws from the top 40% of the range,
/// so a choice among options must not use it; it is for magnitudes.) Shrinks
/// toward lo.
template <typename T>
rc::Gen<T> uniform(T lo, T hi) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

/// One of `options`, each with probability proportional to its weight (weight 0:
/// never), whatever the size. Shrinks toward the earlier options, then within the
/// chosen one.
template <typename T>
rc::Gen<T> weighted(std::vector<std::pair<int, rc::Gen<T>>> options) {
  std::erase_if(options, [](const auto& o) { return o.first <= 0; });
  int total = 0;
  for (const auto& o : options) total += o.first;
  return rc::gen::mapcat(uniform(0, total), [options](int x) {
    for (const auto& [w, g] : options) {
      if (x < w) return g;
      x -= w;
    }
    return options.back().second;
  });
}

/// Yes with weight `yes`, no with weight `no` (at least one of them positive).
/// Shrinks toward yes.
inline rc::Gen<bool> chance(int yes, int no) {
  return weighted<bool>({{yes, rc::gen::just(true)}, {no, rc::gen::just(false)}});
}

/// A list of 0..n elements, where n grows with the size up to `max_len` (at least
/// 1); each element is generated at the caller's size. Shrinks by removing any
/// element, then by shrinking the elements.
template <typename T>
rc::Gen<std::vector<T>> list_of(int max_len, rc::Gen<T> elem) {
  return rc::gen::withSize([max_len, elem](int size) {
    int n = std::max(1, max_len * std::min(size, 100) / 100);
    return rc::gen::resize(n, rc::gen::container<std::vector<T>>(rc::gen::resize(size, elem)));
  });
}

/// Like list_of, with at least one element. Shrinks toward one element.
template <typename T>
rc::Gen<std::vector<T>> list_of1(int max_len, rc::Gen<T> elem) {
  return rc::gen::apply(
      [](T first, std::vector<T> rest) {
        rest.insert(rest.begin(), std::move(first));
        return rest;
      },
      elem, list_of(max_len - 1, elem));
}

// --- name pools ----------------------------------------------------------------
// Each pool holds valid, distinct names near the edges of the grammar: keyword
// look-alikes ("ini", "tos", "Int"), digits, underscores, 32 characters (the
// maximum). A property checks that every pool name is valid.

// Kinds: distinct case-insensitively.
inline const std::vector<std::string>& kind_pool() {
  static const std::vector<std::string> v{"Worker", "Pinger", "Echo", "K",       "Int",
                                          "Self",   "Node_2", "Kind", "SpawnMe", "Abcdefghijklmnopqrstuvwxyz_01234"};
  return v;
}

// Parameters and state fields of kinds, handler parameters.
inline const std::vector<std::string>& var_pool() {
  static const std::vector<std::string> v{
      "x",   "n",   "count", "peer",    "acc",  "v1",    "a_b", "ini", "tos",    "selfie",
      "on_", "if2", "kind_", "given_x", "int_", "addrs", "q",   "z9_", "states", "abcdefghijklmnopqrstuvwxyz_01234"};
  return v;
}

// Message tags of handlers; stray tags are handled by no kind (sends fail with NO_HANDLER).
inline const std::vector<std::string>& tag_pool() {
  static const std::vector<std::string> v{"ping", "pong", "go", "tick", "inc", "to_", "reset", "msg_16"};
  return v;
}
inline const std::vector<std::string>& stray_tag_pool() {
  static const std::vector<std::string> v{"nobody", "unknown_tag"};
  return v;
}

// Failure codes a program may raise: none is a runtime code, some look like one.
inline const std::vector<std::string>& code_pool() {
  static const std::vector<std::string> v{"OOPS",      "BOOM",      "E1",
                                          "X",         "BAD_STATE", "NO_HANDLER_2",
                                          "DIV_ZERO_", "NOPROCS",   "ABCDEFGHIJKLMNOPQRSTUVWXYZ_01234"};
  return v;
}

// Declared processes and supervisors share one namespace; the pools are disjoint.
inline const std::vector<std::string>& process_pool() {
  static const std::vector<std::string> v{"a",      "b",     "main", "w1",    "pinger",
                                          "echo_2", "stop_", "to_x", "init_", "p234567890123456789012345678901x"};
  return v;
}
inline const std::vector<std::string>& supervisor_pool() {
  static const std::vector<std::string> v{"root",  "top",     "mid",     "inner",     "s1",
                                          "sup_2", "repeat_", "one_for", "permanentx"};
  return v;
}

/// `n` distinct names of `pool` (n <= pool size): the pool rotated by a random
/// offset. Shrinks toward offset 0, i.e. toward the pool's first names.
inline rc::Gen<std::vector<std::string>> distinct_names(const std::vector<std::string>& pool, size_t n) {
  return rc::gen::map(uniform<size_t>(0, pool.size()), [pool, n](size_t offset) {
    std::vector<std::string> out;
    for (size_t i = 0; i < n && i < pool.size(); i++) out.push_back(pool[(offset + i) % pool.size()]);
    return out;
  });
}

/// The i-th name drawn from `pool` that is not in `used` (then added to it): pool
/// names first, then with a suffix "_rN", cut to stay within 32 characters.
inline std::string fresh_name(const std::vector<std::string>& pool, size_t i, std::set<std::string>& used) {
  for (size_t round = i / pool.size();; round++) {
    std::string base = pool[i % pool.size()];
    std::string name = base;
    if (round > 0) {
      std::string suffix = "_r" + std::to_string(round);
      name = base.substr(0, std::min(base.size(), 32 - suffix.size())) + suffix;
    }
    if (used.insert(name).second) return name;
  }
}

}  // namespace concord::gen
