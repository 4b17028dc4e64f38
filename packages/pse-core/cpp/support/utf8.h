// Incremental UTF-8 validation, one byte at a time, packed into 32 bits:
// bits 0-20 the code point so far, 21-22 continuation bytes still needed,
// 23-25 the allowed range of the next byte (for overlongs and surrogates),
// 26-27 the sequence's total continuation count (so that its range is known).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace pse::utf8 {

enum Feed : int { kInvalid = -1, kComplete = 0, kMore = 1 };

inline std::uint32_t need(std::uint32_t st) { return (st >> 21) & 3; }

/// Range of code points that can still result from a partial sequence.
inline void pending_range(std::uint32_t st, std::uint32_t& lo, std::uint32_t& hi) {
  static constexpr std::uint32_t floor[4] = {0, 0x80, 0x800, 0x10000};
  static constexpr std::uint32_t ceiling[4] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
  std::uint32_t n = need(st), cp = st & 0x1FFFFF, shift = 6 * n, total = (st >> 26) & 3;
  lo = std::max(cp << shift, floor[total]);
  hi = std::min(cp << shift | ((1u << shift) - 1), ceiling[total]);
}

/// Feed one byte. On kComplete, `cp` holds the code point and `st` is reset.
/// On kMore, `cp` is untouched and `st` holds the partial sequence.
inline Feed feed(std::uint32_t& st, std::uint8_t b, std::uint32_t& cp) {
  std::uint32_t n = need(st);
  if (n == 0) {
    if (b < 0x80) {
      cp = b;
      return kComplete;
    }
    std::uint32_t cls = 0, count, acc;
    if (b >= 0xC2 && b <= 0xDF) {
      count = 1;
      acc = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
      count = 2;
      acc = b & 0x0F;
      cls = b == 0xE0 ? 1 : (b == 0xED ? 2 : 0);
    } else if (b >= 0xF0 && b <= 0xF4) {
      count = 3;
      acc = b & 0x07;
      cls = b == 0xF0 ? 3 : (b == 0xF4 ? 4 : 0);
    } else {
      return kInvalid;
    }
    st = acc | (count << 21) | (cls << 23) | (count << 26);
    return kMore;
  }
  static constexpr std::uint8_t lo[5] = {0x80, 0xA0, 0x80, 0x90, 0x80};
  static constexpr std::uint8_t hi[5] = {0xBF, 0xBF, 0x9F, 0xBF, 0x8F};
  std::uint32_t cls = (st >> 23) & 7;
  if (b < lo[cls] || b > hi[cls]) return kInvalid;
  std::uint32_t acc = ((st & 0x1FFFFF) << 6) | (b & 0x3F);
  if (--n == 0) {
    st = 0;
    cp = acc;
    return kComplete;
  }
  st = acc | (n << 21) | (st & (3u << 26));
  return kMore;
}

/// Append the UTF-8 encoding of a code point.
inline void append(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Number of code points in valid UTF-8 text (continuation bytes skipped).
inline std::size_t count_chars(const char* p, std::size_t n) {
  std::size_t c = 0;
  for (std::size_t i = 0; i < n; ++i) c += (static_cast<std::uint8_t>(p[i]) & 0xC0) != 0x80;
  return c;
}

inline std::uint32_t fold_ascii(std::uint32_t cp) { return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp; }

}  // namespace pse::utf8
