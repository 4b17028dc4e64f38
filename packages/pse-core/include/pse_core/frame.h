// Frames, histories and arenas: the memory model of steppers.
//
// A position in a grammar is a stack of frames, innermost on top, linked from
// top to bottom through `parent`. Frames are immutable once made, so stacks
// share their lower frames and stepping a byte allocates only what changes.
// Frames live in arenas; an arena keeps alive the arenas its frames point into.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pse_core/limits.h"
#include "pse_core/shared_log.h"
#include "pse_core/state_machine.h"

namespace pse {

struct Hist;

enum FrameFlags : std::uint8_t {
  kConsumed = 1,  ///< this frame (or a child of it) consumed at least one byte
  kDone = 2,      ///< the root completed: nothing more can be consumed
};

/// \brief One level of a stepper stack.
struct Frame {
  const Frame* parent;
  const StateMachine* node;  ///< for kBuffer frames: the WaitFor node
  const Hist* hist;          ///< completed children, newest first (recording mode)
  std::uint64_t local;       ///< leaf counters / loop count
  std::uint64_t hash;        ///< structural hash of the whole stack
  std::uint32_t start;       ///< text offset where this frame began
  std::int32_t state;        ///< graph state / leaf sub-state / loop or wait-for phase
  std::int32_t target;       ///< parent's next state when this frame completes
  std::uint32_t depth;       ///< 1 for the bottom frame
  Kind kind;
  std::uint8_t flags;

  bool consumed() const { return flags & kConsumed; }
  bool done() const { return flags & kDone; }
};

/// \brief A completed child frame, recorded in its parent.
struct Hist {
  const Hist* next;
  const Frame* child;
  std::uint32_t end;
};

/// Structural equality of two stacks (ignores histories).
bool same_stack(const Frame* a, const Frame* b);

/// \brief Bump allocator for trivially destructible frames and histories.
class Arena {
 public:
  /// `block_bytes`: size of each block. Scratch arenas (mask walks) use the
  /// large default; the arena of one consumed token holds a few frames.
  explicit Arena(std::size_t block_bytes = limits::kArenaBlockBytes) : block_bytes_(block_bytes) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  template <class T>
  T* make(const T& value) {
    return new (allocate(sizeof(T), alignof(T))) T(value);
  }

  struct Mark {
    std::size_t block, used;
  };
  Mark mark() const { return {block_, used_}; }
  void rewind(Mark m) {
    block_ = m.block;
    used_ = m.used;
  }
  void reset() {
    rewind({0, 0});
    kept_.clear();
  }

  /// Keep another arena (or any object) alive as long as this one.
  void keep(std::shared_ptr<const void> other) { kept_.push_back(std::move(other)); }
  std::size_t bytes_reserved() const { return blocks_.size() * block_bytes_; }

 private:
  /// In the current block when it has room (the per-frame path of a mask walk), else grow().
  void* allocate(std::size_t size, std::size_t align) {
    const std::size_t at = (used_ + align - 1) & ~(align - 1);
    if (block_ < blocks_.size() && at + size <= block_bytes_) {
      used_ = at + size;
      return blocks_[block_].get() + at;
    }
    return grow(size, align);
  }
  void* grow(std::size_t size, std::size_t align);
  std::size_t block_bytes_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::size_t block_ = 0, used_ = 0;
  std::vector<std::shared_ptr<const void>> kept_;
};

/// \brief What a Python Stepper holds: a stack plus the text and tokens that
/// led to it. Immutable; shared between views.
struct Path {
  const Frame* top = nullptr;
  std::uint32_t root_depth = 1;     ///< depth of the frame that acts as the root
  SMPtr machine;                    ///< keeps the grammar alive
  std::shared_ptr<Arena> arena;
  SharedLog<std::string> text;                 ///< the bytes consumed so far
  SharedLog<std::vector<std::int32_t>> token_ids;
  SharedLog<std::vector<std::uint32_t>> token_ends;  ///< text offset after each token
  std::optional<std::string> remaining;
};
using PathPtr = std::shared_ptr<const Path>;

}  // namespace pse
