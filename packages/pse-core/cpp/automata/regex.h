// ECMA-262 patterns (the JSON Schema `pattern` dialect pse.automata accepts)
// to minimal code-point DFAs: parser, Thompson NFA, subset construction over
// the atoms of the character sets, minimisation. See regex.cc.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "automata/range_dfa.h"

namespace pse {

/// Sorted, disjoint, non-adjacent inclusive code point ranges, no surrogates.
using CodePointSet = std::vector<std::array<std::int32_t, 2>>;

/// Resolves \p{name}, the name being pattern[begin, end) (General_Category
/// values need the Unicode database, which the caller has); it may throw to
/// reject the name.
using PropertyLookup = std::function<CodePointSet(std::size_t begin, std::size_t end)>;

struct RegexInput {
  std::vector<std::int32_t> pattern;  // code points, lone surrogates included
  std::vector<bool> unicode_digit;    // per position: a non-ASCII character str.isdigit() accepts
  bool anchored = false;
  PropertyLookup property;
};

/// Why a pattern did not compile. kSyntax: `what` at `offset` (unsupported or
/// malformed syntax); kLookahead: a lookahead not right after a leading ^;
/// kNfa / kDfa: the automaton is too large.
struct RegexError {
  enum Kind { kSyntax, kLookahead, kNfa, kDfa } kind;
  std::string what;
  std::int64_t offset = -1;
};

/// One part of a pattern's language: the main DFA (negative unused), then one
/// per leading lookahead ("the string starts with a match"; negative: its
/// complement is meant), to be intersected by the caller.
struct RegexPart {
  RangeDfa dfa;
  bool negative = false;
};

/// Parses (with the caller's property lookup) and compiles. Unanchored
/// (JSON Schema semantics): the pattern may match anywhere.
std::variant<std::vector<RegexPart>, RegexError> compile_regex(const RegexInput& input);

}  // namespace pse
