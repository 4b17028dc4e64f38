// Draft 7 contentMediaType application/json: the decoded string (plain, or
// base64 of UTF-8) is a JSON text (RFC 8259: no NaN or Infinity), read by a
// recognizer that tells a syntax error from a text that ends early.
#include <string_view>
#include <vector>

#include "nodes/checked_string.h"

namespace pse {

namespace {

enum class Json { kBad, kPrefix, kComplete };

bool json_ws(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool digit(char32_t c) { return c >= '0' && c <= '9'; }
bool hex(char32_t c) { return digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

/// Whether `text` is a JSON text, a prefix of one, or neither.
Json read_json(std::u32string_view text) {
  enum State {
    kValue, kValueOrClose, kAfter, kKey, kKeyOrClose, kColon, kString, kEscape, kUnicode,
    kMinus, kZero, kInt, kDot, kFrac, kE, kESign, kExp, kWord,
  };
  State s = kValue;
  std::vector<char32_t> stack;  // '[' or '{'
  bool key = false;             // the string being read is an object key
  int hex_left = 0;
  std::u32string_view word;     // the literal being spelt, and how far
  std::size_t spelt = 0;
  auto close_value = [&] { s = kAfter; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    switch (s) {
      case kMinus: case kZero: case kInt: case kDot: case kFrac: case kE: case kESign: case kExp: {
        State n = kValue;
        bool ok = true;
        switch (s) {
          case kMinus: n = c == '0' ? kZero : digit(c) ? kInt : kValue; ok = digit(c); break;
          case kZero: ok = c == '.' || c == 'e' || c == 'E'; n = c == '.' ? kDot : kE; break;
          case kInt: ok = digit(c) || c == '.' || c == 'e' || c == 'E';
                     n = digit(c) ? kInt : c == '.' ? kDot : kE; break;
          case kDot: ok = digit(c); n = kFrac; break;
          case kFrac: ok = digit(c) || c == 'e' || c == 'E'; n = digit(c) ? kFrac : kE; break;
          case kE: ok = digit(c) || c == '+' || c == '-'; n = digit(c) ? kExp : kESign; break;
          case kESign: ok = digit(c); n = kExp; break;
          default: ok = digit(c); n = kExp; break;  // kExp
        }
        if (ok) {
          s = n;
          continue;
        }
        if (s == kMinus || s == kDot || s == kE || s == kESign) return Json::kBad;
        s = kAfter;  // the number ended: this character comes after it
        break;
      }
      default: break;
    }
    switch (s) {
      case kValueOrClose:
        if (c == ']') {
          stack.pop_back();
          close_value();
          continue;
        }
        [[fallthrough]];
      case kValue:
        if (json_ws(c)) continue;
        if (c == '{') { stack.push_back(c); s = kKeyOrClose; }
        else if (c == '[') { stack.push_back(c); s = kValueOrClose; }
        else if (c == '"') { key = false; s = kString; }
        else if (c == '-') s = kMinus;
        else if (c == '0') s = kZero;
        else if (digit(c)) s = kInt;
        else if (c == 't' || c == 'f' || c == 'n') {
          word = c == 't' ? U"true" : c == 'f' ? U"false" : U"null";
          spelt = 1;
          s = kWord;
        } else return Json::kBad;
        continue;
      case kWord:
        if (c != word[spelt]) return Json::kBad;
        if (++spelt == word.size()) close_value();
        continue;
      case kAfter:
        if (json_ws(c)) continue;
        if (stack.empty()) return Json::kBad;
        if (c == ',') { s = stack.back() == '[' ? kValue : kKey; continue; }
        if ((c == ']' && stack.back() == '[') || (c == '}' && stack.back() == '{')) {
          stack.pop_back();
          continue;
        }
        return Json::kBad;
      case kKeyOrClose:
        if (c == '}') {
          stack.pop_back();
          close_value();
          continue;
        }
        [[fallthrough]];
      case kKey:
        if (json_ws(c)) continue;
        if (c != '"') return Json::kBad;
        key = true;
        s = kString;
        continue;
      case kColon:
        if (json_ws(c)) continue;
        if (c != ':') return Json::kBad;
        s = kValue;
        continue;
      case kString:
        if (c == '"') s = key ? kColon : kAfter;
        else if (c == '\\') s = kEscape;
        else if (c < 0x20) return Json::kBad;
        continue;
      case kEscape:
        if (c == 'u') { s = kUnicode; hex_left = 4; }
        else if (std::u32string_view(U"\"\\/bfnrt").find(c) != std::u32string_view::npos) s = kString;
        else return Json::kBad;
        continue;
      case kUnicode:
        if (!hex(c)) return Json::kBad;
        if (--hex_left == 0) s = kString;
        continue;
      default:
        return Json::kBad;
    }
  }
  const bool number_done = s == kZero || s == kInt || s == kFrac || s == kExp;
  return stack.empty() && (s == kAfter || number_done) ? Json::kComplete : Json::kPrefix;
}

int b64_value(char32_t c) {
  if (c >= 'A' && c <= 'Z') return static_cast<int>(c - 'A');
  if (c >= 'a' && c <= 'z') return static_cast<int>(c - 'a') + 26;
  if (digit(c)) return static_cast<int>(c - '0') + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/// The UTF-8 text of the complete base64 groups of `text` (strict alphabet,
/// padding only at the end) and whether the string is final (padded, or
/// `whole`: the string has ended); false when no valid base64 of UTF-8 begins so.
bool base64_text(const std::u32string& text, bool whole_text, std::u32string& out, bool& final) {
  std::size_t body = text.size();
  while (body > 0 && text[body - 1] == '=') --body;
  const std::size_t pad = text.size() - body;
  if (pad > 2) return false;
  if (pad && (body % 4 < 2 || body % 4 + pad > 4)) return false;
  final = (pad > 0 || whole_text) && text.size() % 4 == 0;
  std::string bytes;
  std::uint32_t acc = 0;
  int bits = 0;
  const std::size_t whole = final ? body : body - body % 4;
  for (std::size_t i = 0; i < body; ++i) {
    const int v = b64_value(text[i]);
    if (v < 0) return false;
    if (i >= whole) continue;  // an unfinished group: checked, not decoded
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  // Strict UTF-8 (no surrogates, no overlongs); an unfinished character at the
  // end is kept for later unless the string is final.
  out.clear();
  for (std::size_t i = 0; i < bytes.size();) {
    const auto b = static_cast<std::uint8_t>(bytes[i]);
    std::size_t n = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : 9;
    if (n == 9 || (b >= 0xC0 && b < 0xC2) || b > 0xF4) return false;
    std::uint32_t cp = n == 0 ? b : b & (0x3F >> n);
    std::size_t k = 1;
    for (; k <= n && i + k < bytes.size(); ++k) {
      const auto c = static_cast<std::uint8_t>(bytes[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    if (k <= n) {  // cut short by the end of the decoded bytes
      if (final) return false;
      // Whether the bytes so far can begin a valid character.
      const std::uint32_t shift = 6 * static_cast<std::uint32_t>(n + 1 - k);
      const std::uint32_t lo = cp << shift, hi = lo | ((1u << shift) - 1);
      const std::uint32_t floor = n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
      if (hi < floor || lo > 0x10FFFF || (lo >= 0xD800 && hi <= 0xDFFF)) return false;
      return true;
    }
    const std::uint32_t floor = n == 0 ? 0 : n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
    if (cp < floor || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    out.push_back(cp);
    i += n + 1;
  }
  return true;
}

class JsonContent : public StringRule {
 public:
  explicit JsonContent(bool base64) : base64_(base64) {}

  bool complete(const std::u32string& text) const override {
    if (!base64_) return read_json(text) == Json::kComplete;
    std::u32string decoded;
    bool final = false;
    if (!base64_text(text, true, decoded, final) || !final) return false;
    return read_json(decoded) == Json::kComplete;
  }
  bool viable(const std::u32string& text, std::string_view) const override {
    if (!base64_) return read_json(text) != Json::kBad;
    thread_local std::u32string decoded;
    bool final = false;
    if (!base64_text(text, false, decoded, final)) return false;
    const Json j = read_json(decoded);
    return final ? j == Json::kComplete : j != Json::kBad;
  }

 private:
  bool base64_;
};

}  // namespace

std::shared_ptr<const StringRule> json_content_rule(bool base64) {
  return std::make_shared<const JsonContent>(base64);
}

}  // namespace pse
