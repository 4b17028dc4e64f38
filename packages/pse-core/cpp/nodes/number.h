// Number: a JSON number. state = DFA state; accepting states end a number.
#pragma once

#include "pse_core/state_machine.h"

namespace pse::number {

enum State : std::int32_t {
  kStart = 0, kMinus = 1, kZero = 2, kInt = 3, kDot = 4, kFrac = 5, kExp = 6, kExpSign = 7,
  kExpDigits = 8,
};

inline bool digit(std::uint8_t b) { return b >= '0' && b <= '9'; }

inline bool step(const StateMachine& n, std::int32_t& state, std::uint64_t&, std::uint8_t b) {
  auto go = [&](std::int32_t s) {
    state = s;
    return true;
  };
  switch (state) {
    case kStart:
      if (b == '-' && n.allow_negative) return go(kMinus);
      [[fallthrough]];
    case kMinus:
      if (b == '0') return go(kZero);
      if (digit(b)) return go(kInt);
      return false;
    case kInt:
      if (digit(b)) return go(kInt);
      [[fallthrough]];
    case kZero:
      if (n.integer_only) return false;
      if (b == '.') return go(kDot);
      if (b == 'e' || b == 'E') return go(kExp);
      return false;
    case kDot:
      return digit(b) && go(kFrac);
    case kFrac:
      if (digit(b)) return go(kFrac);
      if (b == 'e' || b == 'E') return go(kExp);
      return false;
    case kExp:
      if (b == '+' || b == '-') return go(kExpSign);
      [[fallthrough]];
    case kExpSign:
    case kExpDigits:
      return digit(b) && go(kExpDigits);
    default:
      return false;
  }
}

inline bool accepting(const StateMachine&, std::int32_t state, std::uint64_t) {
  return state == kZero || state == kInt || state == kFrac || state == kExpDigits;
}

}  // namespace pse::number
