// Lowering code-point DFAs to byte tables. Continuation and escape states are
// shared by their (relative) signature: "any three-byte character, then
// state T" or "four hex digits, then per 16-bit value" is one chain however
// often it occurs in the table.
#include "automata/byte_lowering.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace pse {
namespace {

using Range = std::array<std::int32_t, 3>;  // lo, hi, target
using Ranges = std::vector<Range>;

struct TooLarge {};

/// A run of blocks [first, last] of `width` values; `sub` relative to each block's start.
struct Block {
  std::int32_t first, last;
  Ranges sub;
};

/// Cuts sorted ranges into blocks of `width` values; runs of full blocks with
/// one target share one entry.
std::vector<Block> split(const Ranges& ranges, std::int32_t width) {
  std::vector<Block> out;
  std::int32_t cur_i = -1;
  Ranges cur;
  auto flush = [&] {
    if (!cur.empty()) {
      out.push_back({cur_i, cur_i, cur});
      cur.clear();
    }
  };
  auto push = [&](std::int32_t i, std::int32_t lo, std::int32_t hi, std::int32_t t) {
    if (i != cur_i) {
      flush();
      cur_i = i;
    }
    cur.push_back({lo, hi, t});
  };
  for (const auto& [lo, hi, t] : ranges) {
    std::int32_t i0 = lo / width, i1 = hi / width;
    if (i0 == i1) {
      push(i0, lo - i0 * width, hi - i0 * width, t);
      continue;
    }
    std::int32_t full_lo = i0;
    if (lo % width) {
      push(i0, lo - i0 * width, width - 1, t);
      full_lo = i0 + 1;
    }
    std::int32_t full_hi = (hi + 1) % width == 0 ? i1 : i1 - 1;
    if (full_lo <= full_hi) {
      flush();
      cur_i = -1;
      out.push_back({full_lo, full_hi, {{0, width - 1, t}}});
    }
    if (full_hi < i1) push(i1, 0, hi - i1 * width, t);
  }
  flush();
  return out;
}

/// The part of `ranges` inside [lo, hi].
Ranges clip(const Ranges& ranges, std::int32_t lo, std::int32_t hi) {
  Ranges out;
  for (const auto& [a, b, t] : ranges)
    if (a <= hi && b >= lo) out.push_back({std::max(a, lo), std::min(b, hi), t});
  return out;
}

std::int32_t lookup(const Ranges& ranges, std::int32_t cp) {
  for (const auto& [lo, hi, t] : ranges)
    if (lo <= cp && cp <= hi) return t;
  return -1;
}

struct KeyHash {
  std::size_t operator()(const std::vector<std::int32_t>& key) const {
    std::size_t h = 1469598103934665603ull;
    for (std::int32_t v : key) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
    return h;
  }
};

enum Tag : std::int32_t { kUtf8, kEscape, kLow, kHex };

constexpr std::size_t kReservedRows = 1024;

class Builder {
 public:
  /// `expected`: about how many rows the table will have, reserved up front
  /// (growing a table of 256-int rows row by row copies it again and again) up
  /// to kReservedRows (1 MiB): beyond that a fresh reservation costs more page
  /// faults than the copies it saves.
  Builder(std::size_t max_states, std::size_t expected) : max_states_(max_states) {
    table_.cells.reserve(std::min({expected, max_states, kReservedRows}) * 256);
  }

  std::int32_t add(bool accepting = false) {
    if (table_.accepting.size() >= max_states_) throw TooLarge{};
    table_.cells.insert(table_.cells.end(), 256, -1);
    table_.accepting.push_back(accepting ? 1 : 0);
    return static_cast<std::int32_t>(table_.accepting.size() - 1);
  }

  std::int32_t& cell(std::int32_t row, std::int32_t byte) {
    return table_.cells[static_cast<std::size_t>(row) * 256 + static_cast<std::size_t>(byte)];
  }

  void fill(std::int32_t row, std::int32_t b0, std::int32_t b1, std::int32_t target) {
    for (std::int32_t b = b0; b <= b1; ++b) cell(row, b) = target;
  }

  /// Moves from `row`: the UTF-8 encoding of each code point range to its target.
  void utf8(std::int32_t row, const Ranges& ranges) {
    Ranges multi;
    for (const auto& [lo, hi, t] : ranges) {
      if (lo <= 0x7F) {
        fill(row, lo, std::min(hi, 0x7F), t);
        if (hi > 0x7F) multi.push_back({0x80, hi, t});
      } else {
        multi.push_back({lo, hi, t});
      }
    }
    if (multi.empty()) return;
    static constexpr std::array<std::array<std::int32_t, 4>, 3> kForms{
        {{0x80, 0x7FF, 0xC0, 1}, {0x800, 0xFFFF, 0xE0, 2}, {0x10000, 0x10FFFF, 0xF0, 3}}};
    for (const auto& [first, last, lead, conts] : kForms) {
      Ranges part = clip(multi, first, last);
      if (part.empty()) continue;
      for (const Block& b : split(part, 1 << (6 * conts)))
        fill(row, lead + b.first, lead + b.last, cont(b.sub, conts));
    }
  }

  /// The state that reads `conts` continuation bytes, then moves per `ranges`.
  std::int32_t cont(const Ranges& ranges, std::int32_t conts) {
    auto key = make_key(kUtf8, conts, ranges);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::int32_t sid = memo_[key] = add();
    for (const Block& b : split(ranges, 1 << (6 * (conts - 1)))) {
      std::int32_t child = conts == 1 ? b.sub[0][2] : cont(b.sub, conts - 1);
      fill(sid, 0x80 + b.first, 0x80 + b.last, child);
    }
    return sid;
  }

  /// The state after '\' in a JSON string: moves per `ranges` over code points.
  std::int32_t escape(const Ranges& ranges) {
    auto key = make_key(kEscape, 0, ranges);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    // Actions over the 16-bit \u value: BMP targets, and for high surrogates
    // the state that reads the low half of the pair.
    Ranges actions = clip(ranges, 0, 0xFFFF);
    Ranges astral = clip(ranges, 0x10000, 0x10FFFF);
    for (auto& r : astral) r[0] -= 0x10000, r[1] -= 0x10000;
    for (const Block& b : split(astral, 0x400))
      actions.push_back({0xD800 + b.first, 0xD800 + b.last, low_surrogate(b.sub)});
    std::sort(actions.begin(), actions.end());
    std::int32_t hex_state = actions.empty() ? -1 : hex(actions, 4);
    std::int32_t sid = memo_[key] = add();
    static constexpr std::array<std::array<std::int32_t, 2>, 8> kShort{
        {{'"', 0x22}, {'\\', 0x5C}, {'/', 0x2F}, {'b', 0x08}, {'f', 0x0C}, {'n', 0x0A}, {'r', 0x0D}, {'t', 0x09}}};
    for (const auto& [byte, cp] : kShort) cell(sid, byte) = lookup(ranges, cp);
    cell(sid, 'u') = hex_state;
    return sid;
  }

  ByteTable take() { return std::move(table_); }

 private:
  /// Reads "\uDC00".."\uDFFF" and moves per `sub` (offsets 0..0x3FF).
  std::int32_t low_surrogate(const Ranges& sub) {
    auto key = make_key(kLow, 0, sub);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    Ranges shifted = sub;
    for (auto& r : shifted) r[0] += 0xDC00, r[1] += 0xDC00;
    std::int32_t digits = hex(shifted, 4);
    std::int32_t sid = memo_[key] = add();
    std::int32_t u = add();
    cell(sid, '\\') = u;
    cell(u, 'u') = digits;
    return sid;
  }

  /// The state that reads `level` hex digits (either case), then moves per `ranges`.
  std::int32_t hex(const Ranges& ranges, std::int32_t level) {
    auto key = make_key(kHex, level, ranges);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::vector<std::array<std::int32_t, 3>> children;
    for (const Block& b : split(ranges, 1 << (4 * (level - 1))))
      children.push_back({b.first, b.last, level == 1 ? b.sub[0][2] : hex(b.sub, level - 1)});
    std::int32_t sid = memo_[key] = add();
    for (const auto& [b0, b1, child] : children)
      for (std::int32_t digit = b0; digit <= b1; ++digit) {
        if (digit < 10) {
          cell(sid, '0' + digit) = child;
        } else {
          cell(sid, 'a' + digit - 10) = child;
          cell(sid, 'A' + digit - 10) = child;
        }
      }
    return sid;
  }

  static std::vector<std::int32_t> make_key(Tag tag, std::int32_t level, const Ranges& ranges) {
    std::vector<std::int32_t> key{tag, level};
    key.reserve(2 + 3 * ranges.size());
    for (const auto& r : ranges) key.insert(key.end(), r.begin(), r.end());
    return key;
  }

  std::size_t max_states_;
  ByteTable table_;
  std::unordered_map<std::vector<std::int32_t>, std::int32_t, KeyHash> memo_;
};

/// The part of [lo, hi] that JSON allows raw (not < 0x20, '"' or '\').
void push_raw(Ranges& out, std::int32_t lo, std::int32_t hi, std::int32_t t) {
  static constexpr std::array<std::array<std::int32_t, 2>, 3> kRaw{{{0x20, 0x21}, {0x23, 0x5B}, {0x5D, 0x10FFFF}}};
  for (const auto& [a, b] : kRaw) {
    std::int32_t x = std::max(lo, a), y = std::min(hi, b);
    if (x <= y) out.push_back({x, y, t});
  }
}

}  // namespace

std::optional<ByteTable> lower_utf8(const RangeDfa& dfa, std::size_t max_states) {
  try {
    Builder b(max_states, 2 * dfa.accepting.size() + 8);
    for (bool accepting : dfa.accepting) b.add(accepting);
    for (std::size_t s = 0; s < dfa.transitions.size(); ++s) b.utf8(static_cast<std::int32_t>(s), dfa.transitions[s]);
    return b.take();
  } catch (const TooLarge&) {
    return std::nullopt;
  }
}

std::optional<ByteTable> lower_json_string(const RangeDfa& dfa, std::size_t max_states) {
  try {
    Builder b(max_states, 6 * dfa.accepting.size() + 8);  // a state, '\\' and 4 hex digits each
    std::int32_t start = b.add();
    std::int32_t final_state = b.add(true);
    std::vector<std::int32_t> main;
    for (std::size_t s = 0; s < dfa.transitions.size(); ++s) main.push_back(b.add());
    b.cell(start, '"') = main[0];
    for (std::size_t s = 0; s < dfa.transitions.size(); ++s) {
      Ranges ranges, raw;
      for (const auto& [lo, hi, t] : dfa.transitions[s]) {
        ranges.push_back({lo, hi, main[static_cast<std::size_t>(t)]});
        push_raw(raw, lo, hi, main[static_cast<std::size_t>(t)]);
      }
      b.utf8(main[s], raw);
      if (dfa.accepting[s]) b.cell(main[s], '"') = final_state;
      if (!ranges.empty()) {
        std::int32_t esc = b.escape(ranges);
        b.cell(main[s], '\\') = esc;
      }
    }
    return b.take();
  } catch (const TooLarge&) {
    return std::nullopt;
  }
}

}  // namespace pse
