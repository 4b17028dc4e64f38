#include "nodes/checked_string.h"

namespace pse {

namespace {

class StringCheck : public Check {
 public:
  explicit StringCheck(std::shared_ptr<const StringRule> rule) : rule_(std::move(rule)) {}

  State start() const override { return std::make_shared<DecodedString>(); }
  State feed(const void* state, std::string_view bytes) const override {
    auto next = std::make_shared<DecodedString>(*static_cast<const DecodedString*>(state));
    if (!run(*next, bytes)) return nullptr;
    return next;
  }
  bool allows(const void* state, std::string_view bytes) const override {
    thread_local DecodedString scratch;
    scratch = *static_cast<const DecodedString*>(state);  // keeps the buffer's capacity
    return run(scratch, bytes);
  }

 private:
  bool run(DecodedString& d, std::string_view bytes) const {
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
