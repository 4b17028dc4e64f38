// Phrase: an exact byte string. local = bytes matched so far.
#pragma once

#include "pse_core/state_machine.h"
#include "support/utf8.h"

namespace pse::phrase {

inline bool step(const StateMachine& n, std::int32_t&, std::uint64_t& local, std::uint8_t b) {
  if (local >= n.phrase.size()) return false;
  std::uint8_t want = static_cast<std::uint8_t>(n.phrase[local]);
  if (b != want && (n.is_case_sensitive || utf8::fold_ascii(b) != utf8::fold_ascii(want)))
    return false;
  ++local;
  return true;
}

inline bool accepting(const StateMachine& n, std::int32_t, std::uint64_t local) {
  return local == n.phrase.size();
}

}  // namespace pse::phrase
