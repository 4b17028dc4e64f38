// The tokens spelled with bytes of one set, by depth in the trie: the part of
// a byte automaton's walk over the vocabulary that does not depend on its
// states. A state that reads every byte of the set to one next state, and that
// one reads the set to one next state again, and so on, accepts the tokens of
// the set up to that chain's length without a step per trie node; only the
// children that leave the set (a quote after letters) are stepped one by one.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "pse_core/trie.h"

namespace pse {

struct ClassIndex {
  using Set = std::array<std::uint64_t, 4>;
  static bool has(const Set& set, std::uint8_t b) { return (set[b >> 6] >> (b & 63)) & 1u; }

  /// Trie nodes below the root whose bytes are all in the set, by depth: those
  /// of depth 1..d are nodes[0, node_end[d]). node_end[0] = 0.
  std::vector<std::uint32_t> nodes;
  std::vector<std::uint32_t> node_end;
  /// Their token ids, the same way: ids[0, id_end[d]).
  std::vector<std::int32_t> ids;
  std::vector<std::uint32_t> id_end;
  /// Bitmask over token ids of ids[0, id_end[d]), for d = 1..depth().
  std::vector<std::vector<std::uint32_t>> dense;
  /// Children of the root and of those nodes whose byte is not in the set, by
  /// the parent's depth d, then by byte b: boundary[boundary_at[257 * d + b],
  /// boundary_at[257 * d + b + 1]), in trie order.
  std::vector<std::uint32_t> boundary;
  std::vector<std::uint32_t> boundary_at;

  /// The deepest such node (0 when none).
  std::uint32_t depth() const { return static_cast<std::uint32_t>(node_end.size() - 1); }
  std::size_t bytes() const;

  ClassIndex(const TrieMap& trie, const Set& set, std::size_t vocab_size);
};

}  // namespace pse
