// Buffer: the free text a WaitFor accepts before its machine starts.
// The frame's node is the WaitFor; local = count | utf8 state << 32.
#pragma once

#include <algorithm>

#include "nodes/character.h"
#include "pse_core/state_machine.h"
#include "support/utf8.h"

namespace pse::buffer {

inline bool ready(const StateMachine& w, std::uint32_t count) {
  return count >= static_cast<std::uint32_t>(std::max(w.buffer_length, 0));
}

inline bool step(const StateMachine& w, std::int32_t&, std::uint64_t& local, std::uint8_t b) {
  std::uint32_t c = character::count(local), st = character::pending(local), cp = 0;
  if (w.strict && utf8::need(st) == 0 && ready(w, c)) {
    const auto& first = w.child->resolve()->first_bytes();
    if (first[b >> 6] >> (b & 63) & 1) return false;  // strict: the machine must start here
  }
  switch (utf8::feed(st, b, cp)) {
    case utf8::kInvalid:
      return false;
    case utf8::kMore:
      local = character::pack(c, st);
      return true;
    case utf8::kComplete:
      local = character::pack(c + 1, 0);
      return true;
  }
  return false;
}

inline bool accepting(const StateMachine& w, std::int32_t, std::uint64_t local) {
  return character::pending(local) == 0 && ready(w, character::count(local));
}

inline std::uint64_t canonical(const StateMachine& w, std::uint64_t local, std::uint32_t span) {
  std::uint32_t c = character::count(local), want = std::max(w.buffer_length, 0);
  std::uint32_t need = std::min(c < want ? want - c : 0, span);
  return need | (local & 0xFFFFFFFF00000000ull);
}

}  // namespace pse::buffer
