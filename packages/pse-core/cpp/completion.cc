#include "pse_core/completion.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "grammar/grammar_frames.h"
#include "nodes/leaf.h"
#include "pse_core/limits.h"
#include "runtime.h"

namespace pse {

namespace {

constexpr std::size_t kInf = std::numeric_limits<std::size_t>::max() / 4;

bool allows(const ByteSet* alphabet, std::uint8_t b) {
  return !alphabet || ((*alphabet)[b >> 6] >> (b & 63)) & 1;
}

/// Shortest bytes that take a leaf from (state, local) to acceptance; with
/// `need_byte`, at least one byte (a fresh leaf must consume something); with
/// `alphabet`, only its bytes.
std::optional<std::string> leaf_completion(Kind kind, const StateMachine& n, std::int32_t state,
                                           std::uint64_t local, bool need_byte,
                                           const ByteSet* alphabet) {
  struct Node {
    std::int32_t state;
    std::uint64_t local;
    std::string bytes;
  };
  if (!need_byte && leaf::accepting(kind, n, state, local)) return std::string();
  std::deque<Node> queue{{state, local, {}}};
  std::unordered_set<std::uint64_t> seen;
  auto key = [](std::int32_t s, std::uint64_t l) {
    return (l * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint32_t>(s);
  };
  seen.insert(key(state, local));
  while (!queue.empty() && seen.size() < 200000) {
    Node cur = std::move(queue.front());
    queue.pop_front();
    for (int b = 0; b < 256; ++b) {
      if (!allows(alphabet, static_cast<std::uint8_t>(b))) continue;
      std::int32_t s = cur.state;
      std::uint64_t l = cur.local;
      if (!leaf::step(kind, n, s, l, static_cast<std::uint8_t>(b))) continue;
      std::string bytes = cur.bytes + static_cast<char>(b);
      if (leaf::accepting(kind, n, s, l)) return bytes;
      if (seen.insert(key(s, l)).second) queue.push_back(Node{s, l, std::move(bytes)});
    }
  }
  return std::nullopt;
}

/// Whether a leaf accepts some non-empty byte string from `state` (any one, not the
/// shortest): depth-first, lowest byte first, states marked when expanded, so a leaf
/// whose `local` counts (string lengths, UTF-8 and \uXXXX partials) finds one along a
/// single path of ASCII bytes instead of visiting every shorter state. Past the
/// search limit the answer is "maybe" (true).
bool leaf_matches_something(Kind kind, const StateMachine& n, std::int32_t state) {
  constexpr std::size_t kLimit = 200000;
  auto key = [](std::int32_t s, std::uint64_t l) {
    return (l * 0x9E3779B97F4A7C15ull) ^ static_cast<std::uint32_t>(s);
  };
  std::vector<std::pair<std::int32_t, std::uint64_t>> stack{{state, 0}};
  std::unordered_set<std::uint64_t> expanded;
  while (!stack.empty()) {
    auto [from, from_local] = stack.back();
    stack.pop_back();
    if (!expanded.insert(key(from, from_local)).second) continue;
    if (expanded.size() >= kLimit || stack.size() >= 256 * kLimit) return true;
    for (int b = 255; b >= 0; --b) {  // pushed last, popped first: the lowest byte
      std::int32_t s = from;
      std::uint64_t l = from_local;
      if (!leaf::step(kind, n, s, l, static_cast<std::uint8_t>(b))) continue;
      if (leaf::accepting(kind, n, s, l)) return true;
      if (!expanded.count(key(s, l))) stack.emplace_back(s, l);
    }
  }
  return false;
}

/// Minimum lengths of every node, by fixpoint over the grammar (recursion-safe),
/// over every byte or over an alphabet (each public call names which).
class MinLengths {
 public:
  std::optional<std::string> shortest(const StateMachine* node, const ByteSet* alphabet) {
    std::lock_guard<std::mutex> lock(mutex_);
    use(alphabet);
    node = node->resolve();
    solve(node);
    if (len(node) >= kInf) return std::nullopt;
    std::string out;
    build(node, out);
    return out;
  }

  /// Shortest path (bytes) in graph `g` from state `s` to an end state.
  std::optional<std::string> graph_rest(const StateMachine* g, std::int32_t s,
                                        const ByteSet* alphabet) {
    std::lock_guard<std::mutex> lock(mutex_);
    use(alphabet);
    solve(g);
    std::size_t n = g->states.size();
    std::vector<std::size_t> dist(n, kInf);
    std::vector<std::pair<std::int32_t, const StateMachine*>> prev(n, {-1, nullptr});
    using Item = std::pair<std::size_t, std::int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    dist[s] = 0;
    pq.push({0, s});
    std::int32_t goal = -1;
    while (!pq.empty()) {
      auto [d, u] = pq.top();
      pq.pop();
      if (d != dist[u]) continue;
      if (g->states[u].is_end) {
        goal = u;
        break;
      }
      for (const Edge& e : g->states[u].edges) {
        const StateMachine* c = e.machine->resolve();
        std::size_t w = c->nullable() ? 0 : len(c);
        if (w >= kInf || d + w >= dist[e.target]) continue;
        dist[e.target] = d + w;
        prev[e.target] = {u, c->nullable() ? nullptr : c};
        pq.push({d + w, e.target});
      }
    }
    if (goal < 0) return std::nullopt;
    std::vector<const StateMachine*> path;
    for (std::int32_t v = goal; v != s; v = prev[v].first)
      if (prev[v].second) path.push_back(prev[v].second);
    std::string out;
    for (auto it = path.rbegin(); it != path.rend(); ++it) build(*it, out);
    return out;
  }


 private:
  /// Results over an alphabet, kept here rather than on the nodes: a node
  /// freed and another allocated at its address is told apart by `node`.
  struct Spelled {
    std::weak_ptr<const StateMachine> node;
    std::size_t len = SIZE_MAX;
    std::string leaf;
  };

  void use(const ByteSet* alphabet) {
    alpha_ = alphabet;
    if (spelled_.size() >= 2 * swept_size_ + 256) {  // forget freed nodes: O(1) per entry
      std::erase_if(spelled_, [](const auto& e) { return e.second.node.expired(); });
      swept_size_ = spelled_.size();
    }
    if (!alphabet || *alphabet == spell_alphabet_) return;
    spell_alphabet_ = *alphabet;  // one alphabet at a time (one vocabulary, as a rule)
    spelled_.clear();
  }

  /// The alphabet's entry for `n`, if it is about that node (null otherwise).
  Spelled* spelled(const StateMachine* n) {
    auto it = spelled_.find(n);
    if (it == spelled_.end()) return nullptr;
    if (it->second.node.expired()) {
      spelled_.erase(it);
      return nullptr;
    }
    return &it->second;
  }

  // Solved nodes keep their results (min_len_cache / min_leaf_cache over every
  // byte, `spelled_` over the alphabet); a solve in progress keeps its
  // estimates in `temp_`.
  bool solved(const StateMachine* n) {
    if (!alpha_) return n->min_len_cache != SIZE_MAX;
    Spelled* e = spelled(n);
    return e && e->len != SIZE_MAX;
  }
  void store(const StateMachine* n, std::size_t v) {
    if (!alpha_) {
      n->min_len_cache = v;
      return;
    }
    Spelled& e = spelled_[n];
    e.node = n->weak_from_this();
    e.len = v;
  }
  std::string& leaf_bytes(const StateMachine* n) {
    if (!alpha_) return n->min_leaf_cache;
    Spelled& e = spelled_[n];
    if (e.node.expired()) e = Spelled{n->weak_from_this(), SIZE_MAX, {}};
    return e.leaf;
  }

  std::size_t len(const StateMachine* n) {
    if (solved(n)) return alpha_ ? spelled(n)->len : n->min_len_cache;
    auto it = temp_.find(n);
    return it == temp_.end() ? kInf : it->second;
  }

  /// Unsolved nodes below `node` into `all`. Over an alphabet the walk goes
  /// through solved nodes too: another alphabet may have taken a child's slot.
  void collect(const StateMachine* node, std::vector<const StateMachine*>& all,
               std::unordered_set<const StateMachine*>& seen) {
    node = node->resolve();
    if (temp_.count(node) || (solved(node) && (!alpha_ || !seen.insert(node).second))) return;
    if (!solved(node)) {
      temp_[node] = kInf;
      all.push_back(node);
    }
    for (const auto& st : node->states)
      for (const Edge& e : st.edges) collect(e.machine.get(), all, seen);
    if (node->child) collect(node->child.get(), all, seen);
    if (node->separator) collect(node->separator.get(), all, seen);
  }

  std::size_t weight(const StateMachine* c) {
    c = c->resolve();
    return c->nullable() ? 0 : len(c);
  }

  std::size_t evaluate(const StateMachine* n) {
    if (n->external) return kInf;
    switch (n->kind) {
      case Kind::kGraph: {  // Bellman-Ford over the (small) graph
        std::vector<std::size_t> d(n->states.size(), kInf);
        d[n->start] = 0;
        for (std::size_t round = 0; round < n->states.size(); ++round)
          for (std::size_t u = 0; u < n->states.size(); ++u)
            if (d[u] < kInf)
              for (const Edge& e : n->states[u].edges)
                d[e.target] = std::min(d[e.target], d[u] + weight(e.machine.get()));
        std::size_t best = kInf;
        for (std::size_t u = 0; u < n->states.size(); ++u)
          if (n->states[u].is_end) best = std::min(best, d[u]);
        return best == 0 ? kInf : best;  // entered machines consume something
      }
      case Kind::kLoop: {
        std::size_t e = len(n->child->resolve()), s = n->separator ? weight(n->separator.get()) : 0;
        if (e >= kInf || s >= kInf) return kInf;
        std::size_t count = std::max<std::size_t>(n->min_count, 1);
        return count * e + (count - 1) * s;
      }
      case Kind::kWaitFor: {
        std::size_t c = len(n->child->resolve());
        if (n->buffer_length > 0 && !allows(alpha_, ' ')) return kInf;
        return c >= kInf ? kInf : c + static_cast<std::size_t>(std::max(n->buffer_length, 0));
      }
      case Kind::kGrammar: {
        if (temp_[n] < kInf) return temp_[n];  // depends on nothing: solved once
        auto s = grammar_shortest(*n, alpha_);
        if (s) leaf_bytes(n) = *s;
        return s ? s->size() : kInf;
      }
      default: {
        if (temp_[n] < kInf) return temp_[n];  // leaves depend on nothing: solved once
        auto s = leaf_completion(n->kind, *n, n->kind == Kind::kDfa ? n->start : 0, 0, true,
                                 alpha_);
        if (s) leaf_bytes(n) = *s;
        return s ? s->size() : kInf;
      }
    }
  }

  void solve(const StateMachine* root) {
    std::vector<const StateMachine*> all;
    std::unordered_set<const StateMachine*> seen;
    collect(root, all, seen);
    for (bool changed = true; changed;) {
      changed = false;
      for (const StateMachine* n : all) {
        std::size_t v = evaluate(n);
        if (v > limits::kMaxCompletionBytes) v = kInf;  // not spelled out: no known completion
        if (v < temp_[n]) {
          temp_[n] = v;
          changed = true;
        }
      }
    }
    for (const StateMachine* n : all) store(n, temp_[n]);  // kInf: matches nothing
    temp_.clear();
  }

  void build(const StateMachine* n, std::string& out) {
    n = n->resolve();
    std::size_t target = len(n);
    switch (n->kind) {
      case Kind::kGraph: {
        // Dijkstra with the final lengths; ties resolved towards fewer edges.
        std::size_t size = n->states.size();
        std::vector<std::size_t> d(size, kInf);
        std::vector<std::pair<std::int32_t, const StateMachine*>> prev(size, {-1, nullptr});
        d[n->start] = 0;
        for (std::size_t round = 0; round < size; ++round)
          for (std::size_t u = 0; u < size; ++u)
            if (d[u] < kInf)
              for (const Edge& e : n->states[u].edges) {
                const StateMachine* c = e.machine->resolve();
                std::size_t w = weight(c);
                if (d[u] + w < d[e.target]) {
                  d[e.target] = d[u] + w;
                  prev[e.target] = {static_cast<std::int32_t>(u), c->nullable() ? nullptr : c};
                }
              }
        std::int32_t goal = -1;
        for (std::size_t u = 0; u < size; ++u)
          if (n->states[u].is_end && d[u] == target) goal = static_cast<std::int32_t>(u);
        std::vector<const StateMachine*> path;
        for (std::int32_t v = goal; v >= 0 && v != n->start; v = prev[v].first)
          if (prev[v].second) path.push_back(prev[v].second);
        for (auto it = path.rbegin(); it != path.rend(); ++it) build(*it, out);
        return;
      }
      case Kind::kLoop: {
        std::size_t count = std::max<std::size_t>(n->min_count, 1);
        for (std::size_t i = 0; i < count; ++i) {
          if (i && n->separator && !n->separator->resolve()->nullable()) build(n->separator.get(), out);
          build(n->child.get(), out);
        }
        return;
      }
      case Kind::kWaitFor:
        out.append(static_cast<std::size_t>(std::max(n->buffer_length, 0)), ' ');
        build(n->child.get(), out);
        return;
      default:
        out += leaf_bytes(n);
        return;
    }
  }

  std::mutex mutex_;
  const ByteSet* alpha_ = nullptr;  // the current call's alphabet (null: every byte)
  ByteSet spell_alphabet_{};        // the alphabet `spelled_` is about
  std::unordered_map<const StateMachine*, Spelled> spelled_;
  std::size_t swept_size_ = 0;  // spelled_ after its last sweep of freed nodes
  std::unordered_map<const StateMachine*, std::size_t> temp_;
};

MinLengths& lengths() {
  static MinLengths* solver = new MinLengths();
  return *solver;
}

/// Bytes that finish frame `f` itself (its parent not included).
std::optional<std::string> finish_frame(const Frame* f, const ByteSet* alphabet) {
  const StateMachine& n = *f->node;
  switch (f->kind) {
    case Kind::kGraph: {
      if (f->consumed() && n.states[f->state].is_end) return std::string();
      return lengths().graph_rest(&n, f->state, alphabet);
    }
    case Kind::kLoop: {
      // State 0: an element must come (no separator before it); state 1: an
      // element ended, and each further one comes after a separator.
      bool must = f->state == 0;
      std::size_t have = f->local + (must ? 1 : 0);
      std::size_t needed = (must ? 1 : 0) + (have < n.min_count ? n.min_count - have : 0);
      if (needed == 0) return std::string();
      auto e = lengths().shortest(n.child->resolve(), alphabet);
      if (!e) return std::nullopt;
      std::string sep;
      if ((needed > 1 || !must) && n.separator && !n.separator->resolve()->nullable()) {
        auto s = lengths().shortest(n.separator.get(), alphabet);
        if (!s) return std::nullopt;
        sep = std::move(*s);
      }
      std::string out;
      for (std::size_t i = 0; i < needed; ++i) out += (i > 0 || !must ? sep : std::string()) + *e;
      return out;
    }
    case Kind::kWaitFor: {
      if (f->state >= 2) return std::string();
      std::string out;
      if (f->state == 0 && n.buffer_length > 0) {
        if (!allows(alphabet, ' ')) return std::nullopt;
        out.append(static_cast<std::size_t>(n.buffer_length), ' ');
      }
      auto c = lengths().shortest(n.child.get(), alphabet);
      if (!c) return std::nullopt;
      return out + *c;
    }
    case Kind::kExternal:
      return std::nullopt;
    default:
      return leaf_completion(f->kind, n, f->state, f->local, !f->consumed(), alphabet);
  }
}

/// The parent of `f` after `f` completes (a copy; nothing is allocated).
Frame advance_parent(const Frame* f) {
  Frame p = *f->parent;
  p.flags |= kConsumed;
  if (p.kind == Kind::kLoop) {
    if (f->target == 1) {
      p.state = 1;
      p.local += 1;
    } else {
      p.state = 0;
    }
  } else {
    p.state = f->target;
  }
  return p;
}

}  // namespace

ByteSet single_byte_tokens(const TrieMap& trie) {
  ByteSet bytes{};
  const auto& nodes = trie.nodes();
  if (nodes.empty()) return bytes;
  for (std::uint32_t c = 1; c < nodes[0].end; c = nodes[c].end)
    if (nodes[c].ids_end > nodes[c].ids_begin) bytes[nodes[c].byte >> 6] |= 1ull << (nodes[c].byte & 63);
  return bytes;
}

bool accepts_nothing(const StateMachine* root) {
  // Least fixpoint of "may match some string", starting from "matches
  // nothing": what is unknown here (Python-defined nodes, grammars, a leaf
  // search cut short) may match, so only a provably empty language is reported.
  std::vector<const StateMachine*> all;
  std::unordered_set<const StateMachine*> seen, may;
  std::vector<const StateMachine*> stack{root->resolve()};
  while (!stack.empty()) {
    const StateMachine* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    all.push_back(n);
    if (n->external) continue;
    for (const auto& st : n->states)
      for (const Edge& e : st.edges) stack.push_back(e.machine->resolve());
    if (n->child) stack.push_back(n->child->resolve());
    if (n->separator) stack.push_back(n->separator->resolve());
  }
  auto passable = [&](const StateMachine* c) {
    c = c->resolve();
    return may.count(c) || c->nullable();
  };
  auto evaluate = [&](const StateMachine* n) {
    if (n->external || n->is_optional || n->nullable()) return true;
    switch (n->kind) {
      case Kind::kGraph: {
        if (n->start < 0 || static_cast<std::size_t>(n->start) >= n->states.size()) return false;
        std::vector<std::int32_t> reached{n->start};
        std::vector<bool> in(n->states.size(), false);
        in[n->start] = true;
        for (std::size_t i = 0; i < reached.size(); ++i) {
          const GraphState& st = n->states[reached[i]];
          if (st.is_end) return true;
          for (const Edge& e : st.edges)
            if (!in[e.target] && passable(e.machine.get())) {
              in[e.target] = true;
              reached.push_back(e.target);
            }
        }
        return false;
      }
      case Kind::kLoop:
        return passable(n->child.get()) &&
               (n->min_count < 2 || !n->separator || passable(n->separator.get()));
      case Kind::kWaitFor:
        return passable(n->child.get());
      case Kind::kPhrase:  // never empty (its constructors refuse "")
        return true;
      case Kind::kDfa:  // set_dfa keeps only states that reach an accepting one
        return n->start >= 0;
      default: {
        if (!leaf::is_leaf(n->kind)) return true;  // grammars and anything new: unknown
        const std::int32_t start = 0;
        if (leaf::accepting(n->kind, *n, start, 0)) return true;  // the empty string
        return leaf_matches_something(n->kind, *n, start);
      }
    }
  };
  // Leaves first (their searches run once), then the rest until nothing
  // changes, children before parents (`all` lists parents first, so in
  // reverse): a grammar without recursion settles in one pass and one check.
  for (const StateMachine* n : all)
    if (leaf::is_leaf(n->kind) && evaluate(n)) may.insert(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = all.rbegin(); it != all.rend(); ++it)
      if (!leaf::is_leaf((*it)->kind) && !may.count(*it) && evaluate(*it)) {
        may.insert(*it);
        changed = true;
      }
  }
  return !may.count(root->resolve());
}

std::optional<std::string> shortest_match(const StateMachine* node) {
  return lengths().shortest(node, nullptr);
}

std::optional<std::string> shortest_completion(const Frame* top, std::uint32_t root_depth,
                                               const ByteSet* alphabet) {
  if (top->done()) return std::string();
  std::string out;
  Frame cur = *top;
  for (;;) {
    const bool grammar = cur.kind == Kind::kLexer || cur.kind == Kind::kGrammar;
    auto part = grammar ? grammar_completion(cur, alphabet) : finish_frame(&cur, alphabet);
    if (!part) return std::nullopt;
    out += *part;
    if (grammar) cur = grammar_frame(cur);  // the lexeme's grammar is finished too
    if (cur.depth <= root_depth || !cur.parent) return out;
    cur = advance_parent(&cur);
  }
}

std::vector<std::int32_t> fewest_tokens(const TrieMap& trie, const std::string& bytes) {
  const auto& nodes = trie.nodes();
  const std::size_t n = bytes.size();
  std::vector<std::size_t> best(n + 1, kInf);
  std::vector<std::pair<std::size_t, std::int32_t>> from(n + 1, {0, -1});
  best[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (best[i] >= kInf) continue;
    std::uint32_t at = 0;
    for (std::size_t j = i; j < n; ++j) {
      std::uint8_t want = static_cast<std::uint8_t>(bytes[j]);
      std::uint32_t c = at + 1;
      while (c < nodes[at].end && nodes[c].byte != want) c = nodes[c].end;
      if (c >= nodes[at].end) break;
      at = c;
      if (nodes[at].ids_end > nodes[at].ids_begin && best[i] + 1 < best[j + 1]) {
        best[j + 1] = best[i] + 1;
        from[j + 1] = {i, trie.ids(nodes[at])[0]};
      }
    }
  }
  if (best[n] >= kInf) return {};
  std::vector<std::int32_t> out;
  for (std::size_t k = n; k > 0; k = from[k].first) out.push_back(from[k].second);
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace pse
