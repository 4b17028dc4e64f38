#include "automata/range_dfa.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace pse {
namespace {

/// Reachable from the start and able to reach an accepting state.
std::vector<bool> live_states(const RangeDfa& dfa) {
  const std::size_t n = dfa.transitions.size();
  std::vector<bool> reach(n, false), seeds(n, false);
  std::vector<std::vector<std::int32_t>> back(n);
  std::vector<std::int32_t> stack{0};
  reach[0] = true;
  while (!stack.empty()) {
    std::size_t s = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    for (const auto& r : dfa.transitions[s]) {
      std::size_t t = static_cast<std::size_t>(r[2]);
      back[t].push_back(static_cast<std::int32_t>(s));
      if (!reach[t]) {
        reach[t] = true;
        stack.push_back(r[2]);
      }
    }
  }
  for (std::size_t s = 0; s < n; ++s) seeds[s] = reach[s] && dfa.accepting[s];
  return co_reachable(back, std::move(seeds));
}

}  // namespace

RangeDfa minimize(const RangeDfa& dfa) {
  const std::size_t n = dfa.transitions.size();
  RangeDfa out;
  std::vector<bool> live = n ? live_states(dfa) : std::vector<bool>{};
  if (n == 0 || !live[0]) {
    out.transitions.emplace_back();
    out.accepting.push_back(false);
    return out;
  }
  // Moore refinement. A signature is the state's class and its moves into
  // live states with targets replaced by their classes (adjacent ranges of
  // one class joined, so equal languages get equal signatures).
  std::vector<std::int32_t> cls(n, -1);
  bool has[2] = {false, false};
  for (std::size_t s = 0; s < n; ++s)
    if (live[s]) {
      cls[s] = dfa.accepting[s] ? 1 : 0;
      has[cls[s]] = true;
    }
  std::size_t count = static_cast<std::size_t>(has[0]) + static_cast<std::size_t>(has[1]);
  std::vector<std::array<std::int32_t, 3>> sig_row;
  std::string key;
  while (true) {
    std::unordered_map<std::string, std::int32_t> sigs;
    sigs.reserve(count * 2);
    std::vector<std::int32_t> next(n, -1);
    for (std::size_t s = 0; s < n; ++s) {
      if (!live[s]) continue;
      sig_row.clear();
      for (const auto& r : dfa.transitions[s])
        if (live[static_cast<std::size_t>(r[2])]) push_range(sig_row, r[0], r[1], cls[static_cast<std::size_t>(r[2])]);
      key.assign(reinterpret_cast<const char*>(&cls[s]), sizeof(std::int32_t));
      key.append(reinterpret_cast<const char*>(sig_row.data()), sig_row.size() * sizeof sig_row[0]);
      next[s] = sigs.try_emplace(key, static_cast<std::int32_t>(sigs.size())).first->second;
    }
    bool stable = sigs.size() == count;
    count = sigs.size();
    cls = std::move(next);
    if (stable) break;
  }
  return quotient(cls, count, live, dfa.accepting, [&](std::size_t s, auto&& emit) {
    for (const auto& r : dfa.transitions[s]) emit(r[0], r[1], r[2]);
  });
}

std::vector<bool> co_reachable(const std::vector<std::vector<std::int32_t>>& reverse,
                               std::vector<bool> seeds) {
  std::vector<std::int32_t> stack;
  for (std::size_t s = 0; s < seeds.size(); ++s)
    if (seeds[s]) stack.push_back(static_cast<std::int32_t>(s));
  while (!stack.empty()) {
    std::size_t t = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    for (std::int32_t s : reverse[t])
      if (!seeds[static_cast<std::size_t>(s)]) {
        seeds[static_cast<std::size_t>(s)] = true;
        stack.push_back(s);
      }
  }
  return seeds;
}

RangeDfa with_length(const RangeDfa& dfa, std::int64_t min_length, std::int64_t max_length) {
  const std::int64_t cap = max_length >= 0 ? max_length : min_length;
  std::map<std::pair<std::int32_t, std::int64_t>, std::int32_t> ids{{{0, 0}, 0}};
  std::vector<std::pair<std::int32_t, std::int64_t>> order{{0, 0}};
  RangeDfa out;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto [s, n] = order[i];
    std::vector<std::array<std::int32_t, 3>> row;
    const std::int64_t m = max_length >= 0 ? n + 1 : std::min(n + 1, cap);
    if (m <= cap)
      for (const auto& r : dfa.transitions[static_cast<std::size_t>(s)]) {
        auto [it, added] = ids.try_emplace({r[2], m}, static_cast<std::int32_t>(order.size()));
        if (added) order.emplace_back(r[2], m);
        row.push_back({r[0], r[1], it->second});
      }
    out.transitions.push_back(std::move(row));
    out.accepting.push_back(dfa.accepting[static_cast<std::size_t>(s)] && n >= min_length);
  }
  return minimize(out);
}

RangeDfa literal_dfa(const std::vector<std::vector<std::int32_t>>& names) {
  // A trie (children as (code point, state) pairs, sorted afterwards), then minimised.
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> children(1);
  std::vector<bool> accepting(1, false);
  for (const auto& name : names) {
    std::size_t s = 0;
    for (std::int32_t cp : name) {
      std::int32_t next = -1;
      for (const auto& [c, t] : children[s])
        if (c == cp) next = t;
      if (next < 0) {
        next = static_cast<std::int32_t>(children.size());
        children[s].emplace_back(cp, next);
        children.emplace_back();
        accepting.push_back(false);
      }
      s = static_cast<std::size_t>(next);
    }
    accepting[s] = true;
  }
  RangeDfa trie;
  trie.accepting = std::move(accepting);
  trie.transitions.resize(children.size());
  for (std::size_t s = 0; s < children.size(); ++s) {
    std::sort(children[s].begin(), children[s].end());
    for (const auto& [c, t] : children[s]) trie.transitions[s].push_back({c, c, t});
  }
  return minimize(trie);
}

RangeDfa complement(const RangeDfa& dfa) {
  static constexpr std::array<std::array<std::int32_t, 2>, 2> kScalars{{{0, 0xD7FF}, {0xE000, 0x10FFFF}}};
  const auto sink = static_cast<std::int32_t>(dfa.transitions.size());
  RangeDfa out;
  for (const auto& row : dfa.transitions) {
    auto full = row;  // the row's moves, then its gaps within the scalar values to the sink
    for (const auto& [lo, hi] : kScalars) {
      std::int32_t next = lo;  // the first scalar value not yet covered
      for (const auto& r : row) {
        if (r[1] < next) continue;
        if (r[0] > hi) break;
        if (r[0] > next) full.push_back({next, r[0] - 1, sink});
        next = r[1] + 1;
        if (next > hi) break;
      }
      if (next <= hi) full.push_back({next, hi, sink});
    }
    std::sort(full.begin(), full.end());
    out.transitions.push_back(std::move(full));
  }
  out.transitions.push_back({{kScalars[0][0], kScalars[0][1], sink}, {kScalars[1][0], kScalars[1][1], sink}});
  for (bool a : dfa.accepting) out.accepting.push_back(!a);
  out.accepting.push_back(true);
  return out;
}

}  // namespace pse
