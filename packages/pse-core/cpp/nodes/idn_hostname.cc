// format "idn-hostname": the native part of the check (allowed code points,
// lengths, the hostname rules for plain ASCII names). What needs IDNA2008's
// context and Bidi rules or Punycode goes to the fallback (Python's `idna`).
#include <algorithm>

#include "nodes/checked_string.h"

namespace pse {

namespace {

constexpr std::size_t kMaxName = 253, kMaxLabel = 63;

bool dot(char32_t c) { return c == '.' || c == 0x3002 || c == 0xFF0E || c == 0xFF61; }

bool ldh(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.';
}

/// The hostname rules for a name of ASCII letters, digits, hyphens and dots
/// without an `xn--` label: 1 viable (at most `room` more characters make it
/// valid), 0 not, -1 another kind of name (the fallback judges it).
int ascii_viable(const std::u32string& name, std::size_t room) {
  if (!std::all_of(name.begin(), name.end(), ldh)) return -1;
  std::vector<std::u32string_view> labels;
  std::u32string_view rest(name);
  for (std::size_t at; (at = rest.find('.')) != std::u32string_view::npos;) {
    labels.push_back(rest.substr(0, at));
    rest.remove_prefix(at + 1);
  }
  labels.push_back(rest);
  for (std::u32string_view label : labels) {
    const bool hyphens = label.size() >= 4 && label[2] == '-' && label[3] == '-';
    if (hyphens && (label[0] | 0x20) == 'x' && (label[1] | 0x20) == 'n') return -1;
  }
  for (std::u32string_view label : labels)
    if (label.size() > kMaxLabel || (!label.empty() && label[0] == '-') ||
        (label.size() >= 4 && label[2] == '-' && label[3] == '-'))
      return 0;
  for (std::size_t i = 0; i + 1 < labels.size(); ++i)
    if (labels[i].empty() || labels[i].back() == '-') return 0;
  const std::u32string_view last = labels.back();
  const std::size_t missing = last.empty() || last.back() == '-' ? 1 : 0;
  return missing <= room && name.size() + missing <= kMaxName && last.size() + missing <= kMaxLabel;
}

class IdnHostname : public StringRule {
 public:
  IdnHostname(std::uint32_t min_length, std::optional<std::uint32_t> max_length,
              std::vector<std::pair<std::uint32_t, std::uint32_t>> allowed,
              std::shared_ptr<const IdnFallback> fallback)
      : min_(min_length), max_(max_length), allowed_(std::move(allowed)),
        fallback_(std::move(fallback)) {
    std::sort(allowed_.begin(), allowed_.end());
  }

  bool complete(const std::u32string& text) const override {
    if (text.size() < min_ || (max_ && text.size() > *max_)) return false;
    const int fast = ascii_viable(text, 0);
    return fast >= 0 ? fast == 1 : fallback_->valid(text);
  }
  bool viable(const std::u32string& text, std::string_view escape) const override {
    const bool surrogate = !text.empty() && text.back() >= 0xD800 && text.back() <= 0xDFFF;
    const std::size_t used = text.size() - (surrogate ? 1 : 0);
    if (max_ && used + (escape.empty() && !surrogate ? 0 : 1) > *max_) return false;
    for (std::size_t i = 0; i < used; ++i)
      if (!allowed(text[i])) return false;
    if (!escape.empty() || surrogate) return fallback_->viable(text, escape);
    const std::size_t room = max_ ? std::min<std::size_t>(1, *max_ - text.size()) : 1;
    const int fast = ascii_viable(text, room);
    return fast >= 0 ? fast == 1 : fallback_->viable(text, escape);
  }

 private:
  bool allowed(char32_t c) const {
    if (dot(c) || (c >= 'A' && c <= 'Z')) return true;
    auto it = std::upper_bound(allowed_.begin(), allowed_.end(),
                               std::make_pair(static_cast<std::uint32_t>(c), UINT32_MAX));
    return it != allowed_.begin() && std::prev(it)->second >= c;
  }

  std::uint32_t min_;
  std::optional<std::uint32_t> max_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> allowed_;
  std::shared_ptr<const IdnFallback> fallback_;
};

}  // namespace

std::shared_ptr<const StringRule> idn_hostname_rule(
    std::uint32_t min_length, std::optional<std::uint32_t> max_length,
    std::vector<std::pair<std::uint32_t, std::uint32_t>> allowed,
    std::shared_ptr<const IdnFallback> fallback) {
  return std::make_shared<const IdnHostname>(min_length, max_length, std::move(allowed),
                                             std::move(fallback));
}

}  // namespace pse
