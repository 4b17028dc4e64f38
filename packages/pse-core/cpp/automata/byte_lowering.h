// From code-point DFAs to the 256-wide byte tables of DfaStateMachine: the
// UTF-8 encoding of a DFA's strings, or the JSON string literals (quotes and
// every escape spelling) of its strings. See byte_lowering.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "automata/range_dfa.h"

namespace pse {

/// Rows of 256 targets (-1: no move), row-major; one accepting flag per row.
struct ByteTable {
  std::vector<std::int32_t> cells;
  std::vector<std::uint8_t> accepting;
};

/// Reads the UTF-8 encoding of `dfa`'s strings; row s is DFA state s (start 0).
/// nullopt past `max_states` rows.
std::optional<ByteTable> lower_utf8(const RangeDfa& dfa, std::size_t max_states);

/// Reads the JSON string literals (with quotes) that decode to `dfa`'s
/// strings: raw UTF-8 where JSON allows it (at least U+0020, not '"' or '\'),
/// short escapes, \uXXXX in either hex case, surrogate pairs above U+FFFF;
/// unpaired surrogate escapes are rejected. Start row 0. nullopt past
/// `max_states` rows.
std::optional<ByteTable> lower_json_string(const RangeDfa& dfa, std::size_t max_states);

}  // namespace pse
