// Character: a run of characters from a set. local = count | utf8 state << 32.
#pragma once

#include <algorithm>

#include "pse_core/state_machine.h"
#include "support/utf8.h"

namespace pse::character {

inline std::uint32_t count(std::uint64_t local) { return static_cast<std::uint32_t>(local); }
inline std::uint32_t pending(std::uint64_t local) { return static_cast<std::uint32_t>(local >> 32); }
inline std::uint64_t pack(std::uint32_t count, std::uint32_t st) {
  return count | (static_cast<std::uint64_t>(st) << 32);
}
inline std::uint32_t minimum(const StateMachine& n) { return std::max<std::uint32_t>(n.char_min, 1); }

/// May a character in [lo, hi] (a partial sequence) or exactly cp still pass?
inline bool range_possible(const StateMachine& n, std::uint32_t lo, std::uint32_t hi) {
  if (!n.whitelist.empty() && n.whitelist.count_in(lo, hi) == 0) return false;
  if (!n.blacklist.empty() && n.blacklist.count_in(lo, hi) == hi - lo + 1) return false;
  return true;
}

inline bool step(const StateMachine& n, std::int32_t&, std::uint64_t& local, std::uint8_t b) {
  std::uint32_t c = count(local), st = pending(local), cp = 0;
  if (utf8::need(st) == 0 && n.char_limit && c >= n.char_limit) return false;
  switch (utf8::feed(st, b, cp)) {
    case utf8::kInvalid:
      return false;
    case utf8::kMore: {
      std::uint32_t lo, hi;
      utf8::pending_range(st, lo, hi);
      if (!range_possible(n, lo, hi)) return false;
      local = pack(c, st);
      return true;
    }
    case utf8::kComplete:
      break;
  }
  if (!n.is_case_sensitive) cp = utf8::fold_ascii(cp);
  if (c > 0 && n.graylist.contains(cp)) return false;
  if (!n.whitelist.empty() && !n.whitelist.contains(cp)) return false;
  if (n.blacklist.contains(cp)) return false;
  local = pack(c + 1, 0);
  return true;
}

inline bool accepting(const StateMachine& n, std::int32_t, std::uint64_t local) {
  return pending(local) == 0 && count(local) >= minimum(n);
}

/// Cache key: only the distance to the bounds matters, clipped to one token.
inline std::uint64_t canonical(const StateMachine& n, std::uint64_t local, std::uint32_t span) {
  std::uint32_t c = count(local);
  std::uint32_t need = std::min(c < minimum(n) ? minimum(n) - c : 0, span);
  std::uint32_t room = n.char_limit ? std::min(n.char_limit - c, span) : span;
  return need | (static_cast<std::uint64_t>(room) << 16) |
         (static_cast<std::uint64_t>(pending(local)) << 32);
}

}  // namespace pse::character
