// StepperDelta: one outcome of feeding a token to a stepper, and the rule
// that picks among outcomes when several remain.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pse_core/stepper.h"

namespace pse {

class StepperDelta {
 public:
  StepperDelta(Stepper stepper, std::string token, bool was_healed, std::int32_t token_id = -1)
      : stepper(std::move(stepper)),
        token(std::move(token)),
        was_healed(was_healed),
        token_id(token_id) {}

  Stepper stepper;
  std::string token;
  bool was_healed;
  std::int32_t token_id;

  /// Accept states make a path attractive: the structure could end here.
  bool is_attractive_path() const { return stepper.has_reached_accept_state(); }

  /// The best token path: unhealed before healed, then paths with an accept
  /// state, then the longer token. Returns that token and all its steppers.
  static std::pair<std::string, std::vector<Stepper>> choose_best_path(
      const std::vector<StepperDelta>& deltas);
};

}  // namespace pse
