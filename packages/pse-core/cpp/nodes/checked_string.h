// A JSON string whose decoded value must pass a rule no automaton can judge:
// the check of a checked node (checked.h) around a native JSON string machine.
// The check decodes the string as bytes arrive (escapes, surrogate pairs, raw
// UTF-8 split across tokens) and asks its rule whether the text so far can
// still be completed (at the end of each token) and whether the whole text is
// valid (at the closing quote).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nodes/checked.h"
#include "support/utf8.h"

namespace pse {

/// A JSON string decoded so far.
struct DecodedString {
  std::u32string text;
  std::uint8_t phase = 0;  ///< 0: before the opening quote, 1: inside, 2: closed
  std::uint8_t escape = 0; ///< 0: none, 1: after '\', 2: after '\u', 3-5: hex digits read
  std::uint32_t hex = 0;
  std::uint32_t utf8 = 0;  ///< a multi-byte character begun (support/utf8.h)

  bool surrogate() const { return !text.empty() && text.back() >= 0xD800 && text.back() <= 0xDFFF; }
  /// An escape or a character is unfinished, or a surrogate waits for its other half.
  bool pending() const { return escape != 0 || utf8::need(utf8) != 0 || surrogate(); }

  void add_unit(std::uint32_t cp) {
    if (cp >= 0xDC00 && cp <= 0xDFFF && !text.empty() && text.back() >= 0xD800 &&
        text.back() <= 0xDBFF) {
      text.back() = 0x10000 + ((text.back() - 0xD800) << 10) + (cp - 0xDC00);
      return;
    }
    text.push_back(cp);
  }

  /// One byte of the string's content (after the opening quote, before the
  /// closing one); false for bytes no JSON string holds.
  bool content(std::uint8_t b) {
    if (escape == 1) {
      escape = 0;
      switch (b) {
        case '"': case '\\': case '/': text.push_back(b); return true;
        case 'b': text.push_back('\b'); return true;
        case 'f': text.push_back('\f'); return true;
        case 'n': text.push_back('\n'); return true;
        case 'r': text.push_back('\r'); return true;
        case 't': text.push_back('\t'); return true;
        case 'u': escape = 2; hex = 0; return true;
        default: return false;
      }
    }
    if (escape >= 2) {
      const bool digit = (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'f');
      if (!digit) return false;
      hex = hex * 16 + (b <= '9' ? b - '0' : (b | 0x20) - 'a' + 10);
      if (++escape < 6) return true;
      escape = 0;
      add_unit(hex);
      return true;
    }
    if (utf8::need(utf8) == 0 && b == '\\') {
      escape = 1;
      return true;
    }
    if (b < 0x20) return false;
    std::uint32_t cp;
    switch (utf8::feed(utf8, b, cp)) {
      case utf8::kComplete: text.push_back(cp); return true;
      case utf8::kMore: return true;
      default: return false;
    }
  }
};

/// What a checked string asks about its decoded text (code points; a lone
/// surrogate escape stays as its code unit).
class StringRule {
 public:
  virtual ~StringRule() = default;
  /// Whether some completion of `text` is valid; `escape`: what follows `text`
  /// unfinished: "" (nothing), a JSON escape begun ("\\", "\\u", "\\u" and 1-3
  /// hex digits), or "\\u" for a multi-byte UTF-8 character begun.
  virtual bool viable(const std::u32string& text, std::string_view escape) const = 0;
  virtual bool complete(const std::u32string& text) const = 0;
};

std::shared_ptr<const Check> checked_string_check(std::shared_ptr<const StringRule> rule);

/// format "regex": an ECMA-262 pattern (Unicode mode), with the string's length
/// bounds in code points (a completion must fit `max_length`).
std::shared_ptr<const StringRule> ecma_regex_rule(std::uint32_t min_length,
                                                  std::optional<std::uint32_t> max_length);

/// draft 7 contentMediaType application/json: the text (or, with `base64`, the
/// UTF-8 its base64 encodes) is a JSON text (RFC 8259).
std::shared_ptr<const StringRule> json_content_rule(bool base64);

/// What an idn-hostname rule asks Python (the `idna` package) where the native
/// part cannot judge: names with other than ASCII letters, digits, hyphens and
/// dots, or with an `xn--` label.
class IdnFallback {
 public:
  virtual ~IdnFallback() = default;
  virtual bool valid(const std::u32string& name) const = 0;
  /// Whether some completion of `prefix` (followed by `escape`, see viable) fits.
  virtual bool viable(const std::u32string& prefix, std::string_view escape) const = 0;
};

/// format "idn-hostname" (IDNA2008): code points outside `allowed` (sorted,
/// inclusive ranges: PVALID, CONTEXTJ, CONTEXTO, the four dots, A-Z) are
/// rejected at once; names of ASCII letters, digits, hyphens and dots without
/// an `xn--` label are judged natively by the hostname rules; other names ask
/// `fallback`. Lengths in code points.
std::shared_ptr<const StringRule> idn_hostname_rule(
    std::uint32_t min_length, std::optional<std::uint32_t> max_length,
    std::vector<std::pair<std::uint32_t, std::uint32_t>> allowed,
    std::shared_ptr<const IdnFallback> fallback);

/// Whether `text` is an ECMA-262 pattern (complete) or a prefix of one (viable).
bool ecma_regex_valid(const std::u32string& text);
bool ecma_regex_viable(const std::u32string& text);

}  // namespace pse
