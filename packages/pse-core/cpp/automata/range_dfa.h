// Character-range DFAs: the form the schema compiler's automata take before
// they are lowered to bytes, and their minimisation.
#pragma once

#include <array>
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

/// The minimal DFA accepting exactly the given strings of code points.
RangeDfa literal_dfa(const std::vector<std::vector<std::int32_t>>& names);

/// The strings of Unicode scalar values (U+0000..U+10FFFF without surrogates)
/// that `dfa` rejects: a complete DFA with one more state, the sink (not minimised).
RangeDfa complement(const RangeDfa& dfa);

}  // namespace pse
