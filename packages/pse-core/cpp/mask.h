// Computing the token mask: which tokens some active stepper can consume.
// Each position has a leaf on top; the mask cache says which tokens below a
// trie node that leaf accepts by itself and where it may end mid-token. Only
// at those ends does the stack below take the next byte, and from there the
// cache answers again: no token is walked byte by byte.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pse_core/frame.h"
#include "pse_core/mask_cache.h"
#include "pse_core/vocabulary.h"
#include "runtime.h"

namespace pse {

/// Whole masks of positions an engine has filled before. A mask is a function
/// of the structure of the stacks it starts from, so the key is every frame of
/// every path's stack (node, kind, state, target, local, flags) and a hit
/// copies the mask once. A frame's `local` enters as far as the mask can tell
/// it apart: a leaf's as its mask-cache key has it (a string's count only as
/// the room its bounds leave within one token), a loop's count only below its
/// minimum when it has no maximum; so the middle tokens of one string, or the
/// items of an array after its minimum, share one key. A grammar frame's
/// parse state enters as its shape (Grammar::shape: equal for parses that
/// every text takes alike), so repeated statements, lines of a docstring or
/// loop bodies share keys. Stacks holding Python steppers are never
/// remembered. The keys point at
/// nodes of the machines in `owners_`, held alive here; a path on another
/// machine, or an edit to any machine in use (`machine_edits`), starts over.
/// A mask with few tokens is kept as their list the first time; a dense one
/// (a copy of the whole bitmask) the second time its position is filled, so
/// a schema's first walk copies no vocabulary-wide mask it does not return
/// to, unless it was costly (kCostlyLookups cache entries or more: a grammar
/// mask at a new parse shape, hundreds of µs where a copy costs one), which
/// is kept the first time. Keys and masks lie back to back in two pools
/// whose storage is kept when the memo starts over, so remembering a mask
/// allocates at most a hash-table node (a first walk remembers most of its
/// masks). At most kBytes of masks and keys (about 500 dense masks at 128k
/// tokens): past that the memo starts over, so it can never change a mask,
/// only whether it is recomputed.
class MaskMemo {
 public:
  static constexpr std::size_t kBytes = std::size_t{8} << 20;
  static constexpr std::size_t kCostlyLookups = 64;
  struct Result {
    std::size_t count = 0;  ///< bits set
    bool finished = false;  ///< some position has finished
  };
  /// Key the tops of `paths` (`span`: the longest token, in bytes); false
  /// (nothing to recall or remember) when they cannot be remembered.
  bool prepare(const std::vector<PathPtr>& paths, std::uint32_t span);
  /// Write the mask of the prepared key to `out` (`words` words) if known.
  bool recall(std::uint32_t* out, std::size_t words, Result& result) const;
  /// Remember `bits` (`words` words) as the mask of the prepared key; `ids`,
  /// when known, lists its set bits (repeats allowed), so that a sparse mask
  /// is not looked for in the words; `lookups`: the cache entries its
  /// computation consulted (MaskComputer::lookups).
  void remember(const std::uint32_t* bits, std::size_t words, Result result,
                const std::vector<std::int32_t>* ids = nullptr, std::size_t lookups = 0);
  /// The engine moved to `machine`: unless the masks kept are its, let go of
  /// them now, with the machines they hold, which may be the last holders
  /// (the old machine's teardown is the switch's, not the new first mask's).
  void switch_to(const StateMachine* machine);

 private:
  /// A remembered mask: its key is keys_[key_at, key_at + key_size), and
  /// data_[data_at, data_at + data_size) holds its words (dense) or its set bits.
  struct Slot {
    std::uint32_t key_at, key_size, data_at, data_size;
    bool dense;
    Result result;
  };
  void forget();        ///< masks, hashes and owners
  void forget_masks();  ///< masks and hashes

  std::vector<std::uint64_t> key_;
  std::uint64_t hash_ = 0;
  static constexpr std::size_t kSightBytes = 32;  ///< a hash in sighted_, with its node
  std::vector<std::uint64_t> keys_;  ///< the keys of slots_, back to back
  std::vector<std::uint32_t> data_;  ///< the masks of slots_, back to back
  std::unordered_map<std::uint64_t, Slot> slots_;  ///< by key hash; a collision replaces
  std::unordered_set<std::uint64_t> sighted_;       ///< hashes of dense masks filled once
  std::vector<SMPtr> owners_;
  std::uint64_t edits_ = 0;
  std::size_t bytes_ = 0;
};

/// One per engine, reused for every mask: its buffers and its memo of cache
/// entries (looked up without the shared cache's lock) persist between calls.
class MaskComputer {
 public:
  using ByteSet = std::array<std::uint64_t, 4>;
  MaskComputer(const Vocabulary& vocab, Arena& scratch)
      : vocab_(vocab), nodes_(vocab.trie().nodes()), rt_(scratch, false), arena_(scratch) {}

  /// Write to `bits` (the vocabulary's words, any content before) the tokens
  /// some position can consume; returns whether a position has finished
  /// (end-of-sequence allowed).
  bool compute(const Positions& closed, std::uint32_t* bits);
  /// The tokens the last compute() allowed.
  std::size_t allowed() const { return count_; }
  /// The ids the last compute() set, when each came through a trie node or a
  /// sparse entry (no dense entry, checked node or external stepper); else null.
  const std::vector<std::int32_t>* ids() const { return listing_ ? &ids_ : nullptr; }
  /// The mask-cache entries the last compute() consulted: what it cost.
  std::size_t lookups() const { return lookups_; }
  Runtime& runtime() { return rt_; }
  MaskMemo& memo() { return memo_; }

 private:
  /// Tokens below trie node `u` that continue the canonical positions `set`.
  void explore(std::uint32_t u, const Positions& set, std::size_t depth);
  /// Below a trie node with at most kWalkNodes nodes under it, a leaf's tokens
  /// are walked here: a mask-cache entry costs more to look up (and to build
  /// on a first walk) than these few steps.
  static constexpr std::uint32_t kWalkNodes = 16;
  /// Tokens below trie node `u` that leaf position `p` (in `state`, `local`)
  /// continues; `below`: the positions after `p` ends, closed when first
  /// needed, and `takes` their first_bytes.
  void walk(const Frame* p, std::uint32_t u, std::int32_t state, std::uint64_t local,
            std::size_t depth, Positions*& below, ByteSet& takes);
  /// Tokens that go on below trie node `c`, where leaf position `p` may end:
  /// the rest of each goes to the stack below `p` (`below`, as in walk).
  void exits(const Frame* p, std::uint32_t c, std::size_t depth, Positions*& below,
             ByteSet& takes);
  /// Tokens below trie node `u` that case-sensitive phrase position `p`
  /// continues, found by descending the trie along its remaining bytes: a
  /// mask-cache entry would cost more to build (and as much to look up).
  void phrase(const Frame* p, std::uint32_t u, std::size_t depth);
  void external(const Frame* f, std::uint32_t u);
  /// The mask of a native checked node's stepper `f`; false for other externals.
  bool checked(const Frame* f, std::uint32_t u, std::size_t depth);
  /// The exits of lexer leaf `p` below trie node `u` (its entry `e`): one stack
  /// below per state the lexeme ended in.
  void lexer_exits(const Frame* p, std::uint32_t u, const MaskEntry& e, std::size_t depth);
  void mark(std::uint32_t node);
  /// The mask's words start undefined: the first dense entry is copied into
  /// them, not ORed into zeros (a 128k vocabulary's mask is 16 KB), and its
  /// bits were counted once, when the entry was built. clear() zeroes them
  /// before any other write (allow() calls it when it has ids to set).
  void clear() {
    if (!zeroed_) {
      std::fill(bits_, bits_ + words_, 0u);
      zeroed_ = true;
    }
  }
  /// Set the bits of `n` ids, counting those it adds while few ids were
  /// counted so: a count costs about three instructions an id, a pass over
  /// the words at the end about one a word, and a grammar mask sets tens of
  /// thousands of ids one by one where a JSON mask sets a few hundred.
  void allow(const std::int32_t* ids, std::size_t n) {
    if (n == 0) return;
    clear();
    if (counted_ && n <= tally_left_) {
      tally_left_ -= n;
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t& word = bits_[ids[i] >> 5];
        const std::uint32_t bit = 1u << (ids[i] & 31);
        count_ += !(word & bit);
        word |= bit;
      }
    } else {
      counted_ = false;
      for (std::size_t i = 0; i < n; ++i) bits_[ids[i] >> 5] |= 1u << (ids[i] & 31);
    }
  }
  void add_dense(const MaskEntry& e);
  /// Bytes some position of `set` may take next (a superset).
  static ByteSet first_bytes(const Positions& set);
  static bool any(const ByteSet& s) { return (s[0] | s[1] | s[2] | s[3]) != 0; }
  Positions& level(std::size_t depth);
  /// `extending`: a lexer leaf's second entry (MaskEntry::extending_bytes).
  const MaskEntry& entry(const Frame& leaf, std::uint32_t root, bool extending = false);

  const Vocabulary& vocab_;
  const std::vector<TrieMap::Node>& nodes_;
  Runtime rt_;
  Arena& arena_;
  std::uint32_t* bits_ = nullptr;
  std::size_t words_ = 0;  ///< of bits_
  bool zeroed_ = false;    ///< bits_ holds a mask (else its words are undefined)
  std::size_t count_ = 0;  ///< bits set in bits_, while counted_
  bool counted_ = true;    ///< count_ is known (else compute() counts the words at the end)
  std::size_t tally_left_ = 0;  ///< ids allow() may still count one by one (words / 4 at first)
  std::vector<std::unique_ptr<Positions>> levels_;  ///< by depth; references survive growth
  /// Entries this engine used, held until the shared cache empties (see
  /// MaskCache::generation): the cache's bound frees them once every engine
  /// has let go.
  std::unordered_map<MaskCache::Key, std::shared_ptr<const MaskEntry>, MaskCache::KeyHash> seen_;
  /// A direct-mapped view of `seen_` (emptied with it), looked at first: one
  /// slot read where `seen_` costs a bucket, a node and its hash (grammar
  /// masks ask hundreds of entries each).
  struct Recent {
    MaskCache::Key key;
    const MaskEntry* entry = nullptr;
  };
  /// Slots: at least kRecent, and as many as `seen_` has entries up to
  /// kRecentMax (a 128k grammar mask asks hundreds of entries among ~19,000
  /// an engine has seen; 4,096 slots hit 58% of them).
  static constexpr std::size_t kRecent = 4096, kRecentMax = std::size_t{1} << 15;
  std::vector<Recent> recent_ = std::vector<Recent>(kRecent);
  std::uint64_t generation_ = 0;
  std::size_t swept_size_ = 0;      ///< `seen_` after its last sweep of dead leaf classes
  std::uint64_t swept_deaths_ = 0;  ///< leaf_class_deaths at that sweep
  bool finished_ = false;
  std::vector<std::int32_t> ids_;  ///< see ids()
  std::size_t lookups_ = 0;        ///< see lookups()
  bool listing_ = false;
  MaskMemo memo_;
};

}  // namespace pse
