// A native machine under a check the automaton cannot make: the JSON value the
// wrapped machine reads must also pass a `Check` that sees its bytes (items
// pairwise distinct, a decoded string that is a valid regex, ...).
//
// The node is an ExternalNode implemented in C++, so the engine steps it a
// token at a time with no Python call. Its stepper holds the positions of the
// wrapped machine (in its own arena) and the check's state. For a mask it
// stands for those positions on the real stack: the mask computer walks them
// like any other (cached leaf entries, no token fed one by one) and then
// clears the tokens the check rejects, asking the check only about tokens the
// wrapped machine allows (`CheckedNode::filter`).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "pse_core/external.h"
#include "pse_core/frame.h"
#include "pse_core/vocabulary.h"
#include "runtime.h"

namespace pse {

/// What a checked node asks about the bytes of its value. States are
/// immutable and shared; `feed` makes a new one.
class Check {
 public:
  using State = std::shared_ptr<const void>;
  virtual ~Check() = default;
  virtual State start() const = 0;
  /// The state after `bytes`, or null when they are rejected. The check reads
  /// up to the byte that closes the value and ignores the rest (it belongs to
  /// the parent).
  virtual State feed(const void* state, std::string_view bytes) const = 0;
  /// Whether `feed(state, bytes)` would succeed; may skip building the state.
  virtual bool allows(const void* state, std::string_view bytes) const {
    return feed(state, bytes) != nullptr;
  }
};

class CheckedNode : public ExternalNode {
 public:
  /// `inner`: the wrapped machine, owned by the node that holds this one (as
  /// its only edge, so that sealing and sharing see it).
  CheckedNode(const StateMachine* inner, std::shared_ptr<const Check> check)
      : inner_(inner), check_(std::move(check)) {}

  Handle start() override;
  std::vector<Step> consume(void* h, std::string_view text) override;
  bool accepting(void* h) override;

  /// The wrapped machine's positions of stepper `f` (an external frame of this
  /// node), standing where `f` stands, appended to `out` (frames from `rt`).
  void positions(const Frame* f, Runtime& rt, Positions& out) const;
  /// Clear in `bits` the tokens the check of stepper `f` rejects; `skip`: bytes
  /// of each token consumed before the stepper (a mask that began mid-token).
  void filter(const Frame* f, const Vocabulary& vocab, std::size_t skip,
              std::uint32_t* bits) const;

 private:
  const StateMachine* inner_;
  std::shared_ptr<const Check> check_;
};

/// A graph node whose only edge is `inner`, stepped as `inner` under `check`.
SMPtr make_checked(SMPtr inner, std::shared_ptr<const Check> check);

}  // namespace pse
