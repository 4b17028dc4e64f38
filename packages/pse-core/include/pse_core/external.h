// ExternalNode: a machine whose stepping is defined outside the engine (a
// Python subclass that overrides get_new_stepper). The engine talks to it a
// token at a time, never a byte at a time: the documented slow path.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace pse {

class ExternalNode {
 public:
  /// An opaque stepper state; the engine keeps it alive while a frame uses it.
  using Handle = std::shared_ptr<void>;
  struct Step {
    Handle next;
    std::size_t consumed;  ///< bytes of the text it consumed (the rest is left over)
  };
  virtual ~ExternalNode() = default;
  virtual Handle start() = 0;
  /// Every way the stepper `h` can consume a prefix of `text`.
  virtual std::vector<Step> consume(void* h, std::string_view text) = 0;
  virtual bool accepting(void* h) = 0;
};

}  // namespace pse
