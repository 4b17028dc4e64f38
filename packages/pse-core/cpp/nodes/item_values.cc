#include "nodes/item_values.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "automata/range_dfa.h"
#include "nodes/string.h"
#include "nodes/unique_items.h"
#include "pse_core/limits.h"

namespace pse {

namespace {

/// The bytes a JSON number is written with.
constexpr std::string_view kNumberBytes = "0123456789.eE+-";

/// The strongly connected component of each state (Tarjan's algorithm, with
/// an explicit call stack).
std::vector<std::int32_t> components(const std::vector<std::vector<std::int32_t>>& next) {
  const std::size_t n = next.size();
  std::vector<std::int32_t> index(n, -1), low(n, 0), component(n, -1), stack;
  std::vector<std::uint8_t> on_stack(n, 0);
  std::vector<std::pair<std::int32_t, std::size_t>> calls;  // state, next edge to follow
  std::int32_t counter = 0, count = 0;
  auto enter = [&](std::int32_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = 1;
    calls.emplace_back(v, 0);
  };
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    enter(static_cast<std::int32_t>(root));
    while (!calls.empty()) {
      const std::int32_t v = calls.back().first;
      const std::size_t i = calls.back().second++;
      if (i < next[v].size()) {
        const std::int32_t w = next[v][i];
        if (index[w] < 0) enter(w);
        else if (on_stack[w]) low[v] = std::min(low[v], index[w]);
        continue;
      }
      if (low[v] == index[v]) {
        std::int32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          component[w] = count;
        } while (w != v);
        ++count;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
    }
  }
  return component;
}

/// What of a number's text decides the values beyond it in a given state:
/// before a point or exponent, the text itself; after a point, the text less
/// its trailing fraction zeros (`zeros` counts them); after an exponent, the
/// mantissa's value and the exponent's sign and digits less leading zeros.
struct Key {
  std::string text;
  std::size_t zeros = 0;
  bool fraction = false;
};

Key key_of(std::string_view t) {
  if (const std::size_t e = t.find_first_of("eE"); e != std::string_view::npos) {
    const std::string_view mantissa = t.substr(0, e);
    std::string_view exponent = t.substr(e + 1);
    char sign = '+';
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
      sign = exponent[0];
      exponent.remove_prefix(1);
    }
    Key k{"e" + canonical_json(mantissa).value_or(std::string(mantissa)) + sign};
    if (!exponent.empty()) {
      const std::size_t lead = exponent.find_first_not_of('0');
      k.text += lead == std::string_view::npos ? std::string_view("0") : exponent.substr(lead);
    }
    return k;
  }
  if (t.find('.') != std::string_view::npos) {
    std::size_t end = t.size();
    while (t[end - 1] == '0') --end;  // stops at the point
    return {"f" + std::string(t.substr(0, end)), t.size() - end, true};
  }
  return {"i" + std::string(t)};
}

}  // namespace

ItemValues::ItemValues(const StateMachine& machine) : cache_(std::make_unique<Cache>()) {
  if (machine.kind == Kind::kString) {
    min_length_ = machine.min_length;
    max_length_ = machine.max_length;
    return;
  }
  if (machine.kind != Kind::kDfa)
    throw std::invalid_argument("ItemValues takes a DFA or a string machine");
  byte_class_ = machine.byte_class;
  classes_ = machine.classes;
  transitions_ = machine.transitions;
  accepting_ = machine.accepting;
  start_ = machine.start;
  const std::size_t n = accepting_.size();
  endless_.assign(n, false);
  nonzero_next_.assign(n, false);
  if (start_ < 0) return;
  number_ = step(Position{start_}, '"').state < 0;
  std::vector<char> bytes;  // one byte per class
  for (std::uint32_t c = 0, b = 0; c < classes_ && b < 256; ++b)
    if (byte_class_[b] == c) {
      bytes.push_back(static_cast<char>(b));
      ++c;
    }
  auto move = [&](std::size_t q, char b) { return step(Position{static_cast<std::int32_t>(q)}, b).state; };
  std::vector<std::vector<std::int32_t>> next(n), into(n);
  for (std::size_t q = 0; q < n; ++q)
    for (char b : bytes)
      if (const std::int32_t s = move(q, b); s >= 0) {
        next[q].push_back(s);
        into[s].push_back(static_cast<std::int32_t>(q));
      }
  if (number_) {  // a nonzero digit read after zeros: back along zero moves
    std::vector<std::vector<std::int32_t>> zero_into(n);
    for (std::size_t q = 0; q < n; ++q) {
      if (const std::int32_t s = move(q, '0'); s >= 0) zero_into[s].push_back(static_cast<std::int32_t>(q));
      for (char b = '1'; b <= '9'; ++b)
        if (move(q, b) >= 0) nonzero_next_[q] = true;
    }
    nonzero_next_ = co_reachable(zero_into, std::move(nonzero_next_));
  }
  // A cycle that makes new values (both ends of a move in one component),
  // then every state that reaches one.
  const std::vector<std::int32_t> component = components(next);
  for (std::size_t q = 0; q < n; ++q) {
    bool cycle = false;
    if (number_) {
      for (char b = '1'; b <= '9' && !cycle; ++b)
        if (const std::int32_t s = move(q, b); s >= 0 && component[s] == component[q]) cycle = true;
    } else {
      for (std::int32_t s : next[q]) cycle = cycle || component[s] == component[q];
    }
    endless_[q] = cycle;
  }
  endless_ = co_reachable(into, std::move(endless_));
  if (!number_) count_raw_texts(next);
}

// Beyond a state that is not endless the moves form no cycle, so the counts
// follow from the successors' (depth first, each state once).
void ItemValues::count_raw_texts(const std::vector<std::vector<std::int32_t>>& next) {
  const std::size_t n = accepting_.size();
  std::array<std::uint32_t, 256> bytes_in{};  // bytes other than a backslash per class
  for (int b = 0; b < 256; ++b)
    if (b != '\\') ++bytes_in[byte_class_[b]];
  raw_texts_.assign(n, 0);
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::pair<std::int32_t, std::size_t>> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (done[root] || endless_[root]) continue;
    stack.emplace_back(static_cast<std::int32_t>(root), 0);
    while (!stack.empty()) {
      auto& [q, i] = stack.back();
      if (i < next[q].size()) {
        const std::int32_t s = next[q][i++];
        if (!done[s]) stack.emplace_back(s, 0);
        continue;
      }
      std::uint64_t count = accepting_[q] ? 1 : 0;
      for (std::uint32_t c = 0; c < classes_; ++c)
        if (const std::int32_t s = transitions_[static_cast<std::size_t>(q) * classes_ + c]; s >= 0)
          count += static_cast<std::uint64_t>(bytes_in[c]) * raw_texts_[s];
      raw_texts_[q] = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, kMany));
      done[q] = 1;
      stack.pop_back();
    }
  }
}

ItemValues::Position ItemValues::step(Position at, char byte) const {
  if (at.state < 0) return at;
  if (transitions_.empty()) {
    if (!json_string::step_within(min_length_, max_length_, at.state, at.local,
                                  static_cast<std::uint8_t>(byte)))
      at.state = -1;
    return at;
  }
  at.state = transitions_[static_cast<std::size_t>(at.state) * classes_ +
                          byte_class_[static_cast<std::uint8_t>(byte)]];
  return at;
}

bool ItemValues::accepting(Position at) const {
  return transitions_.empty() ? at.state == json_string::kClosed : accepting_[at.state] != 0;
}

bool ItemValues::endless(Position at) const {
  if (!transitions_.empty()) return endless_[at.state];
  // Room for one more character: a million values.
  return at.state == json_string::kContent && json_string::count(at.local) < max_length_;
}

// Breadth first over the texts beyond `prefix`. Beyond a position that is not
// endless, a string's texts are finitely many; a number's loop only through
// zeros, and two texts in one state merge when every continuation gives them
// equal values: zeros before the point or after an exponent digit make new
// values (found as the search goes on), zeros after the point merge unless a
// nonzero digit can follow them (then their count makes endless values), and
// leading exponent zeros merge.
ItemValues::Outcome ItemValues::search(Position at, std::string_view prefix,
                                       const std::function<bool(const std::string&)>& stop) const {
  struct Text {
    Position at;
    std::string text;
  };
  std::deque<Text> queue;
  std::unordered_map<std::string, std::size_t> visited;  // number state and key: the zeros seen
  auto visit = [&](Position p, std::string text) {
    if (!number_) {
      queue.push_back({p, std::move(text)});
      return true;
    }
    Key k = key_of(text);
    auto [it, fresh] = visited.emplace(std::to_string(p.state) + ':' + k.text, k.zeros);
    if (fresh) queue.push_back({p, std::move(text)});
    return fresh || !k.fraction || it->second == k.zeros || !nonzero_next_[p.state];
  };
  visit(at, std::string(prefix));
  for (std::size_t explored = 0; !queue.empty(); ++explored) {
    if (explored == limits::kMaxUniqueSearch) return Outcome::kEndless;
    const Text t = std::move(queue.front());
    queue.pop_front();
    if (endless(t.at)) return Outcome::kEndless;
    if (accepting(t.at)) {
      const std::optional<std::string> key = canonical_json(t.text);
      if (key && stop(*key)) return Outcome::kStopped;
    }
    for (int b = 0; b < 256; ++b) {
      const char c = static_cast<char>(b);
      if (number_ && kNumberBytes.find(c) == std::string_view::npos) continue;
      if (const Position p = step(t.at, c); p.state >= 0 && !visit(p, t.text + c))
        return Outcome::kEndless;
    }
  }
  return Outcome::kExhausted;
}

bool ItemValues::reaches_unseen(std::string_view prefix,
                                const std::function<bool(const std::string&)>& seen,
                                std::size_t seen_count) const {
  Position at{transitions_.empty() ? json_string::kOpen : start_};
  for (char c : prefix) at = step(at, c);
  if (at.state < 0) return false;
  if (endless(at)) return true;
  if (!raw_texts_.empty() && raw_texts_[at.state] > seen_count) return true;
  if (accepting(at)) {  // the beginning is a whole value already: often an unseen one
    const std::optional<std::string> key = canonical_json(prefix);
    if (key && !seen(*key)) return true;
  }
  const std::string id(prefix);
  {
    const std::lock_guard<std::mutex> lock(cache_->mutex);
    if (auto it = cache_->closed.find(id); it != cache_->closed.end())
      return std::any_of(it->second.begin(), it->second.end(),
                         [&](const std::string& key) { return !seen(key); });
  }
  std::vector<std::string> values;
  const Outcome outcome = search(at, prefix, [&](const std::string& key) {
    if (!seen(key)) return true;
    if (values.size() <= kMaxListed &&
        std::find(values.begin(), values.end(), key) == values.end())
      values.push_back(key);
    return false;
  });
  if (outcome != Outcome::kExhausted) return true;
  if (values.size() <= kMaxListed) {  // every value beyond, all seen: kept for the next ask
    const std::lock_guard<std::mutex> lock(cache_->mutex);
    if (cache_->closed.size() >= kMaxCached) cache_->closed.clear();
    cache_->closed.emplace(id, std::move(values));
  }
  return false;
}

}  // namespace pse
