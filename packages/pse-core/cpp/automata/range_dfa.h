// Character-range DFAs: the form the schema compiler's automata take before
// they are lowered to bytes, and their minimisation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pse {

/// A DFA over code points: per state, sorted disjoint (lo, hi, target)
/// ranges; state 0 is the start.
struct RangeDfa {
  std::vector<std::vector<std::array<std::int32_t, 3>>> transitions;
  std::vector<bool> accepting;
};

/// The minimal equivalent DFA: states that are unreachable or cannot reach an
/// accepting state are dropped, equivalent states merged (Moore refinement),
/// states renumbered breadth-first from the start and adjacent ranges with one
/// target joined. The empty language is one rejecting state with no moves.
RangeDfa minimize(const RangeDfa& dfa);

/// The states that can reach a seed: `seeds` (one flag per state) grown
/// backward along `reverse`, where reverse[t] lists the states with a move to t.
std::vector<bool> co_reachable(const std::vector<std::vector<std::int32_t>>& reverse,
                               std::vector<bool> seeds);

/// Appends the move (lo, hi, target) to a row of sorted ranges, joined with the
/// row's last range when it ends at lo - 1 and has the same target (inline: it
/// runs per range in every round of minimize's refinement).
inline void push_range(std::vector<std::array<std::int32_t, 3>>& row, std::int32_t lo,
                       std::int32_t hi, std::int32_t target) {
  if (!row.empty() && row.back()[1] + 1 == lo && row.back()[2] == target) row.back()[1] = hi;
  else row.push_back({lo, hi, target});
}

/// The quotient of a DFA by a partition of its live states into `count`
/// classes (cls[s], for s with live[s]; state 0 is live): one state per class,
/// numbered breadth-first from the start's class, with the moves and the
/// acceptance of the class's first state. `moves(s, emit)` calls emit(lo, hi,
/// target) for each move of state s in character order; moves into states that
/// are not live are dropped.
template <class Moves>
RangeDfa quotient(const std::vector<std::int32_t>& cls, std::size_t count,
                  const std::vector<bool>& live, const std::vector<bool>& accepting, Moves moves) {
  const std::size_t n = cls.size();
  std::vector<std::int32_t> rep(count, -1), order(count, -1), queue;
  for (std::size_t s = 0; s < n; ++s)
    if (live[s] && rep[static_cast<std::size_t>(cls[s])] < 0)
      rep[static_cast<std::size_t>(cls[s])] = static_cast<std::int32_t>(s);
  queue.push_back(cls[0]);
  order[static_cast<std::size_t>(cls[0])] = 0;
  RangeDfa out;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::size_t s = static_cast<std::size_t>(rep[static_cast<std::size_t>(queue[i])]);
    std::vector<std::array<std::int32_t, 3>> row;
    moves(s, [&](std::int32_t lo, std::int32_t hi, std::int32_t target) {
      const std::size_t t = static_cast<std::size_t>(target);
      if (!live[t]) return;
      const std::size_t tc = static_cast<std::size_t>(cls[t]);
      if (order[tc] < 0) {
        order[tc] = static_cast<std::int32_t>(queue.size());
        queue.push_back(static_cast<std::int32_t>(tc));
      }
      push_range(row, lo, hi, order[tc]);
    });
    out.transitions.push_back(std::move(row));
    out.accepting.push_back(accepting[s]);
  }
  return out;
}

/// The minimal DFA of the strings of `dfa` whose length (in code points) is at
/// least `min_length` and, when `max_length` >= 0, at most `max_length`: the
/// product with a counter, minimised.
RangeDfa with_length(const RangeDfa& dfa, std::int64_t min_length, std::int64_t max_length);

/// The minimal DFA accepting exactly the given strings of code points.
RangeDfa literal_dfa(const std::vector<std::vector<std::int32_t>>& names);

/// The strings of Unicode scalar values (U+0000..U+10FFFF without surrogates)
/// that `dfa` rejects: a complete DFA with one more state, the sink (not minimised).
RangeDfa complement(const RangeDfa& dfa);

}  // namespace pse
