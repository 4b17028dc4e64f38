#include "nodes/unique_items.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <vector>

#include "nodes/item_values.h"
#include "nodes/value_prefix.h"
#include "support/utf8.h"

namespace pse {

namespace {

// ---------------------------------------------------------------- canonical form

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Canon {
 public:
  explicit Canon(std::string_view t) : t_(t) {}

  bool whole(std::string& out) {
    if (!value(out)) return false;
    skip();
    return i_ == t_.size();
  }

 private:
  void skip() {
    while (i_ < t_.size() && is_ws(t_[i_])) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ >= t_.size() || t_[i_] != c) return false;
    ++i_;
    return true;
  }
  bool literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool value(std::string& out) {
    skip();
    if (i_ >= t_.size()) return false;
    switch (t_[i_]) {
      case '"': {
        std::string s;
        if (!string(s)) return false;
        put_string(out, s);
        return true;
      }
      case '[': return array(out);
      case '{': return object(out);
      case 't': out += 't'; return literal("true");
      case 'f': out += 'f'; return literal("false");
      case 'n': out += 'z'; return literal("null");
      default: return number(out);
    }
  }

  static void put_string(std::string& out, const std::string& s) {
    out += 's';
    out += std::to_string(s.size());
    out += ':';
    out += s;
  }

  bool hex4(std::uint32_t& cp) {
    if (i_ + 4 > t_.size()) return false;
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      char c = t_[i_++];
      cp <<= 4;
      if (c >= '0' && c <= '9') cp |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') cp |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') cp |= static_cast<std::uint32_t>(c - 'A' + 10);
      else return false;
    }
    return true;
  }

  /// The decoded bytes of the string at the cursor.
  bool string(std::string& s) {
    if (!eat('"')) return false;
    while (i_ < t_.size()) {
      char c = t_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i_ >= t_.size()) return false;
      char e = t_[i_++];
      switch (e) {
        case '"': case '\\': case '/': s += e; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          std::uint32_t cp;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && t_.substr(i_, 2) == "\\u") {
            std::size_t back = i_;
            i_ += 2;
            std::uint32_t low;
            if (hex4(low) && low >= 0xDC00 && low <= 0xDFFF)
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            else
              i_ = back;
          }
          utf8::append(s, cp);  // a lone surrogate keeps its 3-byte form
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  bool array(std::string& out) {
    ++i_;
    out += '[';
    skip();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      out += ']';
      return true;
    }
    do {
      if (!value(out)) return false;
      out += ',';
    } while (eat(','));
    out += ']';
    return eat(']');
  }

  bool object(std::string& out) {
    ++i_;
    std::map<std::string, std::string> members;  // sorted; a repeated key keeps its last value
    skip();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
    } else {
      do {
        std::string key, val;
        skip();
        if (!string(key) || !eat(':') || !value(val)) return false;
        members[key] = std::move(val);
      } while (eat(','));
      if (!eat('}')) return false;
    }
    out += '{';
    for (const auto& [k, v] : members) {
      put_string(out, k);
      out += v;
    }
    out += '}';
    return true;
  }

  /// A number as sign, significant digits and exponent: equal values, equal text.
  bool number(std::string& out) {
    bool negative = false;
    if (t_[i_] == '-') {
      negative = true;
      ++i_;
    }
    std::string digits;
    long long exponent = 0;
    auto digit = [&] { return i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9'; };
    if (!digit()) return false;
    while (digit()) digits += t_[i_++];
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (!digit()) return false;
      while (digit()) {
        digits += t_[i_++];
        --exponent;
      }
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      bool minus = false;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) minus = t_[i_++] == '-';
      if (!digit()) return false;
      while (i_ < t_.size() && t_[i_] == '0') ++i_;
      std::size_t from = i_;
      long long e = 0;
      while (digit()) e = e * 10 + (t_[i_++] - '0');
      if (i_ - from > 18) return false;
      exponent += minus ? -e : e;
    }
    std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos) {
      out += "n0";  // -0 == 0
      return true;
    }
    digits.erase(0, lead);
    while (digits.back() == '0') {
      digits.pop_back();
      ++exponent;
    }
    out += negative ? "n-" : "n";
    out += digits;
    out += 'e';
    out += std::to_string(exponent);
    return true;
  }

  std::string_view t_;
  std::size_t i_ = 0;
};

// ---------------------------------------------------------------- the scan

/// Where the scan of the array's text stands (the item's own bytes aside).
struct Scan {
  std::uint32_t depth = 0;  ///< 1: directly inside the array
  bool quoted = false, escape = false;
  bool in_item = false;     ///< an item at depth 1 has begun and not completed
  bool closed = false;      ///< the array has ended
  char kind = 0;            ///< the first byte of the current item
  std::uint8_t spelt = 0;   ///< bytes of a true/false/null item so far
};

enum class Event { kNone, kEndsBefore, kEndsWith };

/// Advance `s` over byte `c`: does an item end just before it, or with it?
Event scan(Scan& s, char c) {
  if (s.closed) return Event::kNone;
  if (s.quoted) {
    if (s.escape) {
      s.escape = false;
    } else if (c == '\\') {
      s.escape = true;
    } else if (c == '"') {
      s.quoted = false;
      if (s.depth == 1 && s.in_item) {
        s.in_item = false;
        return Event::kEndsWith;
      }
    }
    return Event::kNone;
  }
  Event ev = Event::kNone;
  const bool scalar = s.in_item && s.depth == 1 && s.kind != '"' && s.kind != '[' && s.kind != '{';
  if (scalar && (is_ws(c) || c == ',' || c == ']')) {
    s.in_item = false;
    ev = Event::kEndsBefore;
  }
  if (c == '"') {
    s.quoted = true;
    if (s.depth == 1 && !s.in_item) {
      s.in_item = true;
      s.kind = c;
    }
  } else if (c == '[' || c == '{') {
    if (s.depth == 1 && !s.in_item) {
      s.in_item = true;
      s.kind = c;
    }
    ++s.depth;
  } else if (c == ']' || c == '}') {
    if (s.depth > 0) --s.depth;
    if (s.depth == 0) s.closed = true;
    if (s.depth == 1 && s.in_item) {
      s.in_item = false;
      return Event::kEndsWith;
    }
  } else if (s.depth == 1 && !is_ws(c) && c != ',' && ev == Event::kNone) {
    if (!s.in_item) {
      s.in_item = true;
      s.kind = c;
      s.spelt = 0;
    }
    ++s.spelt;
    const bool literal = s.kind == 't' || s.kind == 'f' || s.kind == 'n';
    if (literal && s.spelt == (s.kind == 'f' ? 5 : 4)) {
      s.in_item = false;
      return Event::kEndsWith;
    }
  }
  return ev;
}

/// A value an item may take (its canonical key) and the exponents its number
/// automaton writes it with (bits of value_prefix.h's mask).
struct DomainValue {
  std::string key;
  std::uint32_t exponents;
};
using Domain = std::vector<DomainValue>;

/// The state of the check: the scan, the current item's bytes so far and the
/// keys of the completed items (sorted, shared between states).
struct Items {
  Scan scan;
  std::string item;
  std::shared_ptr<const std::vector<std::string>> keys;
};

bool known(const std::vector<std::string>* keys, const std::vector<std::string>& more,
           const std::string& key) {
  if (keys && std::binary_search(keys->begin(), keys->end(), key)) return true;
  return std::find(more.begin(), more.end(), key) != more.end();
}

/// What the check knows of the values an item may take: `domain` when
/// finitely many (all scalars); else the machines of its numbers, and of its
/// strings, when every number (string) it allows has one the check can read.
struct Reach {
  Domain domain;
  std::vector<ItemValues> numbers, strings;
};

bool number_start(char c) { return c == '-' || (c >= '0' && c <= '9'); }

/// Whether the item begun by `item` (not complete) may still become a value
/// that is not `seen`: a prefix that fixes its value must not fix a seen one,
/// and with a finite domain, or machines for its type, some unseen value of
/// it must remain.
template <class Seen>
bool open_item(const std::string& item, const Seen& seen, std::size_t seen_count, const Reach& reach) {
  if (std::optional<std::string> key = determined_key(item); key && seen(*key)) return false;
  if (!reach.domain.empty())
    return std::any_of(reach.domain.begin(), reach.domain.end(), [&](const DomainValue& value) {
      return may_become(item, value.key, value.exponents) && !seen(value.key);
    });
  if (item[0] != '"' && !number_start(item[0])) return true;
  const std::vector<ItemValues>& machines = item[0] == '"' ? reach.strings : reach.numbers;
  if (machines.empty()) return true;
  const std::function<bool(const std::string&)> is_seen = [&](const std::string& key) {
    return seen(key);
  };
  return std::any_of(machines.begin(), machines.end(), [&](const ItemValues& values) {
    return values.reaches_unseen(item, is_seen, seen_count);
  });
}

/// Run `bytes` from `in`. Returns false on a duplicate, or when every value the
/// item begun may still become is a duplicate (or outside `domain`, the item
/// values' keys when finitely many, or their automata). With `out`, the state
/// after.
bool run(const Items& in, std::string_view bytes, Items* out, const Reach& reach) {
  Scan s = in.scan;
  std::string_view carried = s.in_item ? std::string_view(in.item) : std::string_view();
  std::size_t from = 0;  // where the current item begins in `bytes`
  std::vector<std::string> added;
  auto complete = [&](std::size_t end) {
    std::string text(carried);
    text.append(bytes.substr(from, end - from));
    carried = {};
    std::optional<std::string> key = canonical_json(text);
    if (!key || known(in.keys.get(), added, *key)) return false;
    added.push_back(std::move(*key));
    return true;
  };
  std::size_t k = 0;
  for (; k < bytes.size() && !s.closed; ++k) {
    const bool was_in = s.in_item;
    const Event ev = scan(s, bytes[k]);
    if (ev == Event::kEndsBefore && !complete(k)) return false;
    if (!was_in && (s.in_item || ev == Event::kEndsWith)) {
      carried = {};
      from = k;
    }
    if (ev == Event::kEndsWith && !complete(k + 1)) return false;
  }
  std::string item = s.in_item ? std::string(carried).append(bytes.substr(from, k - from)) : std::string();
  const std::size_t seen_count = (in.keys ? in.keys->size() : 0) + added.size();
  if (s.in_item && !open_item(item, [&](const std::string& key) { return known(in.keys.get(), added, key); },
                              seen_count, reach))
    return false;
  if (!out) return true;
  out->scan = s;
  out->item = std::move(item);
  if (added.empty()) {
    out->keys = in.keys;
  } else {
    auto keys = std::make_shared<std::vector<std::string>>();
    if (in.keys) *keys = *in.keys;
    for (auto& key : added) keys->insert(std::upper_bound(keys->begin(), keys->end(), key), key);
    out->keys = std::move(keys);
  }
  return true;
}

class UniqueItems : public Check {
 public:
  explicit UniqueItems(Reach reach) : reach_(std::move(reach)) {}
  State start() const override { return std::make_shared<Items>(); }
  State feed(const void* state, std::string_view bytes) const override {
    auto next = std::make_shared<Items>();
    if (!run(*static_cast<const Items*>(state), bytes, next.get(), reach_)) return nullptr;
    return next;
  }
  bool allows(const void* state, std::string_view bytes) const override {
    return run(*static_cast<const Items*>(state), bytes, nullptr, reach_);
  }

 private:
  Reach reach_;
};

}  // namespace

std::optional<std::string> canonical_json(std::string_view text) {
  std::string out;
  if (!Canon(text).whole(out)) return std::nullopt;
  return out;
}

std::shared_ptr<const Check> unique_items_check(
    const std::vector<std::pair<std::string, std::uint32_t>>& domain, const std::vector<SMPtr>& numbers,
    const std::vector<SMPtr>& strings) {
  if (domain.empty() && numbers.empty() && strings.empty()) {
    static const auto check = std::make_shared<const UniqueItems>(Reach());
    return check;
  }
  Reach reach;
  reach.domain.reserve(domain.size());
  for (const auto& [text, exponents] : domain) {
    std::optional<std::string> key = canonical_json(text);
    if (!key || std::string_view("tfzsn").find((*key)[0]) == std::string_view::npos)
      throw std::invalid_argument("unique_items: a domain value is not one JSON scalar: " + text);
    reach.domain.push_back({std::move(*key), exponents});
  }
  for (const SMPtr& machine : numbers) {
    if (!machine || machine->kind != Kind::kDfa)
      throw std::invalid_argument("unique_items: a number machine is not a DFA");
    reach.numbers.emplace_back(*machine);
  }
  for (const SMPtr& machine : strings) {
    if (!machine || (machine->kind != Kind::kDfa && machine->kind != Kind::kString))
      throw std::invalid_argument("unique_items: a string machine is neither a DFA nor a string");
    reach.strings.emplace_back(*machine);
  }
  return std::make_shared<const UniqueItems>(std::move(reach));
}

}  // namespace pse
