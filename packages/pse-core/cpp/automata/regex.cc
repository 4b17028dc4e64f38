// ECMA-262 patterns (u flag) to code-point DFAs.
//
// Supported: literals; escapes \t \n \v \f \r \0 \cX \xHH \uHHHH \u{H..} (a
// \uHHHH\uHHHH surrogate pair is one code point), identity escapes of
// punctuation; classes \d \D \w \W \s \S, \p{..}/\P{..} (resolved by the
// caller), [...] with ranges and negation, '.'; groups (capturing, (?:),
// (?<name>)); alternation; quantifiers * + ? {m} {m,} {m,n} and their lazy
// forms (same language); ^ and $ anywhere (no multiline flag: start and end
// of the whole string). Lookaheads (?=...)/(?!...) right after a leading ^
// become extra parts the caller intersects. Everything else (lookbehind,
// other lookaheads, backreferences, \b \B, inline flags, unknown letter
// escapes, malformed patterns) is a RegexError.
#include "automata/regex.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace pse {
namespace {

constexpr std::int32_t kMaxCodePoint = 0x10FFFF;
constexpr std::size_t kMaxNfaStates = 50'000;
constexpr std::size_t kMaxDfaStates = 4'000;
// Repeat counts past this are equally too large for the NFA; kept exact
// enough for "{m,n}" order checks, which compare the digits themselves.
constexpr std::int64_t kCountCap = std::int64_t{1} << 40;

// ---------------------------------------------------------------- char sets

CodePointSet minus_surrogates(const CodePointSet& cs) {
  CodePointSet out;
  for (const auto& [lo, hi] : cs) {
    if (hi < 0xD800 || lo > 0xDFFF) {
      out.push_back({lo, hi});
      continue;
    }
    if (lo < 0xD800) out.push_back({lo, 0xD7FF});
    if (hi > 0xDFFF) out.push_back({0xE000, hi});
  }
  return out;
}

CodePointSet normalize(CodePointSet ranges) {
  std::sort(ranges.begin(), ranges.end());
  CodePointSet out;
  for (const auto& [lo, hi] : ranges) {
    if (lo > hi) continue;
    if (!out.empty() && lo <= out.back()[1] + 1) out.back()[1] = std::max(out.back()[1], hi);
    else out.push_back({lo, hi});
  }
  return minus_surrogates(out);
}

CodePointSet range(std::int32_t lo, std::int32_t hi) { return normalize({{lo, hi}}); }

CodePointSet unite(const std::vector<CodePointSet>& sets) {
  CodePointSet all;
  for (const auto& s : sets) all.insert(all.end(), s.begin(), s.end());
  return normalize(std::move(all));
}

CodePointSet complement(const CodePointSet& cs) {
  CodePointSet out;
  std::int32_t prev = 0;
  for (const auto& [lo, hi] : cs) {
    if (lo > prev) out.push_back({prev, lo - 1});
    prev = hi + 1;
  }
  if (prev <= kMaxCodePoint) out.push_back({prev, kMaxCodePoint});
  return minus_surrogates(out);
}

const CodePointSet& any_char() {
  static const CodePointSet s{{0, 0xD7FF}, {0xE000, kMaxCodePoint}};
  return s;
}
const CodePointSet& digit() {
  static const CodePointSet s = range('0', '9');
  return s;
}
const CodePointSet& word() {
  static const CodePointSet s = unite({range('0', '9'), range('A', 'Z'), range('a', 'z'), range('_', '_')});
  return s;
}
const CodePointSet& space() {
  static const CodePointSet s = normalize({{0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
                                      {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000},
                                      {0xFEFF, 0xFEFF}});
  return s;
}
const CodePointSet& dot() {  // anything but a line terminator
  static const CodePointSet s = [] {
    return complement(normalize({{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}));
  }();
  return s;
}

// ---------------------------------------------------------------------- AST

struct Node {
  enum Kind { kChars, kSeq, kAlt, kRepeat, kAssert, kLook };
  Node() = default;
  explicit Node(Kind k) : kind(k) {}
  Kind kind = kSeq;
  CodePointSet chars;
  std::vector<Node> items;           // kSeq, kAlt; kRepeat and kLook: one item
  std::int64_t min = 0, max = -1;    // kRepeat; max -1: unbounded
  char assertion = 0;                // kAssert: '^' or '$'
  bool negative = false;             // kLook
};

Node chars_node(CodePointSet cs) {
  Node n(Node::kChars);
  n.chars = std::move(cs);
  return n;
}

struct SyntaxError {
  std::string what;
  std::int64_t offset;
};

bool is_ascii_digit(std::int32_t c) { return c >= '0' && c <= '9'; }
bool is_hex(std::int32_t c) { return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ascii_alpha(std::int32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
std::int32_t hex_value(std::int32_t c) {
  return is_ascii_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
}

/// A decimal count: its value capped at kCountCap and its digits (for exact comparisons).
struct Count {
  std::int64_t value;
  std::string digits;  // without leading zeros
};

bool less(const Count& a, const Count& b) {
  if (a.digits.size() != b.digits.size()) return a.digits.size() < b.digits.size();
  return a.digits < b.digits;
}

class Parser {
 public:
  explicit Parser(const RegexInput& in) : in_(in), p_(in.pattern) {}

  Node parse() {
    Node node = alternation();
    if (i_ != p_.size()) throw error("unbalanced ')'");
    return node;
  }

 private:
  SyntaxError error(const std::string& what) const { return {what, static_cast<std::int64_t>(i_)}; }

  /// The character k ahead, or -1 past the end.
  std::int32_t peek(std::size_t k = 0) const { return i_ + k < p_.size() ? p_[i_ + k] : -1; }

  bool unicode_digit(std::size_t pos) const {
    return pos < in_.unicode_digit.size() && in_.unicode_digit[pos];
  }
  /// str.isdigit() of the character at pos (false past the end).
  bool is_digit_at(std::size_t pos) const {
    return pos < p_.size() && (is_ascii_digit(p_[pos]) || unicode_digit(pos));
  }

  Node alternation() {
    std::vector<Node> options;
    options.push_back(sequence());
    while (peek() == '|') {
      ++i_;
      options.push_back(sequence());
    }
    if (options.size() == 1) return std::move(options[0]);
    Node n(Node::kAlt);
    n.items = std::move(options);
    return n;
  }

  Node sequence() {
    std::vector<Node> items;
    while (i_ < p_.size() && peek() != '|' && peek() != ')') items.push_back(quantified(atom()));
    if (items.size() == 1) return std::move(items[0]);
    Node n(Node::kSeq);
    n.items = std::move(items);
    return n;
  }

  static bool is_quantifier(std::int32_t c) { return c == '*' || c == '+' || c == '?'; }

  Node quantified(Node atom) {
    while (true) {
      std::int32_t c = peek();
      Count lo{0, ""}, hi{-1, ""};
      if (is_quantifier(c)) {
        if (c != '*' && c != '?') lo = {1, "1"};  // '+'
        if (c == '?') hi = {1, "1"};
        ++i_;
      } else if (c == '{') {
        auto bounds = braces();
        if (!bounds) return atom;
        lo = bounds->first;
        hi = bounds->second;
      } else {
        return atom;
      }
      if (atom.kind == Node::kAssert || atom.kind == Node::kLook) throw error("quantified assertion");
      if (peek() == '?') ++i_;  // lazy: the same language
      if (hi.value >= 0 && less(hi, lo)) throw error("quantifier range out of order");
      Node r(Node::kRepeat);
      r.min = lo.value;
      r.max = hi.value;
      r.items.push_back(std::move(atom));
      atom = std::move(r);
      if (is_quantifier(peek())) throw error("nothing to repeat");
    }
  }

  Count count(std::size_t from, std::size_t to) const {
    Count c{0, ""};
    for (std::size_t k = from; k < to; ++k) {
      if (c.digits.empty() && p_[k] == '0') continue;
      c.digits.push_back(static_cast<char>(p_[k]));
    }
    for (char d : c.digits) c.value = std::min(kCountCap, c.value * 10 + (d - '0'));
    return c;
  }

  /// "{m}", "{m,}" or "{m,n}" at i_ (consumed), or nothing (i_ unchanged).
  std::optional<std::pair<Count, Count>> braces() {
    std::size_t j = i_ + 1, k = j;
    while (k < p_.size() && is_ascii_digit(p_[k])) ++k;
    if (k == j) return std::nullopt;
    Count lo = count(j, k), hi = lo;
    if (k < p_.size() && p_[k] == ',') {
      std::size_t m = k + 1;
      while (m < p_.size() && is_ascii_digit(p_[m])) ++m;
      hi = m > k + 1 ? count(k + 1, m) : Count{-1, ""};
      k = m;
    }
    if (k >= p_.size() || p_[k] != '}') return std::nullopt;
    i_ = k + 1;
    return std::make_pair(lo, hi);
  }

  Node atom() {
    std::int32_t c = peek();
    if (c == '(') return group();
    if (c == '[') return chars_node(char_class());
    if (c == '.') {
      ++i_;
      return chars_node(dot());
    }
    if (c == '^' || c == '$') {
      ++i_;
      Node n(Node::kAssert);
      n.assertion = static_cast<char>(c);
      return n;
    }
    if (is_quantifier(c)) throw error("nothing to repeat");
    if (c == '{') {
      std::size_t save = i_;
      bool ahead = braces().has_value();
      i_ = save;
      if (ahead) throw error("nothing to repeat");
    }
    if (c == '\\') return chars_node(escape());
    ++i_;
    return chars_node(range(c, c));
  }

  std::size_t find(std::int32_t ch, std::size_t from) const {
    for (std::size_t k = from; k < p_.size(); ++k)
      if (p_[k] == ch) return k;
    return std::string::npos;
  }

  Node group() {
    ++i_;
    if (peek() == '?') {
      std::int32_t nxt = peek(1);
      if (nxt == ':') {
        i_ += 2;
      } else if (nxt == '<' && peek(2) != '=' && peek(2) != '!') {
        std::size_t end = find('>', i_);
        if (end == std::string::npos) throw error("unterminated group name");
        i_ = end + 1;
      } else if (nxt == '=' || nxt == '!') {
        i_ += 2;
        Node inner = alternation();
        if (peek() != ')') throw error("missing ')'");
        ++i_;
        Node n(Node::kLook);
        n.negative = nxt == '!';
        n.items.push_back(std::move(inner));
        return n;
      } else if (nxt == '<') {
        throw error("lookbehind is not supported");
      } else {
        throw error("unsupported group syntax");
      }
    }
    Node node = alternation();
    if (peek() != ')') throw error("missing ')'");
    ++i_;
    return node;
  }

  CodePointSet char_class() {
    ++i_;
    bool negate = peek() == '^';
    if (negate) ++i_;
    std::vector<CodePointSet> parts;
    while (true) {
      std::int32_t c = peek();
      if (c < 0) throw error("unterminated character class");
      if (c == ']') {
        ++i_;
        break;
      }
      auto [lo_set, lo_cp] = class_atom();
      if (peek() == '-' && peek(1) != ']' && peek(1) >= 0) {
        std::size_t save = i_;
        ++i_;
        auto [hi_set, hi_cp] = class_atom();
        if (lo_cp < 0 || hi_cp < 0) {  // Annex B: a class escape next to '-' makes the '-' literal
          parts.push_back(lo_set);
          parts.push_back(range('-', '-'));
          parts.push_back(hi_set);
          continue;
        }
        if (hi_cp < lo_cp) {
          i_ = save;
          throw error("class range out of order");
        }
        parts.push_back(range(lo_cp, hi_cp));
      } else {
        parts.push_back(lo_set);
      }
    }
    CodePointSet result = unite(parts);
    return negate ? complement(result) : result;
  }

  /// A class member: its set, and its code point when it is a single one (else -1).
  std::pair<CodePointSet, std::int32_t> class_atom() {
    std::int32_t c = peek();
    if (c == '\\') {
      if (peek(1) == 'b') {
        i_ += 2;
        return {range(8, 8), 8};
      }
      if (peek(1) == '-') {
        i_ += 2;
        return {range('-', '-'), '-'};
      }
      CodePointSet chars = escape();
      if (chars.size() == 1 && chars[0][0] == chars[0][1] && last_was_single_) return {chars, chars[0][0]};
      return {chars, -1};
    }
    ++i_;
    return {range(c, c), c};
  }

  /// `\...` at i_; sets last_was_single_ for class ranges.
  CodePointSet escape() {
    ++i_;
    std::int32_t c = peek();
    if (c < 0) throw error("trailing backslash");
    std::size_t at = i_;
    ++i_;
    last_was_single_ = true;
    switch (c) {
      case 'd': last_was_single_ = false; return digit();
      case 'D': last_was_single_ = false; return complement(digit());
      case 'w': last_was_single_ = false; return word();
      case 'W': last_was_single_ = false; return complement(word());
      case 's': last_was_single_ = false; return space();
      case 'S': last_was_single_ = false; return complement(space());
      default: break;
    }
    if (c == 'p' || c == 'P') {
      if (peek() != '{') throw error("\\p needs {name}");
      std::size_t end = find('}', i_);
      if (end == std::string::npos) throw error("unterminated \\p{");
      std::size_t begin = i_ + 1;
      i_ = end + 1;
      last_was_single_ = false;
      CodePointSet prop = normalize(in_.property(begin, end));
      return c == 'P' ? complement(prop) : prop;
    }
    switch (c) {
      case 't': return range(0x09, 0x09);
      case 'n': return range(0x0A, 0x0A);
      case 'v': return range(0x0B, 0x0B);
      case 'f': return range(0x0C, 0x0C);
      case 'r': return range(0x0D, 0x0D);
      default: break;
    }
    if (c == '0' && !is_digit_at(i_)) return range(0, 0);
    if (is_ascii_digit(c) || unicode_digit(at)) throw error("backreferences are not supported");
    if (c == 'b' || c == 'B') throw error("word boundaries are not supported");
    if (c == 'k') throw error("named backreferences are not supported");
    if (c == 'c') {
      std::int32_t letter = peek();
      if (is_ascii_alpha(letter)) {
        ++i_;
        return range(letter % 32, letter % 32);
      }
      throw error("bad \\c escape");
    }
    if (c == 'x') return single(hex_digits(2));
    if (c == 'u') {
      if (peek() == '{') {
        std::size_t end = find('}', i_);
        bool ok = end != std::string::npos && end > i_ + 1;
        for (std::size_t k = i_ + 1; ok && k < end; ++k) ok = is_hex(p_[k]);
        if (!ok) throw error("bad \\u{...} escape");
        std::int64_t cp = 0;
        for (std::size_t k = i_ + 1; k < end; ++k) cp = std::min<std::int64_t>(cp * 16 + hex_value(p_[k]), kMaxCodePoint + 1);
        i_ = end + 1;
        if (cp > kMaxCodePoint) throw error("code point out of range");
        return single(static_cast<std::int32_t>(cp));
      }
      std::int32_t cp = hex_digits(4);
      if (cp >= 0xD800 && cp <= 0xDBFF && peek() == '\\' && peek(1) == 'u') {
        std::size_t save = i_;
        i_ += 2;
        std::int32_t low = -1;
        if (hex_ahead(4)) low = hex_digits(4);
        if (low >= 0xDC00 && low <= 0xDFFF) return single(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
        i_ = save;
      }
      return single(cp);
    }
    if (c < 0x80 && (is_ascii_alpha(c) || is_ascii_digit(c))) {
      std::string what = "unknown escape \\";
      what.push_back(static_cast<char>(c));
      throw error(what);
    }
    return range(c, c);
  }

  CodePointSet single(std::int32_t cp) const {
    if (cp >= 0xD800 && cp <= 0xDFFF) throw error("lone surrogates are not supported");
    return range(cp, cp);
  }

  bool hex_ahead(std::size_t n) const {
    if (i_ + n > p_.size()) return false;
    for (std::size_t k = i_; k < i_ + n; ++k)
      if (!is_hex(p_[k])) return false;
    return true;
  }

  std::int32_t hex_digits(std::size_t n) {
    if (!hex_ahead(n)) throw error("bad hex escape");
    std::int32_t v = 0;
    for (std::size_t k = 0; k < n; ++k) v = v * 16 + hex_value(p_[i_ + k]);
    i_ += n;
    return v;
  }

  const RegexInput& in_;
  const std::vector<std::int32_t>& p_;
  std::size_t i_ = 0;
  bool last_was_single_ = true;
};

// ---------------------------------------------------------------------- NFA

struct TooLarge {
  RegexError::Kind kind;
};
struct BadLookahead {};

/// A Thompson NFA: character edges (interned sets) and epsilon edges, which
/// may carry an assertion: '^' passable only before the first character, '$'
/// only if nothing follows (the configuration is marked ended).
struct Nfa {
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> chars;  // (set id, target)
  std::vector<std::vector<std::pair<char, std::int32_t>>> eps;            // (0 | '^' | '$', target)
  std::vector<CodePointSet> sets;
  std::map<CodePointSet, std::int32_t> set_ids;

  std::int32_t state() {
    if (chars.size() >= kMaxNfaStates) throw TooLarge{RegexError::kNfa};
    chars.emplace_back();
    eps.emplace_back();
    return static_cast<std::int32_t>(chars.size() - 1);
  }

  void epsilon(std::int32_t from, std::int32_t to, char kind = 0) {
    eps[static_cast<std::size_t>(from)].push_back({kind, to});
  }

  std::pair<std::int32_t, std::int32_t> build(const Node& node) {
    switch (node.kind) {
      case Node::kChars: {
        std::int32_t s = state(), e = state();
        if (!node.chars.empty()) {
          auto [it, fresh] = set_ids.try_emplace(node.chars, static_cast<std::int32_t>(sets.size()));
          if (fresh) sets.push_back(node.chars);
          chars[static_cast<std::size_t>(s)].push_back({it->second, e});
        }
        return {s, e};
      }
      case Node::kAssert: {
        std::int32_t s = state(), e = state();
        epsilon(s, e, node.assertion);
        return {s, e};
      }
      case Node::kSeq: {
        std::int32_t s = state(), e = s;
        for (const Node& item : node.items) {
          auto [a, b] = build(item);
          epsilon(e, a);
          e = b;
        }
        return {s, e};
      }
      case Node::kLook:
        throw BadLookahead{};
      case Node::kAlt: {
        std::int32_t s = state(), e = state();
        for (const Node& option : node.items) {
          auto [a, b] = build(option);
          epsilon(s, a);
          epsilon(b, e);
        }
        return {s, e};
      }
      case Node::kRepeat:
        return repeat(node);
    }
    return {-1, -1};
  }

  std::pair<std::int32_t, std::int32_t> repeat(const Node& node) {
    const Node& item = node.items[0];
    std::int32_t s = state(), e = s;
    for (std::int64_t k = 0; k < node.min; ++k) {
      auto [a, b] = build(item);
      epsilon(e, a);
      e = b;
    }
    if (node.max < 0) {
      auto [a, b] = build(item);
      std::int32_t loop = state();
      epsilon(e, loop);
      epsilon(loop, a);
      epsilon(b, loop);
      return {s, loop};
    }
    std::int32_t end = state();
    for (std::int64_t k = node.min; k < node.max; ++k) {
      epsilon(e, end);
      auto [a, b] = build(item);
      epsilon(e, a);
      e = b;
    }
    epsilon(e, end);
    return {s, end};
  }
};

// A configuration: NFA state * 2 + ended.
using Config = std::int32_t;

struct VecHash {
  std::size_t operator()(const std::vector<std::int32_t>& v) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::int32_t x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 1099511628211ull;
    return h;
  }
};

std::vector<Config> closure(const Nfa& nfa, std::vector<Config> seeds, bool at_start) {
  std::vector<Config> stack = seeds;
  std::vector<Config>& seen = seeds;
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  std::vector<bool> mark(nfa.chars.size() * 2, false);
  for (Config c : seen) mark[static_cast<std::size_t>(c)] = true;
  while (!stack.empty()) {
    Config c = stack.back();
    stack.pop_back();
    bool ended = c & 1;
    for (const auto& [kind, t] : nfa.eps[static_cast<std::size_t>(c >> 1)]) {
      if (kind == '^' && !at_start) continue;
      Config next = t * 2 + ((ended || kind == '$') ? 1 : 0);
      if (!mark[static_cast<std::size_t>(next)]) {
        mark[static_cast<std::size_t>(next)] = true;
        seen.push_back(next);
        stack.push_back(next);
      }
    }
  }
  std::sort(seen.begin(), seen.end());
  return seen;
}

/// Subset construction over the atoms of the NFA's character sets (the
/// elementary intervals between all range boundaries, grouped by the sets
/// that contain them).
RangeDfa determinize(const Nfa& nfa, std::int32_t start, std::int32_t accept) {
  std::vector<std::int32_t> bounds;
  for (const CodePointSet& cs : nfa.sets)
    for (const auto& [lo, hi] : cs) {
      bounds.push_back(lo);
      bounds.push_back(hi + 1);
    }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<std::vector<std::int32_t>> members(bounds.size());
  for (std::size_t sid = 0; sid < nfa.sets.size(); ++sid)
    for (const auto& [lo, hi] : nfa.sets[sid]) {
      auto k = static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), lo) - bounds.begin() - 1);
      for (; k < bounds.size() && bounds[k] <= hi; ++k) members[k].push_back(static_cast<std::int32_t>(sid));
    }
  std::unordered_map<std::vector<std::int32_t>, std::int32_t, VecHash> atom_of_sig;
  std::vector<std::vector<std::array<std::int32_t, 2>>> atom_ranges;
  std::vector<std::vector<std::int32_t>> set_atoms(nfa.sets.size());
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    if (members[k].empty()) continue;
    auto [it, fresh] = atom_of_sig.try_emplace(members[k], static_cast<std::int32_t>(atom_ranges.size()));
    if (fresh) {
      atom_ranges.emplace_back();
      for (std::int32_t sid : members[k]) set_atoms[static_cast<std::size_t>(sid)].push_back(it->second);
    }
    atom_ranges[static_cast<std::size_t>(it->second)].push_back({bounds[k], bounds[k + 1] - 1});
  }

  std::unordered_map<std::vector<Config>, std::int32_t, VecHash> ids;
  std::vector<std::vector<Config>> order;
  std::vector<Config> first = closure(nfa, {start * 2}, true);
  ids.emplace(first, 0);
  order.push_back(std::move(first));
  RangeDfa dfa;
  std::vector<std::pair<std::int32_t, std::int32_t>> moves;  // (atom, NFA target)
  for (std::size_t i = 0; i < order.size(); ++i) {
    moves.clear();
    bool accepting = false;
    for (Config c : order[i]) {
      if ((c >> 1) == accept) accepting = true;
      if (c & 1) continue;
      for (const auto& [sid, t] : nfa.chars[static_cast<std::size_t>(c >> 1)])
        for (std::int32_t a : set_atoms[static_cast<std::size_t>(sid)]) moves.push_back({a, t});
    }
    std::sort(moves.begin(), moves.end());
    moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
    std::vector<std::array<std::int32_t, 3>> row;
    std::map<std::vector<std::int32_t>, std::int32_t> by_targets;  // target set -> DFA state
    for (std::size_t m = 0; m < moves.size();) {
      std::int32_t atom = moves[m].first;
      std::vector<std::int32_t> targets;
      for (; m < moves.size() && moves[m].first == atom; ++m) targets.push_back(moves[m].second);
      auto found = by_targets.find(targets);
      std::int32_t tid;
      if (found != by_targets.end()) {
        tid = found->second;
      } else {
        std::vector<Config> seeds;
        for (std::int32_t t : targets) seeds.push_back(t * 2);
        std::vector<Config> next = closure(nfa, std::move(seeds), false);
        auto it = ids.find(next);
        if (it != ids.end()) {
          tid = it->second;
        } else {
          if (order.size() >= kMaxDfaStates) throw TooLarge{RegexError::kDfa};
          tid = static_cast<std::int32_t>(order.size());
          ids.emplace(next, tid);
          order.push_back(std::move(next));
        }
        by_targets.emplace(std::move(targets), tid);
      }
      for (const auto& [lo, hi] : atom_ranges[static_cast<std::size_t>(atom)]) row.push_back({lo, hi, tid});
    }
    std::sort(row.begin(), row.end());
    dfa.transitions.push_back(std::move(row));
    dfa.accepting.push_back(accepting);
  }
  return dfa;
}

RangeDfa compile_node(const Node& node) {
  Nfa nfa;
  auto [start, accept] = nfa.build(node);
  return minimize(determinize(nfa, start, accept));
}

Node any_string() {
  Node r(Node::kRepeat);
  r.items.push_back(chars_node(any_char()));
  return r;
}

Node seq(std::vector<Node> items) {
  Node n(Node::kSeq);
  n.items = std::move(items);
  return n;
}

}  // namespace

std::variant<std::vector<RegexPart>, RegexError> compile_regex(const RegexInput& input) {
  Node node;
  try {
    node = Parser(input).parse();
  } catch (const SyntaxError& e) {
    return RegexError{RegexError::kSyntax, e.what, e.offset};
  }
  // ^ (?=a) (?!b) rest: the lookaheads constrain the whole string.
  std::vector<Node> looks;
  if (node.kind == Node::kSeq && !node.items.empty() && node.items[0].kind == Node::kAssert &&
      node.items[0].assertion == '^') {
    std::size_t k = 1;
    while (k < node.items.size() && node.items[k].kind == Node::kLook) looks.push_back(std::move(node.items[k++]));
    std::vector<Node> rest;
    rest.push_back(std::move(node.items[0]));
    for (; k < node.items.size(); ++k) rest.push_back(std::move(node.items[k]));
    node = seq(std::move(rest));
  }
  if (!input.anchored) {
    std::vector<Node> wrapped;
    wrapped.push_back(any_string());
    wrapped.push_back(std::move(node));
    wrapped.push_back(any_string());
    node = seq(std::move(wrapped));
  }
  std::vector<RegexPart> parts;
  try {
    parts.push_back({compile_node(node), false});
    for (Node& look : looks) {
      std::vector<Node> ahead;
      ahead.push_back(std::move(look.items[0]));
      ahead.push_back(any_string());
      parts.push_back({compile_node(seq(std::move(ahead))), look.negative});
    }
  } catch (const TooLarge& e) {
    return RegexError{e.kind, "", -1};
  } catch (const BadLookahead&) {
    return RegexError{RegexError::kLookahead, "", -1};
  }
  return parts;
}

}  // namespace pse
