// The minimal DFA of the JSON number literals whose value meets numeric
// constraints (bounds, multipleOf, integer). See number_dfa.cc for the
// construction; pse.automata.numbers validates the schema values and calls it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "automata/range_dfa.h"

namespace pse {

/// One bound: the value as exact decimal text ("-90", "0.25", "1e3" is not
/// allowed: plain digits with an optional sign and point) and the allowed
/// outcomes of comparing a literal's value with it: bit 0 "less", bit 1
/// "equal", bit 2 "greater" (minimum = equal|greater, exclusiveMaximum = less).
struct NumberBound {
  std::string decimal;
  unsigned allowed;
};

struct NumberConstraints {
  std::vector<NumberBound> bounds;
  /// multipleOf as a reduced fraction p/q (p = 0: none). `integer` is the
  /// caller's business: it passes lcm(multipleOf, 1).
  std::uint64_t multiple_p = 0;
  std::uint64_t multiple_q = 1;
  /// Accept the values that are *not* multiples of p/q instead (`not`). An
  /// exponent whose check is left out (see max_remainders) is still rejected.
  bool negate_multiple = false;
  /// Exponents are accepted only with |value| <= exponent_limit.
  int exponent_limit = 4;
  /// A branch (exponent) whose remainder check needs more states than this
  /// and than exponent 0's (multiple_p, which the caller bounds) is left out,
  /// except for a zero mantissa (0 is a multiple of everything).
  std::uint64_t max_remainders = 100;
  std::size_t max_states = 20000;
};

/// The minimal DFA, or nullopt when it would need more than max_states states.
std::optional<RangeDfa> number_dfa(const NumberConstraints& constraints);

}  // namespace pse
