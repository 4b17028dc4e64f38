// The mask cache: for a leaf machine in a given state, starting at a trie node
// (the root, or a node where another leaf ended mid-token), which tokens below
// that node it accepts by itself (whatever the stack below it), and at which
// trie nodes it may end so that the rest of a token goes to the machine below.
// Computed once per (leaf, canonical state, trie node) and vocabulary.
#pragma once

#include <atomic>
#include <cstddef>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "pse_core/class_index.h"

namespace pse {

struct Frame;
class TrieMap;

struct MaskEntry {
  /// A lexer leaf's entry holds only the exits before bytes the lexeme cannot
  /// take; those before bytes it can (nearly all of them after an
  /// identifier: every node below it) are of use only where a parent after
  /// the grammar takes the byte, and lie in a second entry, built when a mask
  /// first needs it (key kind | MaskCache::kExtendingExits). These are their
  /// bytes (bit b of word b / 64), so that a mask sees at once when no byte
  /// after the grammar is among them. First, in the cache line a mask reads first.
  std::array<std::uint64_t, 4> extending_bytes{};
  std::vector<std::uint32_t> dense;   ///< bitmask over token ids, or empty
  std::size_t dense_count = 0;        ///< bits set in `dense`
  std::vector<std::int32_t> sparse;   ///< token ids, when few
  /// Exits: trie nodes `d` such that the leaf may end just before d's byte,
  /// grouped by that byte: those of exit_bytes[k] are
  /// exit_nodes[exit_begin[k], exit_begin[k + 1]).
  std::vector<std::uint8_t> exit_bytes;  ///< bytes with at least one exit, ascending
  std::vector<std::uint32_t> exit_begin;
  std::vector<std::uint32_t> exit_nodes;
  /// Lexer leaves (grammars): what the parser receives depends on the state
  /// the lexeme ended in, so their exits come in groups by that state.
  struct LexerGroup {
    std::int32_t state;
    std::uint64_t local;
    /// lexer_nodes[begin, end): trie nodes `d` such that the lexeme may end
    /// just before d's byte, by byte. In an entry of kind kExtendingExits the
    /// lexeme could take that byte, so only a parent after the grammar may
    /// exit there; in the other entry it could not.
    std::uint32_t begin, end;
  };
  std::vector<LexerGroup> lexer_groups;
  std::vector<std::uint32_t> lexer_nodes;
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
  /// In a key's kind: the entry of a lexer leaf's exits before bytes that
  /// extend the lexeme (MaskEntry::extending_bytes), and nothing else.
  static constexpr std::int32_t kExtendingExits = 1 << 16;

  /// The default of `limit()`: 1 GiB. A grammar's working set is large (the
  /// Python grammar walking this repository's code, 3,000 tokens, holds about
  /// 6 MiB of entries at 49k and 15 MiB at 128k; Bash 7 MiB at 128k), so a
  /// small bound would recompute its masks at every token.
  static constexpr std::size_t kDefaultBytes = std::size_t{1} << 30;
  /// At most this many bytes of entries (MaskEntry::bytes()): an entry that
  /// would pass it empties the cache first. Entries depend only on their key,
  /// so dropping them changes no mask, only what is computed again.
  std::size_t limit() const { return limit_.load(std::memory_order_relaxed); }
  void set_limit(std::size_t bytes) { limit_.store(bytes, std::memory_order_relaxed); }

  /// The entry for `key` (of `leaf` at trie node `key.root`), built on first
  /// use. The caller's reference keeps it alive after the cache drops it.
  std::shared_ptr<const MaskEntry> get(const Key& key, const Frame& leaf, const TrieMap& trie,
                                       std::size_t vocab_size);
  /// Changes each time the cache is emptied: holders of entries may drop theirs.
  std::uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }
  std::size_t entries() const;
  std::size_t bytes() const;
  /// Walk the vocabulary once for the JSON string leaf (before and inside the
  /// quotes, at a token boundary) and index the tokens of the character
  /// classes patterns use most ([0-9], [a-z], \w, hex...), so that no schema's
  /// first mask pays for them.
  void prepare(const TrieMap& trie, std::size_t vocab_size);

  /// A JSON string leaf's tokens from one (state, trie node), walked once
  /// without length bounds and tagged with what the bounds must allow; the
  /// entry of every (minLength, maxLength, count) is filtered from it.
  struct StringProfile {
    /// What a token or exit needs: room for `room` more characters, and
    /// (closed: it holds the closing quote) `count` >= the characters still needed.
    struct Need {
      std::uint32_t room;
      std::uint32_t count;
      bool closed;
    };
    std::vector<std::int32_t> ids;   ///< tokens the leaf consumes whole, open ones first by room
    std::vector<Need> id_needs;      ///< parallel to `ids`
    std::size_t open = 0;            ///< ids[0, open) stay inside the string
    std::vector<std::uint32_t> open_dense;  ///< bitmask of ids[0, open)
    std::vector<std::uint32_t> exit_nodes;  ///< after a closing quote, by byte then node
    std::vector<Need> exit_needs;           ///< parallel to `exit_nodes`
  };

 private:
  std::unique_ptr<MaskEntry> build(const Key& key, const Frame& leaf, const TrieMap& trie,
                                   std::size_t vocab_size);
  const StringProfile& string_profile(const Key& key, const TrieMap& trie, std::size_t vocab_size);
  /// The vocabulary's index of the tokens spelled with `set`'s bytes: built
  /// `now`, or the second time a set is asked for while the indexes hold
  /// less than kClassIndexBytes (of at most kClassSets sets); null when not built.
  const ClassIndex* class_index(const ClassIndex::Set& set, const TrieMap& trie,
                                std::size_t vocab_size, bool now);

  mutable std::mutex mutex_;
  std::unordered_map<Key, std::shared_ptr<const MaskEntry>, KeyHash> entries_;
  std::size_t bytes_ = 0;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> limit_{kDefaultBytes};
  std::size_t swept_size_ = 0;       ///< entries after the last sweep of dead leaf classes
  std::uint64_t swept_deaths_ = 0;   ///< leaf_class_deaths at that sweep
  std::unordered_map<Key, std::unique_ptr<StringProfile>, KeyHash> string_profiles_;
  struct SetHash {
    std::size_t operator()(const ClassIndex::Set& s) const {
      return static_cast<std::size_t>((s[0] * 0x9E3779B97F4A7C15ull) ^
                                      (s[1] * 0xBF58476D1CE4E5B9ull) ^
                                      (s[2] * 0xD6E8FEB86659FD93ull) ^ s[3]);
    }
  };
  struct ClassSlot {
    std::unique_ptr<ClassIndex> index;
    int asked = 0;
  };
  static constexpr std::size_t kClassIndexBytes = std::size_t{64} << 20;
  static constexpr std::size_t kClassSets = 4096;
  std::unordered_map<ClassIndex::Set, ClassSlot, SetHash> class_indexes_;
  std::size_t class_index_bytes_ = 0;
};

}  // namespace pse
