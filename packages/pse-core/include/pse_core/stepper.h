// Stepper: the documented view of a position. A stepper looks at one frame of
// a path: the root (what the engine holds), an active sub-stepper above it, or
// a completed child in a history. Steppers are immutable; consume() returns
// new ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pse_core/frame.h"
#include "pse_core/trie.h"

namespace pse {

class Runtime;
class Positions;

class Stepper {
 public:
  Stepper(PathPtr path, const Frame* frame, std::optional<std::uint32_t> end = std::nullopt)
      : path(std::move(path)), frame(frame), end(end) {}
  /// A fresh stepper at the start of `machine` (or at graph state `state`).
  static Stepper start(const SMPtr& machine, std::int32_t state = -1, bool raw = false);

  PathPtr path;
  const Frame* frame;                 ///< the frame this stepper views
  std::optional<std::uint32_t> end;   ///< set for completed (history) steppers

  bool is_root() const { return !end && frame->depth == path->root_depth; }
  bool completed() const { return end.has_value(); }

  std::vector<Stepper> consume(std::string_view token, std::int32_t token_id = -1) const;
  std::string raw_value() const;
  /// Ids of the tokens whose text overlaps this stepper's text.
  std::vector<std::int32_t> token_ids() const;
  std::size_t consumed_character_count() const;
  bool has_reached_accept_state() const;
  bool can_accept_more_input() const;
  bool is_within_value() const;
  bool accepts_any_token() const;
  std::vector<std::string> valid_continuations() const;
  std::vector<std::string> invalid_continuations() const;
  std::optional<std::string> identifier() const;
  std::optional<Stepper> sub_stepper() const;
  std::vector<Stepper> history() const;
  /// The state this frame is in, as the user's key; nullopt for none.
  StateKey current_state() const;
  std::optional<StateKey> target_state() const;
  /// The alternative positions this stepper can be in before its next byte
  /// (one per way forward); with `first`, only those that accept that byte.
  std::vector<Stepper> branch(std::optional<std::uint8_t> first = std::nullopt) const;
  /// The same position with this frame moved to another graph state.
  Stepper with_state(std::int32_t state) const;

 private:
  /// Canonical positions of this stepper, with this frame as the root.
  void closed(Runtime& rt, Positions& out) const;
};

/// The stepper that views a path's root frame.
Stepper root_view(const PathPtr& path);

/// Feed text to a stepper and wrap the results as deltas; with a trie, a
/// token that is only partly consumed is healed to the vocabulary token it
/// begins with (see docs/semantics.md).
std::vector<class StepperDelta> advance_path(const PathPtr& path, std::string_view token,
                                             const TrieMap* vocab);

}  // namespace pse
