#include "nodes/number_values.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "nodes/unique_items.h"
#include "pse_core/limits.h"

namespace pse {

namespace {

/// The bytes a JSON number is written with.
constexpr std::string_view kNumberBytes = "0123456789.eE+-";

bool nonzero_digit(char c) { return c >= '1' && c <= '9'; }

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

NumberValues::NumberValues(const StateMachine& dfa)
    : byte_class_(dfa.byte_class),
      classes_(dfa.classes),
      transitions_(dfa.transitions),
      accepting_(dfa.accepting),
      start_(dfa.start),
      cache_(std::make_unique<Cache>()) {
  if (dfa.kind != Kind::kDfa) throw std::invalid_argument("NumberValues takes a DFA machine");
  const std::size_t n = accepting_.size();
  std::vector<std::vector<std::int32_t>> next(n), zero_into(n);
  endless_.assign(n, 0);
  nonzero_next_.assign(n, 0);
  for (std::size_t q = 0; q < n; ++q)
    for (char b : kNumberBytes)
      if (const std::int32_t s = step(static_cast<std::int32_t>(q), b); s >= 0) {
        next[q].push_back(s);
        if (b == '0') zero_into[s].push_back(static_cast<std::int32_t>(q));
        if (nonzero_digit(b)) nonzero_next_[q] = 1;
      }
  // A nonzero digit read after zeros: back along zero moves.
  std::vector<std::int32_t> work;
  for (std::size_t q = 0; q < n; ++q)
    if (nonzero_next_[q]) work.push_back(static_cast<std::int32_t>(q));
  while (!work.empty()) {
    const std::int32_t s = work.back();
    work.pop_back();
    for (std::int32_t q : zero_into[s])
      if (!nonzero_next_[q]) {
        nonzero_next_[q] = 1;
        work.push_back(q);
      }
  }
  // A nonzero digit on a cycle (both ends in one component), then every state
  // that reaches such a cycle.
  const std::vector<std::int32_t> component = components(next);
  std::vector<std::vector<std::int32_t>> into(n);
  for (std::size_t q = 0; q < n; ++q)
    for (char b : kNumberBytes)
      if (const std::int32_t s = step(static_cast<std::int32_t>(q), b); s >= 0) {
        into[s].push_back(static_cast<std::int32_t>(q));
        if (nonzero_digit(b) && component[s] == component[q] && !endless_[q]) {
          endless_[q] = 1;
          work.push_back(static_cast<std::int32_t>(q));
        }
      }
  while (!work.empty()) {
    const std::int32_t s = work.back();
    work.pop_back();
    for (std::int32_t q : into[s])
      if (!endless_[q]) {
        endless_[q] = 1;
        work.push_back(q);
      }
  }
}

std::int32_t NumberValues::step(std::int32_t state, char byte) const {
  return transitions_[static_cast<std::size_t>(state) * classes_ +
                      byte_class_[static_cast<std::uint8_t>(byte)]];
}

// Breadth first over the texts beyond `prefix`, two texts in one state merged
// when every continuation gives them equal values. Beyond a state that is not
// endless only zeros loop; zeros before the point or after an exponent digit
// make new values (found as the search goes on), zeros after the point merge
// unless a nonzero digit can follow them (then their count makes endless
// values), and leading exponent zeros merge.
NumberValues::Outcome NumberValues::search(
    std::int32_t q, std::string_view prefix,
    const std::function<bool(const std::string&)>& stop) const {
  struct Text {
    std::int32_t state;
    std::string text;
  };
  std::deque<Text> queue;
  std::unordered_map<std::string, std::size_t> visited;  // state and key: the zeros seen
  auto visit = [&](std::int32_t state, std::string text) {
    Key k = key_of(text);
    auto [at, fresh] = visited.emplace(std::to_string(state) + ':' + k.text, k.zeros);
    if (fresh) queue.push_back({state, std::move(text)});
    return fresh || !k.fraction || at->second == k.zeros || !nonzero_next_[state];
  };
  visit(q, std::string(prefix));
  for (std::size_t explored = 0; !queue.empty(); ++explored) {
    if (explored == limits::kMaxUniqueSearch) return Outcome::kEndless;
    const Text t = std::move(queue.front());
    queue.pop_front();
    if (accepting_[t.state]) {
      const std::optional<std::string> key = canonical_json(t.text);
      if (key && stop(*key)) return Outcome::kStopped;
    }
    for (char b : kNumberBytes)
      if (const std::int32_t s = step(t.state, b); s >= 0 && !visit(s, t.text + b))
        return Outcome::kEndless;
  }
  return Outcome::kExhausted;
}

bool NumberValues::reaches_unseen(std::string_view prefix,
                                  const std::function<bool(const std::string&)>& seen) const {
  std::int32_t q = start_;
  for (char c : prefix) {
    if (q < 0) return false;
    q = step(q, c);
  }
  if (q < 0) return false;
  if (endless_[q]) return true;
  if (accepting_[q]) {  // the beginning is a number already: often an unseen one
    const std::optional<std::string> key = canonical_json(prefix);
    if (key && !seen(*key)) return true;
  }
  const std::string id(prefix);
  {
    const std::lock_guard<std::mutex> lock(cache_->mutex);
    if (auto at = cache_->closed.find(id); at != cache_->closed.end())
      return std::any_of(at->second.begin(), at->second.end(),
                         [&](const std::string& key) { return !seen(key); });
  }
  std::vector<std::string> values;
  const Outcome outcome = search(q, prefix, [&](const std::string& key) {
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
