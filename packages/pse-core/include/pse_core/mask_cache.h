// The mask cache: for a leaf machine in a given state, starting at a trie node
// (the root, or a node where another leaf ended mid-token), which tokens below
// that node it accepts by itself (whatever the stack below it), and at which
// trie nodes it may end so that the rest of a token goes to the machine below.
// Computed once per (leaf, canonical state, trie node) and vocabulary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace pse {

struct Frame;
class TrieMap;

struct MaskEntry {
  std::vector<std::uint32_t> dense;   ///< bitmask over token ids, or empty
  std::vector<std::int32_t> sparse;   ///< token ids, when few
  /// Exits: trie nodes `d` such that the leaf may end just before d's byte.
  /// Grouped by that byte: exit_nodes[exit_offsets[b] .. exit_offsets[b+1]).
  std::vector<std::uint32_t> exit_offsets;
  std::vector<std::uint32_t> exit_nodes;
  std::vector<std::uint8_t> exit_bytes;  ///< bytes with at least one exit
  /// Lexer leaves (grammars): what the parser receives depends on the state
  /// the lexeme ended in, so their exits carry it, grouped by that state.
  struct LexerExit {
    std::int32_t state;
    std::uint64_t local;
    std::uint32_t node;
    bool extends;  ///< the lexeme could take this byte: only a parent may exit here
  };
  std::vector<LexerExit> lexer_exits;
  std::size_t bytes() const;
};

class MaskCache {
 public:
  /// What an entry depends on: the leaf's content, its canonical state, the trie node.
  struct Key {
    std::uint64_t uid, local;
    std::int32_t state, kind;
    std::uint32_t root;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  static Key key(const Frame& leaf, std::uint32_t root, std::uint32_t span);

  /// The entry for `key` (of `leaf` at trie node `key.root`), built on first
  /// use. Entries are never removed: references stay valid.
  const MaskEntry& get(const Key& key, const Frame& leaf, const TrieMap& trie,
                       std::size_t vocab_size);
  std::size_t entries() const;
  std::size_t bytes() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<Key, std::unique_ptr<MaskEntry>, KeyHash> entries_;
};

}  // namespace pse
