// Dfa: a byte-level automaton. state = automaton state (-1: matches nothing).
#pragma once

#include "pse_core/state_machine.h"

namespace pse::dfa {

inline bool step(const StateMachine& n, std::int32_t& state, std::uint64_t&, std::uint8_t b) {
  if (state < 0) return false;
  std::int32_t next = n.transitions[static_cast<std::size_t>(state) * n.classes + n.byte_class[b]];
  if (next < 0) return false;
  state = next;
  return true;
}

inline bool accepting(const StateMachine& n, std::int32_t state, std::uint64_t) {
  return state >= 0 && n.accepting[state];
}

}  // namespace pse::dfa
