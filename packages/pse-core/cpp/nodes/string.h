// String: a JSON string literal. state = DFA state; local = count (code points)
// | aux << 32 (utf8 state or \u hex accumulator) | pending-high-surrogate << 63.
#pragma once

#include <algorithm>

#include "pse_core/state_machine.h"
#include "support/utf8.h"

namespace pse::json_string {

enum State : std::int32_t {
  kOpen = 0,      // expects the opening quote
  kContent = 1,   // inside the literal
  kEscape = 2,    // after a backslash
  kHex0 = 3,      // \u read, 0..3 hex digits read: kHex0 + k
  kUtf8 = 7,      // inside a multi-byte character
  kClosed = 8,    // closing quote consumed
};

inline constexpr std::uint64_t kHigh = 1ull << 63;
inline std::uint32_t count(std::uint64_t local) { return static_cast<std::uint32_t>(local); }
inline std::uint32_t aux(std::uint64_t local) {
  return static_cast<std::uint32_t>(local >> 32) & 0x7FFFFFFF;
}
inline std::uint64_t pack(std::uint32_t count, std::uint32_t aux, bool high) {
  return count | (static_cast<std::uint64_t>(aux) << 32) | (high ? kHigh : 0);
}

inline int hex_value(std::uint8_t b) {
  if (b >= '0' && b <= '9') return b - '0';
  if (b >= 'a' && b <= 'f') return b - 'a' + 10;
  if (b >= 'A' && b <= 'F') return b - 'A' + 10;
  return -1;
}

/// One byte, with the length bounds given (`step` uses the node's own).
inline bool step_within(std::uint32_t min_length, std::uint32_t max_length, std::int32_t& state,
                        std::uint64_t& local, std::uint8_t b) {
  std::uint32_t c = count(local);
  bool high = local & kHigh;
  switch (state) {
    case kOpen:
      if (b != '"') return false;
      state = kContent;
      return true;
    case kContent:
      if (b == '"') {
        if (c < min_length) return false;
        state = kClosed;
        return true;
      }
      if (b == '\\') {
        if (c >= max_length && !high) return false;
        state = kEscape;
        return true;
      }
      if (b < 0x20 || c >= max_length) return false;
      if (b < 0x80) {
        local = pack(c + 1, 0, false);
        return true;
      } else {
        std::uint32_t st = 0, cp;
        if (utf8::feed(st, b, cp) != utf8::kMore) return false;
        state = kUtf8;
        local = pack(c, st, false);
        return true;
      }
    case kUtf8: {
      std::uint32_t st = aux(local), cp;
      switch (utf8::feed(st, b, cp)) {
        case utf8::kInvalid:
          return false;
        case utf8::kMore:
          local = pack(c, st, false);
          return true;
        case utf8::kComplete:
          state = kContent;
          local = pack(c + 1, 0, false);
          return true;
      }
      return false;
    }
    case kEscape:
      switch (b) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          if (c >= max_length) return false;
          state = kContent;
          local = pack(c + 1, 0, false);
          return true;
        case 'u':
          state = kHex0;
          local = pack(c, 0, high);
          return true;
        default:
          return false;
      }
    case kHex0: case kHex0 + 1: case kHex0 + 2: case kHex0 + 3: {
      int v = hex_value(b);
      if (v < 0) return false;
      std::uint32_t acc = (aux(local) << 4) | static_cast<std::uint32_t>(v);
      if (state < kHex0 + 3) {
        ++state;
        local = pack(c, acc, high);
        return true;
      }
      bool low = acc >= 0xDC00 && acc <= 0xDFFF;
      if (high && low) {  // second half of a surrogate pair: one code point in all
        local = pack(c, 0, false);
      } else {
        if (c >= max_length) return false;
        local = pack(c + 1, 0, acc >= 0xD800 && acc <= 0xDBFF);
      }
      state = kContent;
      return true;
    }
    default:
      return false;
  }
}

inline bool step(const StateMachine& n, std::int32_t& state, std::uint64_t& local, std::uint8_t b) {
  return step_within(n.min_length, n.max_length, state, local, b);
}

inline bool accepting(const StateMachine&, std::int32_t state, std::uint64_t) {
  return state == kClosed;
}

inline std::uint64_t canonical(const StateMachine& n, std::uint64_t local, std::uint32_t span) {
  std::uint32_t c = count(local);
  std::uint32_t need = std::min(c < n.min_length ? n.min_length - c : 0, span);
  std::uint32_t room = n.max_length == UINT32_MAX ? span : std::min(n.max_length - c, span);
  return need | (static_cast<std::uint64_t>(room) << 16) | (local & 0xFFFFFFFF00000000ull);
}

}  // namespace pse::json_string
