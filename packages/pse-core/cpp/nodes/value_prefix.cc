#include "nodes/value_prefix.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace pse {

namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// ---------------------------------------------------------------- numbers

/// The parts of a number's text so far.
struct NumberText {
  bool negative = false;
  std::string whole, fraction;  ///< integer and fraction digits
  bool point = false, exponent = false;
  char exponent_sign = 0;  ///< '+', '-' or 0 (not typed)
  std::string exponent_digits;
};

NumberText read_number(std::string_view p) {
  NumberText n;
  for (char c : p) {
    if (c == '-' && !n.exponent) n.negative = true;
    else if (c == '.') n.point = true;
    else if (c == 'e' || c == 'E') n.exponent = true;
    else if (c == '+' || c == '-') n.exponent_sign = c;
    else if (n.exponent) n.exponent_digits += c;
    else (n.point ? n.fraction : n.whole) += c;
  }
  return n;
}

bool all_zeros(std::string_view digits) {
  return digits.find_first_not_of('0') == std::string_view::npos;
}

/// Whether the mantissa begun by `n` (no exponent yet) may still be written
/// `sig * 10^shift` in plain digits, trailing zeros allowed.
bool mantissa_fits(const NumberText& n, std::string_view sig, long long shift) {
  std::string whole, fraction;
  const long long point = static_cast<long long>(sig.size()) + shift;  // digits before the point
  if (shift >= 0) {
    whole = std::string(sig) + std::string(static_cast<std::size_t>(shift), '0');
  } else if (point > 0) {
    whole = std::string(sig.substr(0, static_cast<std::size_t>(point)));
    fraction = std::string(sig.substr(static_cast<std::size_t>(point)));
  } else {
    whole = "0";
    fraction = std::string(static_cast<std::size_t>(-point), '0') + std::string(sig);
  }
  if (!n.point) return whole.compare(0, n.whole.size(), n.whole) == 0 && n.whole.size() <= whole.size();
  if (n.whole != whole) return false;
  for (std::size_t k = 0; k < n.fraction.size(); ++k)
    if (n.fraction[k] != (k < fraction.size() ? fraction[k] : '0')) return false;
  return true;
}

/// Whether the number begun by `p` may still have the value of key
/// "n[-]<sig>e<exp>" or "n0", with an exponent `e` written only where bit
/// `e + kExponentBias` of `exponents` is set (no exponent is always allowed).
bool number_may_become(std::string_view p, std::string_view key, std::uint32_t exponents) {
  const NumberText n = read_number(p);
  const bool zero_so_far = all_zeros(n.whole) && all_zeros(n.fraction);
  if (key == "n0") return zero_so_far;  // -0 == 0: a zero takes either sign
  std::string_view sig = key.substr(1);
  const bool negative = !sig.empty() && sig[0] == '-';
  if (negative) sig.remove_prefix(1);
  const std::size_t e_at = sig.find('e');
  if (e_at == std::string_view::npos || negative != n.negative) return false;
  const long long scale = std::strtoll(std::string(sig.substr(e_at + 1)).c_str(), nullptr, 10);
  sig = sig.substr(0, e_at);
  auto allowed = [&](long long e) {
    return e >= -kExponentBias && e <= kExponentBias && (exponents >> (e + kExponentBias) & 1);
  };
  if (!n.exponent) {
    if (mantissa_fits(n, sig, scale)) return true;  // written without an exponent
    for (long long e = -kExponentBias; e <= kExponentBias; ++e)
      if (allowed(e) && mantissa_fits(n, sig, scale - e)) return true;
    return false;
  }
  if (zero_so_far) return false;  // a zero mantissa stays zero
  std::string digits = n.whole + n.fraction;
  digits.erase(0, digits.find_first_not_of('0'));
  const std::size_t trailing = digits.size() - 1 - digits.find_last_not_of('0');
  if (std::string_view(digits).substr(0, digits.size() - trailing) != sig) return false;
  // value = sig * 10^(trailing - fraction digits + e): the exponent must be `e`.
  const long long e =
      scale - static_cast<long long>(trailing) + static_cast<long long>(n.fraction.size());
  if (!allowed(e)) return false;
  if (n.exponent_sign == '-' ? e > 0 : (n.exponent_sign == '+' || !n.exponent_digits.empty()) && e < 0)
    return false;
  std::string_view typed = n.exponent_digits;
  typed.remove_prefix(std::min(typed.find_first_not_of('0'), typed.size()));
  const std::string magnitude = e == 0 ? std::string() : std::to_string(std::llabs(e));
  return typed.size() <= magnitude.size() && magnitude.compare(0, typed.size(), typed) == 0;
}

// ---------------------------------------------------------------- strings

/// One code point from `s` at `i` (advanced); lenient: a lone surrogate in its
/// three-byte form decodes like any other three-byte sequence.
std::uint32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b = static_cast<std::uint8_t>(s[i++]);
  int more = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  std::uint32_t cp = more == 3 ? b & 0x07 : more == 2 ? b & 0x0F : more == 1 ? b & 0x1F : b;
  for (; more > 0 && i < s.size(); --more) cp = cp << 6 | (static_cast<std::uint8_t>(s[i++]) & 0x3F);
  return cp;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::uint32_t hex_value(std::string_view h) {
  return static_cast<std::uint32_t>(std::strtoul(std::string(h).c_str(), nullptr, 16));
}

bool is_high(std::uint32_t cp) { return cp >= 0xD800 && cp <= 0xDBFF; }
bool is_low(std::uint32_t cp) { return cp >= 0xDC00 && cp <= 0xDFFF; }

/// Whether `s` at `i` is a complete `\uXXXX` escape.
bool full_u(std::string_view s, std::size_t i) {
  return i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u' && is_hex(s[i + 2]) &&
         is_hex(s[i + 3]) && is_hex(s[i + 4]) && is_hex(s[i + 5]);
}

/// Decode a string's body so far as `canonical_json` does. What cannot be
/// decoded yet (a cut escape, or a high surrogate whose low half may follow)
/// is left in `pending`.
void decode_body(std::string_view body, std::string& decoded, std::string_view& pending) {
  std::size_t i = 0;
  while (i < body.size()) {
    if (body[i] != '\\') {
      decoded += body[i++];
      continue;
    }
    if (i + 1 >= body.size()) break;
    const char e = body[i + 1];
    if (e != 'u') {
      static constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
      decoded += kTo[kFrom.find(e) == std::string_view::npos ? 0 : kFrom.find(e)];
      i += 2;
      continue;
    }
    if (!full_u(body, i)) break;
    std::uint32_t cp = hex_value(body.substr(i + 2, 4));
    if (is_high(cp)) {
      const std::string_view rest = body.substr(i + 6);
      if (full_u(body, i + 6)) {
        const std::uint32_t low = hex_value(body.substr(i + 8, 4));
        if (is_low(low)) {
          append_utf8(decoded, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
          i += 12;
          continue;
        }
      } else if (rest.size() < 6 && std::string_view("\\u").substr(0, rest.size()) ==
                                        rest.substr(0, std::min<std::size_t>(rest.size(), 2))) {
        bool hex_so_far = true;
        for (std::size_t k = 2; k < rest.size(); ++k) hex_so_far = hex_so_far && is_hex(rest[k]);
        if (hex_so_far) break;  // a low half may still come
      }
    }
    append_utf8(decoded, cp);  // a lone surrogate keeps its three-byte form
    i += 6;
  }
  pending = body.substr(i);
}

/// The JSON spellings of one code point that an escape can begin: the short
/// escape if it has one, and `\uXXXX` (a surrogate pair above the BMP).
void escapes_of(std::uint32_t cp, std::string out[2]) {
  static constexpr std::string_view kTo = "\"\\/\b\f\n\r\t", kFrom = "\"\\/bfnrt";
  out[0].clear();
  if (cp < 0x80 && kTo.find(static_cast<char>(cp)) != std::string_view::npos)
    out[0] = std::string("\\") + kFrom[kTo.find(static_cast<char>(cp))];
  char buf[16];
  if (cp < 0x10000) {
    std::snprintf(buf, sizeof buf, "\\u%04X", cp);
  } else {
    const std::uint32_t v = cp - 0x10000;
    std::snprintf(buf, sizeof buf, "\\u%04X\\u%04X", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
  }
  out[1] = buf;
}

/// Whether escape text `pending` (hex digits in any case) begins a spelling of
/// the code points at the start of `rest`.
bool escape_begins(std::string_view pending, std::string_view rest) {
  if (pending.empty()) return true;
  if (rest.empty()) return false;
  std::size_t i = 0;
  const std::uint32_t cp = next_code_point(rest, i);
  std::string spellings[2];
  escapes_of(cp, spellings);
  for (const std::string& s : spellings) {
    if (s.empty()) continue;
    const std::size_t n = std::min(s.size(), pending.size());
    bool same = true;
    for (std::size_t k = 0; k < n && same; ++k)
      same = std::toupper(static_cast<unsigned char>(pending[k])) ==
                 std::toupper(static_cast<unsigned char>(s[k])) &&
             (k != 1 || pending[k] == s[k]);  // the escape letter is case-sensitive
    if (same && (pending.size() <= s.size() || escape_begins(pending.substr(s.size()), rest.substr(i))))
      return true;
  }
  return false;
}

/// Whether the string begun by `p` (its opening quote included, not closed)
/// may still be the string of key "s<len>:<bytes>".
bool string_may_become(std::string_view p, std::string_view key) {
  const std::size_t colon = key.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view target = key.substr(colon + 1);
  std::string decoded;
  std::string_view pending;
  decode_body(p.substr(1), decoded, pending);
  if (target.compare(0, decoded.size(), decoded) != 0 || decoded.size() > target.size()) return false;
  return escape_begins(pending, target.substr(decoded.size()));
}

}  // namespace

std::optional<std::string> determined_key(std::string_view prefix) {
  if (prefix.empty()) return std::nullopt;
  switch (prefix[0]) {
    case 't': return "t";
    case 'f': return "f";
    case 'n': return "z";
    case '"': case '[': case '{': return std::nullopt;
    default: break;
  }
  const NumberText n = read_number(prefix);
  if (n.exponent && all_zeros(n.whole) && all_zeros(n.fraction)) return "n0";
  return std::nullopt;
}

bool may_become(std::string_view prefix, std::string_view key, std::uint32_t exponents) {
  if (prefix.empty() || key.empty()) return !key.empty();
  switch (prefix[0]) {
    case 't': return key == "t" && std::string_view("true").substr(0, prefix.size()) == prefix;
    case 'f': return key == "f" && std::string_view("false").substr(0, prefix.size()) == prefix;
    case 'n': return key == "z" && std::string_view("null").substr(0, prefix.size()) == prefix;
    case '"': return key[0] == 's' && string_may_become(prefix, key);
    case '[': case '{': return false;
    default: return key[0] == 'n' && number_may_become(prefix, key, exponents);
  }
}

}  // namespace pse
