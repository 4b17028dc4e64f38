#include "nodes/object_keys.h"

#include <algorithm>
#include <unordered_map>

#include "nodes/checked_string.h"

namespace pse {

namespace {

using Bits = std::vector<bool>;

/// Where the check stands in the object's bytes.
struct Reading {
  std::uint8_t phase = 0;   ///< 0: before '{', 1: inside, 2: after the closing '}'
  std::uint32_t depth = 0;  ///< nesting; 1: the object's own level
  bool in_string = false;   ///< inside a string that is not one of our keys
  bool string_escape = false;
  bool expect_key = false;  ///< at level 1, a string here is a key
  bool in_key = false;
  DecodedString key;
  Bits seen;                ///< named keys present
  std::vector<std::u32string> others_seen;  ///< keys present that are not named
  std::uint32_t count = 0;  ///< pairs present
  Bits allowed;             ///< named keys the next key may be
  bool others_allowed = false;
};

class ObjectKeysCheck : public Check {
 public:
  explicit ObjectKeysCheck(ObjectKeys keys) : k_(std::move(keys)) {
    for (std::uint32_t i = 0; i < k_.names.size(); ++i) index_.emplace(k_.names[i], i);
  }

  State start() const override {
    auto r = std::make_shared<Reading>();
    r->seen.assign(k_.names.size(), false);
    return r;
  }
  State feed(const void* state, std::string_view bytes) const override {
    auto next = std::make_shared<Reading>(*static_cast<const Reading*>(state));
    if (!run(*next, bytes)) return nullptr;
    return next;
  }
  bool allows(const void* state, std::string_view bytes) const override {
    thread_local Reading scratch;
    scratch = *static_cast<const Reading*>(state);  // keeps the buffers' capacity
    return run(scratch, bytes);
  }

 private:
  /// The keys that must be present once `seen` are: the required ones and
  /// what dependentRequired adds, transitively. False when one is unusable.
  bool forced(const Bits& seen, Bits& out) const {
    out = seen;
    std::vector<std::uint32_t> todo;
    for (std::uint32_t i = 0; i < out.size(); ++i)
      if (out[i]) todo.push_back(i);
    for (std::uint32_t r : k_.required)
      if (!out[r]) out[r] = true, todo.push_back(r);
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      todo.pop_back();
      if (!k_.usable[i]) return false;
      for (std::uint32_t d : k_.dependent[i])
        if (!out[d]) out[d] = true, todo.push_back(d);
    }
    return true;
  }

  static bool holds_all(const Bits& set, const std::vector<std::uint32_t>& group) {
    return std::all_of(group.begin(), group.end(), [&](std::uint32_t i) { return set[i]; });
  }

  /// Whether an object holding `seen` and `count` pairs can still be completed.
  bool feasible(const Bits& seen, std::uint32_t count) const {
    Bits must;
    if (!forced(seen, must)) return false;
    for (const auto& group : k_.forbidden)
      if (holds_all(must, group)) return false;
    std::uint32_t need = 0, free = 0;
    for (std::uint32_t i = 0; i < must.size(); ++i) {
      if (must[i] && !seen[i]) ++need;
      if (!must[i] && k_.usable[i]) ++free;
    }
    if (k_.max_properties && count + need > *k_.max_properties) return false;
    return k_.others || count + need + free >= k_.min_properties;
  }

  bool closable(const Reading& r) const {
    Bits must;
    if (!forced(r.seen, must) || must != r.seen || r.count < k_.min_properties) return false;
    return std::none_of(k_.forbidden.begin(), k_.forbidden.end(),
                        [&](const auto& group) { return holds_all(r.seen, group); });
  }

  /// The keys the next pair may have; false when there is none.
  bool next_keys(Reading& r) const {
    r.allowed.assign(k_.names.size(), false);
    bool any = false;
    Bits with = r.seen;
    for (std::uint32_t i = 0; i < k_.names.size(); ++i) {
      if (r.seen[i] || !k_.usable[i]) continue;
      with[i] = true;
      r.allowed[i] = feasible(with, r.count + 1);
      with[i] = false;
      any = any || r.allowed[i];
    }
    r.others_allowed = k_.others && feasible(r.seen, r.count + 1);
    return any || r.others_allowed;
  }

  /// At a token's end inside a key: some allowed key begins with what was read.
  bool viable_key(const Reading& r) const {
    if (r.others_allowed) return true;  // any text extends to a key that is not named
    std::u32string_view text(r.key.text);
    if (r.key.surrogate()) text.remove_suffix(1);  // half a pair: compare what is whole
    const bool more = r.key.pending();
    for (std::uint32_t i = 0; i < k_.names.size(); ++i) {
      const std::u32string& name = k_.names[i];
      if (r.allowed[i] && name.size() >= text.size() + (more ? 1 : 0) &&
          std::u32string_view(name).substr(0, text.size()) == text)
        return true;
    }
    return false;
  }

  bool end_key(Reading& r) const {
    if (r.key.pending()) return false;
    const auto it = index_.find(r.key.text);
    if (it == index_.end()) {
      auto& others = r.others_seen;
      if (!r.others_allowed || std::find(others.begin(), others.end(), r.key.text) != others.end())
        return false;
      others.push_back(r.key.text);
    } else {
      if (!r.allowed[it->second]) return false;
      r.seen[it->second] = true;
    }
    ++r.count;
    r.in_key = r.expect_key = false;
    return true;
  }

  bool run(Reading& r, std::string_view bytes) const {
    for (char ch : bytes) {
      const auto b = static_cast<std::uint8_t>(ch);
      if (r.phase == 2) return true;  // the rest belongs to the parent
      if (r.phase == 0) {
        if (b != '{') return false;
        r.phase = r.depth = 1;
        r.expect_key = true;
        next_keys(r);
        continue;
      }
      if (r.in_key) {
        if (b == '"' && r.key.escape == 0 && utf8::need(r.key.utf8) == 0) {
          if (!end_key(r)) return false;
        } else if (!r.key.content(b)) {
          return false;
        }
        continue;
      }
      if (r.in_string) {
        if (r.string_escape) r.string_escape = false;
        else if (b == '\\') r.string_escape = true;
        else if (b == '"') r.in_string = false;
        continue;
      }
      switch (b) {
        case '"':
          if (r.depth == 1 && r.expect_key) {
            r.in_key = true;
            r.key = DecodedString{};
            r.key.phase = 1;
          } else {
            r.in_string = true;
          }
          break;
        case '{': case '[': ++r.depth; break;
        case '}': case ']':
          if (r.depth == 1) {
            if (!closable(r)) return false;
            r.phase = 2;
          }
          --r.depth;
          break;
        case ',':
          if (r.depth == 1) {
            if (!next_keys(r)) return false;
            r.expect_key = true;
          }
          break;
        default: break;
      }
    }
    return !r.in_key || viable_key(r);
  }

  ObjectKeys k_;
  std::unordered_map<std::u32string, std::uint32_t> index_;
};

}  // namespace

std::shared_ptr<const Check> object_keys_check(ObjectKeys keys) {
  return std::make_shared<const ObjectKeysCheck>(std::move(keys));
}

}  // namespace pse
