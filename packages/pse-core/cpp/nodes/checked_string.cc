#include "nodes/checked_string.h"

#include "support/utf8.h"

namespace pse {

namespace {

/// A JSON string decoded so far.
struct Decoded {
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

class StringCheck : public Check {
 public:
  explicit StringCheck(std::shared_ptr<const StringRule> rule) : rule_(std::move(rule)) {}

  State start() const override { return std::make_shared<Decoded>(); }
  State feed(const void* state, std::string_view bytes) const override {
    auto next = std::make_shared<Decoded>(*static_cast<const Decoded*>(state));
    if (!run(*next, bytes)) return nullptr;
    return next;
  }
  bool allows(const void* state, std::string_view bytes) const override {
    thread_local Decoded scratch;
    scratch = *static_cast<const Decoded*>(state);  // keeps the buffer's capacity
    return run(scratch, bytes);
  }

 private:
  bool run(Decoded& d, std::string_view bytes) const {
    for (char ch : bytes) {
      const auto b = static_cast<std::uint8_t>(ch);
      if (d.phase == 2) return true;  // the rest belongs to the parent
      if (d.phase == 0) {
        if (b != '"') return false;
        d.phase = 1;
        continue;
      }
      if (b == '"' && d.escape == 0 && utf8::need(d.utf8) == 0) {
        if (d.pending() || !rule_->complete(d.text)) return false;
        d.phase = 2;
        continue;
      }
      if (!d.content(b)) return false;
    }
    if (d.phase != 1) return true;
    static const std::string_view kEscapes[] = {"", "\\", "\\u"};
    if (d.escape < 3) return rule_->viable(d.text, utf8::need(d.utf8) ? "\\u" : kEscapes[d.escape]);
    char hex[5] = {'\\', 'u'};  // and the digits read so far, in lower case
    const int digits = d.escape - 2;
    for (int k = 0; k < digits; ++k)
      hex[2 + k] = "0123456789abcdef"[(d.hex >> (4 * (digits - 1 - k))) & 15];
    return rule_->viable(d.text, std::string_view(hex, 2 + static_cast<std::size_t>(digits)));
  }

  std::shared_ptr<const StringRule> rule_;
};

}  // namespace

std::shared_ptr<const Check> checked_string_check(std::shared_ptr<const StringRule> rule) {
  return std::make_shared<const StringCheck>(std::move(rule));
}

}  // namespace pse
