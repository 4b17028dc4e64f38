// format "regex": a recursive-descent reader of the ECMA-262 Pattern grammar
// with the `u` flag (the strict grammar: no Annex B leniency, so lone `]`, `{`
// and `}` and identity escapes of ordinary letters are errors). It tells a
// syntax error from running out of text: a prefix that ends inside a construct
// can always be completed (close the group or class, finish the escape or
// quantifier, add the group a reference names), so a prefix is viable exactly
// when the reader meets no error before its end. Group names are limited to
// ASCII letters, digits, `_` and `$` (a non-ASCII name is refused: never a
// wrong acceptance).
#include <algorithm>
#include <string_view>
#include <vector>

#include "nodes/checked_string.h"

namespace pse {

namespace {

bool ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool ascii_alpha(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool hex_digit(char32_t c) {
  return ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
std::uint32_t hex_value(char32_t c) {
  return ascii_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}
bool among(char32_t c, std::string_view set) {
  return c < 0x80 && set.find(static_cast<char>(c)) != std::string_view::npos;
}
constexpr std::string_view kSyntax = "^$\\.*+?()[]{}|/";

/// Decimal digit strings compared by value.
bool less(std::u32string_view a, std::u32string_view b) {
  auto strip = [](std::u32string_view s) {
    while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
    return s;
  };
  a = strip(a);
  b = strip(b);
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

class Reader {
 public:
  enum Status { kOk, kEnd, kBad };
  explicit Reader(const std::u32string& text) : t_(text) {}

  Status run() {
    if (disjunction() && more()) fail(kBad);  // a ")" with no group open
    return status_;
  }
  bool references_resolve() const {
    if (max_backref_ > groups_) return false;
    return std::all_of(refs_.begin(), refs_.end(), [&](const std::u32string& r) {
      return std::find(names_.begin(), names_.end(), r) != names_.end();
    });
  }

 private:
  static constexpr std::int64_t kClassEscape = -1;  // \d, \p{..}: no single character
  static constexpr std::int64_t kFailed = -2;

  bool fail(Status s) {
    if (status_ == kOk) status_ = s;
    return false;
  }
  bool more() const { return i_ < t_.size(); }
  bool at(char32_t c) const { return more() && t_[i_] == c; }
  bool peek(char32_t& c, std::size_t k = 0) {
    if (i_ + k >= t_.size()) return fail(kEnd);
    c = t_[i_ + k];
    return true;
  }
  bool take(char32_t& c) {
    if (!peek(c)) return false;
    ++i_;
    return true;
  }
  bool expect(char32_t want) {
    char32_t c;
    if (!take(c)) return false;
    return c == want || fail(kBad);
  }
  bool starts(std::string_view s) const {
    if (i_ + s.size() > t_.size()) return false;
    for (std::size_t k = 0; k < s.size(); ++k)
      if (t_[i_ + k] != static_cast<char32_t>(s[k])) return false;
    return true;
  }

  bool disjunction() {
    if (!alternative()) return false;
    while (at('|')) {
      ++i_;
      if (!alternative()) return false;
    }
    return true;
  }
  bool alternative() {
    while (more() && t_[i_] != '|' && t_[i_] != ')')
      if (!term()) return false;
    return true;
  }
  bool term() {
    char32_t c, d;
    if (!peek(c)) return false;
    if (c == '^' || c == '$') {
      ++i_;
      return no_quantifier();
    }
    if (c == '\\') {
      if (!peek(d, 1)) return false;
      if (d == 'b' || d == 'B') {
        i_ += 2;
        return no_quantifier();
      }
    }
    if (starts("(?=") || starts("(?!") || starts("(?<=") || starts("(?<!")) {
      i_ += t_[i_ + 2] == '<' ? 4 : 3;
      return disjunction() && expect(')') && no_quantifier();
    }
    return atom() && quantifier();
  }
  bool no_quantifier() {
    if (more() && among(t_[i_], "*+?{")) return fail(kBad);
    return true;
  }
  bool quantifier() {
    if (!more()) return true;
    const char32_t c = t_[i_];
    if (among(c, "*+?")) {
      ++i_;
    } else if (c == '{') {
      ++i_;
      std::u32string_view low, high;
      if (!digits(low)) return false;
      bool bounded = true;
      high = low;
      char32_t d;
      if (!peek(d)) return false;
      if (d == ',') {
        ++i_;
        if (!peek(d)) return false;
        if (d == '}') bounded = false;
        else if (!digits(high)) return false;
      }
      if (!expect('}')) return false;
      if (bounded && less(high, low)) return fail(kBad);
    } else {
      return true;
    }
    if (at('?')) ++i_;
    return true;
  }
  bool digits(std::u32string_view& out) {
    const std::size_t start = i_;
    while (more() && ascii_digit(t_[i_])) ++i_;
    if (i_ == start) return fail(more() ? kBad : kEnd);
    out = std::u32string_view(t_).substr(start, i_ - start);
    return true;
  }
  bool atom() {
    char32_t c, d;
    if (!take(c)) return false;
    if (c == '.') return true;
    if (c == '\\') return atom_escape();
    if (c == '[') return char_class();
    if (c == '(') {
      if (!peek(d)) return false;
      if (d == '?') {
        ++i_;
        if (!take(d)) return false;
        if (d == '<') {
          if (!group_name(true)) return false;
        } else if (d != ':') {
          return fail(kBad);
        }
      } else {
        ++groups_;
      }
      return disjunction() && expect(')');
    }
    if (among(c, kSyntax) && c != '/') return fail(kBad);
    return true;
  }
  bool group_name(bool define) {
    const std::size_t start = i_;
    char32_t c;
    while (true) {
      if (!peek(c)) return false;
      if (c == '>') break;
      ++i_;
      const bool ok = ascii_alpha(c) || c == '_' || c == '$' || (i_ - 1 > start && ascii_digit(c));
      if (!ok) return fail(kBad);
    }
    std::u32string name = t_.substr(start, i_ - start);
    ++i_;
    if (name.empty()) return fail(kBad);
    if (define) {
      if (std::find(names_.begin(), names_.end(), name) != names_.end()) return fail(kBad);
      names_.push_back(std::move(name));
      ++groups_;
    } else {
      refs_.push_back(std::move(name));
    }
    return true;
  }
  bool atom_escape() {
    char32_t c;
    if (!peek(c)) return false;
    if (c == 'k') {
      ++i_;
      return expect('<') && group_name(false);
    }
    if (ascii_digit(c) && c != '0') {
      std::u32string_view n;
      if (!digits(n)) return false;
      std::uint64_t v = 0;
      for (char32_t d : n) v = std::min<std::uint64_t>(v * 10 + (d - '0'), 1ull << 40);
      max_backref_ = std::max(max_backref_, v);
      return true;
    }
    return char_escape(false) != kFailed;
  }
  /// One escaped character, kClassEscape for a class escape, kFailed on an error.
  std::int64_t char_escape(bool in_class) {
    char32_t c, d;
    if (!take(c)) return kFailed;
    if (among(c, "dDsSwW")) return kClassEscape;
    if (c == 'p' || c == 'P') {
      if (!expect('{')) return kFailed;
      const std::size_t start = i_;
      while (true) {
        if (!peek(d)) return kFailed;
        if (d == '}') break;
        ++i_;
        if (!(ascii_alpha(d) || ascii_digit(d) || d == '_' || d == '=')) return fail(kBad), kFailed;
      }
      if (i_ == start) return fail(kBad), kFailed;
      ++i_;
      return kClassEscape;
    }
    switch (c) {
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'v': return '\v';
      default: break;
    }
    if (c == 'c') {
      if (!take(d)) return kFailed;
      if (!ascii_alpha(d)) return fail(kBad), kFailed;
      return d % 32;
    }
    if (c == '0') {
      if (more() && ascii_digit(t_[i_])) return fail(kBad), kFailed;
      return 0;
    }
    if (c == 'x') return hex(2);
    if (c == 'u') {
      if (!peek(d)) return kFailed;
      if (d != '{') return hex(4);
      ++i_;
      const std::size_t start = i_;
      std::uint64_t v = 0;
      while (true) {
        if (!peek(d)) return kFailed;
        if (d == '}') break;
        ++i_;
        if (!hex_digit(d)) return fail(kBad), kFailed;
        v = std::min<std::uint64_t>(v * 16 + hex_value(d), 0x110000);
      }
      if (i_ == start || v > 0x10FFFF) return fail(kBad), kFailed;
      ++i_;
      return static_cast<std::int64_t>(v);
    }
    if (c == 'b' && in_class) return '\b';
    if (c == '-' && in_class) return '-';
    if (among(c, kSyntax)) return c;
    return fail(kBad), kFailed;
  }
  std::int64_t hex(int n) {
    std::int64_t v = 0;
    for (int k = 0; k < n; ++k) {
      char32_t c;
      if (!take(c)) return kFailed;
      if (!hex_digit(c)) return fail(kBad), kFailed;
      v = v * 16 + hex_value(c);
    }
    return v;
  }
  bool char_class() {
    char32_t c, d;
    if (!peek(c)) return false;
    if (c == '^') ++i_;
    while (true) {
      if (!peek(c)) return false;
      if (c == ']') break;
      const std::int64_t low = class_atom();
      if (low == kFailed) return false;
      if (!peek(c)) return false;
      if (c == '-') {
        if (!peek(d, 1)) return false;
        if (d != ']') {
          ++i_;
          const std::int64_t high = class_atom();
          if (high == kFailed) return false;
          if (low == kClassEscape || high == kClassEscape || low > high) return fail(kBad);
        }
      }
    }
    ++i_;
    return true;
  }
  std::int64_t class_atom() {
    char32_t c;
    if (!take(c)) return kFailed;
    return c == '\\' ? char_escape(true) : static_cast<std::int64_t>(c);
  }

  const std::u32string& t_;
  std::size_t i_ = 0;
  Status status_ = kOk;
  std::uint64_t groups_ = 0, max_backref_ = 0;
  std::vector<std::u32string> names_, refs_;
};

class EcmaRegex : public StringRule {
 public:
  EcmaRegex(std::uint32_t min_length, std::optional<std::uint32_t> max_length)
      : min_(min_length), max_(max_length) {}

  bool complete(const std::u32string& text) const override {
    if (text.size() < min_ || (max_ && text.size() > *max_)) return false;
    return ecma_regex_valid(text);
  }
  bool viable(const std::u32string& text, std::string_view escape) const override {
    const bool pending = !escape.empty() || (!text.empty() && text.back() >= 0xD800 &&
                                             text.back() <= 0xDFFF);
    if (!max_) return ecma_regex_viable(text);
    if (text.size() > *max_) return false;
    // A completion must fit: try the short ones (nothing, closers, the end of
    // a group name, an escape or a quantifier).
    static const std::u32string kTails[] = {U"", U")", U"]", U"))", U"])", U"}", U"0}",
                                            U">)", U"a>)", U"a", U"d", U"0", U"00", U"0000"};
    const std::size_t room = *max_ - text.size();
    std::u32string tried;
    for (const std::u32string& tail : kTails) {
      if (tail.size() > room) continue;
      tried = text;
      tried += tail;
      if (complete(tried)) return true;
    }
    return !pending && ecma_regex_valid(text);
  }

 private:
  std::uint32_t min_;
  std::optional<std::uint32_t> max_;
};

}  // namespace

bool ecma_regex_valid(const std::u32string& text) {
  Reader r(text);
  return r.run() == Reader::kOk && r.references_resolve();
}

bool ecma_regex_viable(const std::u32string& text) { return Reader(text).run() != Reader::kBad; }

std::shared_ptr<const StringRule> ecma_regex_rule(std::uint32_t min_length,
                                                  std::optional<std::uint32_t> max_length) {
  return std::make_shared<const EcmaRegex>(min_length, max_length);
}

}  // namespace pse
