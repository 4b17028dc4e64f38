// The runtime: how stacks of frames move. `closure` expands a stack to every
// canonical position reachable without consuming input (a leaf on top, or the
// finished root); `step` feeds one byte to a canonical position.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "pse_core/frame.h"

namespace pse {

/// A set of canonical positions, in insertion order. Small sets are searched
/// linearly; past `kIndexFrom` positions `add_unique` keeps a hash index (the
/// hundreds of keys an object with many optional properties offers at once).
class Positions : public std::vector<const Frame*> {
 public:
  using std::vector<const Frame*>::vector;
  static constexpr std::size_t kIndexFrom = 32;

  void clear() {
    std::vector<const Frame*>::clear();
    if (indexed_) std::fill(table_.begin(), table_.end(), nullptr);
    indexed_ = 0;
  }
  void swap(Positions& other) noexcept {
    std::vector<const Frame*>::swap(other);
    table_.swap(other.table_);
    std::swap(indexed_, other.indexed_);
  }

 private:
  friend void add_unique(Positions& set, const Frame* f);
  std::vector<const Frame*> table_;  ///< open addressing on Frame::hash; null = free
  std::size_t indexed_ = 0;          ///< positions [0, indexed_) are in the table
};

/// Add `f` unless an equal stack is already present.
void add_unique(Positions& set, const Frame* f);

class Runtime {
 public:
  /// `record`: keep histories of completed children (for values); off while
  /// computing masks. Frames at `root_depth` act as the root (sub-steppers).
  Runtime(Arena& arena, bool record, std::uint32_t root_depth = 1)
      : arena_(arena), record_(record), root_depth_(root_depth) {}

  /// Text offset of the next byte; frames and histories record it.
  std::uint32_t offset = 0;
  /// Whether closures ask a consumed grammar at the root if its text may end
  /// there (parser steps). A mask turns it off below the trie root, where a
  /// finished position takes no byte and the lexer leaf beside it already
  /// ends the token.
  bool finals = true;

  /// A fresh frame for `node` on top of `parent`.
  /// `raw`: the node's own kind even when an external stepper overrides it.
  const Frame* push(const Frame* parent, const StateMachine* node, std::int32_t target,
                    std::int32_t state = -1, bool raw = false);
  /// Results of an external frame consuming a prefix of `text`: (frame, bytes used).
  std::vector<std::pair<const Frame*, std::size_t>> external_step(const Frame* f,
                                                                   std::string_view text);
  Arena& arena() { return arena_; }
  /// Every canonical position reachable from `f` without input, appended to `out`.
  void closure(const Frame* f, Positions& out);
  /// The successor of canonical position `f` on byte `b` (not yet closed), or null.
  const Frame* step(const Frame* f, std::uint8_t b);
  /// The position after `f` completes: its parent advanced, or the finished root.
  const Frame* pop(const Frame* f);
  /// pop() of lexer frame `lexeme` as if it were in `state` with `local`: the
  /// grammar frame after that lexeme (a mask's exits, without a frame for the end).
  const Frame* end_lexeme(const Frame* lexeme, std::int32_t state, std::uint64_t local);
  /// Whether `f` acts as the root: completing it finishes everything (pop()).
  bool is_root(const Frame* f) const { return f->depth <= root_depth_ || !f->parent; }
  /// closure() of each successor of each position on `b`, deduplicated.
  void advance(const Positions& in, std::uint8_t b, Positions& out);

  const Frame* with(const Frame* f, std::int32_t state, std::uint64_t local, std::uint8_t flags,
                    const Hist* hist);
  /// A copy of `f` standing on another parent.
  const Frame* reparent(const Frame* f, const Frame* parent);
  const Frame* make(const Frame* parent, const StateMachine* node, Kind kind, std::int32_t state,
                    std::int32_t target, std::uint64_t local, std::uint8_t flags);

 private:
  void graph_closure(const Frame* f, Positions& out);
  void loop_closure(const Frame* f, Positions& out);
  void wait_closure(const Frame* f, Positions& out);
  // Grammars (cpp/grammar/grammar_runtime.cc).
  std::uint64_t grammar_start(const StateMachine& node);
  void grammar_closure(const Frame* f, Positions& out);
  void check_depth(const Frame* f);

  Arena& arena_;
  bool record_;
  std::uint32_t root_depth_;
};

}  // namespace pse
