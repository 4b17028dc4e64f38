// Shortest completions of a grammar: an A* search over what a text can reach,
// (parse state, lexer configuration, hook value), one byte per move, with the
// same steps validate() and the masks take (lexer hooks, maximal munch,
// finished lexemes fed to the parser), so an answer is always a valid
// continuation. The estimate is a lower bound computed on the Earley sets:
// the fewest bytes the parse needs to end when every terminal costs its
// shortest text, plus what the hooks make certain (python: a byte per newline
// but the last, which the end of the input gives, a blank per INDENT, a blank
// between a keyword and a name or keyword after it; bash: a heredoc's newline,
// body and delimiter line). It counts no other blank the lexer adds (such as
// indentation), so it never overestimates and the first end reached is a
// shortest one.
#include <algorithm>
#include <array>
#include <queue>
#include <unordered_map>

#include "grammar/grammar.h"
#include "pse_core/errors.h"

namespace pse::grammar {

namespace {

constexpr std::uint32_t kFar = 1u << 30;
/// Search nodes one search may make before it gives up.
constexpr std::size_t kMaxNodes = 20000;
/// When the exact search gives up: greedier ones (the estimate weighted by
/// these), whose answers are valid but may be longer than the shortest
/// (conservative for a budget); the last is nearly best-first on the estimate.
constexpr std::array<std::uint32_t, 2> kGreedy = {4, 64};

std::uint32_t plus(std::uint32_t a, std::uint32_t b) { return std::min(kFar, a + b); }

/// The bytes tried, in order: printable ASCII and the newline first (what a
/// tokenizer spells and a reader expects); the rest only if those find nothing.
std::vector<std::uint8_t> byte_order(bool rest) {
  std::vector<std::uint8_t> out;
  if (!rest) {
    for (int b = 'a'; b <= 'z'; ++b) out.push_back(static_cast<std::uint8_t>(b));
    out.push_back(' ');
    out.push_back('\n');
    for (int b = 0x21; b < 0x7F; ++b)
      if (b < 'a' || b > 'z') out.push_back(static_cast<std::uint8_t>(b));
    return out;
  }
  for (int b = 0; b < 256; ++b)
    if (b != '\n' && (b < 0x20 || b >= 0x7F)) out.push_back(static_cast<std::uint8_t>(b));
  return out;
}

}  // namespace

void Grammar::make_bounds() const {
  // Per terminal and state: the fewest bytes to an accepting state.
  term_dist_.resize(terminals_.size());
  for (std::size_t t = 0; t < terminals_.size(); ++t) {
    const Terminal& term = terminals_[t];
    if (term.accepting.empty()) continue;  // declared: made by the hooks
    const std::size_t n = term.accepting.size();
    std::vector<std::uint16_t> dist(n, 0xFFFF);
    for (std::size_t s = 0; s < n; ++s)
      if (term.accepting[s]) dist[s] = 0;
    for (std::uint16_t d = 0, changed = 1; changed && d < 0xFFFE; ++d) {
      changed = 0;
      for (std::size_t s = 0; s < n; ++s) {
        if (dist[s] != 0xFFFF) continue;
        for (int b = 0; b < 256; ++b) {
          const std::int32_t to = term.table[s * 256 + b];
          if (to >= 0 && dist[to] == d) {
            dist[s] = static_cast<std::uint16_t>(d + 1);
            changed = 1;
            break;
          }
        }
      }
    }
    term_dist_[t] = std::move(dist);
  }
  const bool python = hook_ == Hook::kPython;
  auto term_len = [&](std::int32_t t) -> std::uint32_t {
    // python: a NEWLINE is a newline byte (the estimate takes back the one the
    // end of the input gives), an INDENT at least one blank after it.
    if (python && (t == newline_ || t == indent_)) return 1;
    const auto& d = term_dist_[t];
    return d.empty() ? 0 : d[0] == 0xFFFF ? kFar : d[0];
  };
  // python: a keyword followed in a rule by a symbol whose every text starts
  // with a byte a NAME could go on with after the keyword (`def f`) needs a
  // byte between them (NAME shadows the keyword: `deff` is one name).
  using Bytes = std::array<std::uint64_t, 4>;
  auto has = [](const Bytes& set, int b) { return (set[b >> 6] >> (b & 63) & 1) != 0; };
  std::vector<Bytes> first_nt(rules_of_.size());
  std::vector<std::uint8_t> unsure(rules_of_.size(), 0);  // may start with no byte of its own
  std::vector<Bytes> cont(terminals_.size());
  auto first_of = [&](std::int32_t sym, Bytes& out) -> bool {  // false: not sure
    if (sym < 0) {
      for (int w = 0; w < 4; ++w) out[w] |= first_nt[~sym][w];
      return !unsure[~sym] && !nullable_[~sym];
    }
    if (term_dist_[sym].empty()) return false;  // made by a hook
    for (int b = 0; b < 256; ++b)
      if (terminals_[sym].table[b] >= 0) out[b >> 6] |= 1ull << (b & 63);
    return true;
  };
  if (python && name_ >= 0) {
    for (bool changed = true; changed;) {
      changed = false;
      for (const Rule& r : rules_) {
        Bytes set = first_nt[r.lhs];
        bool sure = !r.rhs.empty() && first_of(r.rhs[0], set);
        if ((!sure && !unsure[r.lhs]) || set != first_nt[r.lhs]) {
          unsure[r.lhs] = unsure[r.lhs] || !sure;
          first_nt[r.lhs] = set;
          changed = true;
        }
      }
    }
    const Terminal& name = terminals_[name_];
    for (std::size_t t = 0; t < terminals_.size(); ++t) {
      if (!bounded_[t]) continue;
      std::int32_t k = 0, n = 0;  // the keyword's text through its automaton and NAME's
      while (n >= 0 && !terminals_[t].accepting[k]) {
        int b = 0;
        while (b < 256 && terminals_[t].table[k * 256 + b] < 0) ++b;
        if (b == 256) break;
        k = terminals_[t].table[k * 256 + b];
        n = name.table[n * 256 + b];
      }
      if (n < 0) continue;
      for (int b = 0; b < 256; ++b)
        if (name.table[n * 256 + b] >= 0) cont[t][b >> 6] |= 1ull << (b & 63);
    }
  }
  auto gap = [&](const Rule& r, std::size_t i) -> std::uint32_t {  // between rhs[i] and rhs[i + 1]
    if (i + 1 >= r.rhs.size() || r.rhs[i] < 0 || name_ < 0 || !python || !bounded_[r.rhs[i]]) return 0;
    Bytes next{};
    if (!first_of(r.rhs[i + 1], next)) return 0;
    for (int b = 0; b < 256; ++b)
      if (has(next, b) && !has(cont[r.rhs[i]], b)) return 0;
    return 1;
  };
  // Per nonterminal, the fewest bytes it derives; then per rule and dot.
  std::vector<std::uint32_t> sym(rules_of_.size(), kFar);
  std::vector<std::vector<std::uint32_t>> gaps(rules_.size());
  for (std::size_t k = 0; k < rules_.size(); ++k)
    for (std::size_t i = 0; i < rules_[k].rhs.size(); ++i) gaps[k].push_back(gap(rules_[k], i));
  auto seq = [&](std::size_t k, std::size_t from) {
    const Rule& r = rules_[k];
    std::uint32_t sum = 0;
    for (std::size_t i = from; i < r.rhs.size(); ++i)
      sum = plus(sum, plus(gaps[k][i], r.rhs[i] >= 0 ? term_len(r.rhs[i]) : sym[~r.rhs[i]]));
    return sum;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = 0; k < rules_.size(); ++k) {
      const Rule& r = rules_[k];
      const std::uint32_t v = seq(k, 0);
      if (v < sym[r.lhs]) {
        sym[r.lhs] = v;
        changed = true;
      }
    }
  }
  rest_len_.resize(rules_.size());
  for (std::size_t k = 0; k < rules_.size(); ++k) {
    const Rule& r = rules_[k];
    rest_len_[k].assign(r.rhs.size() + 1, 0);
    for (std::size_t i = r.rhs.size(); i-- > 0;)
      rest_len_[k][i] = plus(plus(rest_len_[k][i + 1], gaps[k][i]),
                             r.rhs[i] >= 0 ? term_len(r.rhs[i]) : sym[~r.rhs[i]]);
  }
}

std::uint32_t Grammar::set_bound(const EarleySet& set) const {
  if (set.bounded.load(std::memory_order_acquire)) return set.bound;
  std::call_once(bounds_once_, [this] { make_bounds(); });
  // Items wait on sets before this one: settle the unsettled ancestors first, oldest first.
  std::vector<const EarleySet*> chain;
  for (const EarleySet* s = &set; s && !s->bounded.load(std::memory_order_acquire); s = s->prev.get())
    chain.push_back(s);
  for (auto at = chain.rbegin(); at != chain.rend(); ++at) {
    const EarleySet& s = **at;
    // done[nt]: fewest bytes that end the parse once `nt` completes here.
    // Items predicted here chain these values within the set: Dijkstra over
    // the edges lhs -> nt they make, from what earlier sets already know.
    const std::vector<std::pair<std::int32_t, std::uint32_t>> waiting = s.all_waiting();
    std::vector<std::pair<std::int32_t, std::uint32_t>> done;
    for (auto [nt, i] : waiting)
      if (done.empty() || done.back().first != nt) done.emplace_back(nt, kFar);
    auto slot = [&](std::int32_t nt) -> std::size_t {
      auto it = std::lower_bound(done.begin(), done.end(), std::pair<std::int32_t, std::uint32_t>{nt, 0});
      return it != done.end() && it->first == nt ? static_cast<std::size_t>(it - done.begin()) : done.size();
    };
    auto earlier = [&](const EarleySet* o, std::int32_t nt) -> std::uint32_t {
      if (!o->bounded.load(std::memory_order_acquire)) return 0;  // unknown: 0 stays a lower bound
      auto it = std::lower_bound(o->done.begin(), o->done.end(), std::pair<std::int32_t, std::uint32_t>{nt, 0});
      return it != o->done.end() && it->first == nt ? it->second : kFar;
    };
    std::vector<std::vector<std::pair<std::size_t, std::uint32_t>>> edges(done.size());
    for (auto [nt, i] : waiting) {
      const Item w = s.item(i);
      const std::uint32_t rest = rest_len_[w.rule][w.dot + 1];
      const std::size_t k = slot(nt);
      if (w.rule == 0) {
        done[k].second = std::min(done[k].second, rest);
      } else if (w.origin == &s) {
        const std::size_t from = slot(rules_[w.rule].lhs);
        if (from < done.size()) edges[from].emplace_back(k, rest);
      } else {
        done[k].second = std::min(done[k].second, plus(rest, earlier(w.origin, rules_[w.rule].lhs)));
      }
    }
    using Entry = std::pair<std::uint32_t, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    for (std::size_t k = 0; k < done.size(); ++k)
      if (done[k].second < kFar) queue.emplace(done[k].second, k);
    while (!queue.empty()) {
      auto [d, k] = queue.top();
      queue.pop();
      if (d != done[k].second) continue;
      for (auto [to, w] : edges[k])
        if (plus(d, w) < done[to].second) {
          done[to].second = plus(d, w);
          queue.emplace(done[to].second, to);
        }
    }
    std::uint32_t bound = kFar;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const Item it = s.item(i);
      const std::uint32_t after =
          it.rule == 0 ? 0
          : it.origin == &s ? (slot(rules_[it.rule].lhs) < done.size() ? done[slot(rules_[it.rule].lhs)].second : kFar)
                            : earlier(it.origin, rules_[it.rule].lhs);
      bound = std::min(bound, plus(rest_len_[it.rule][it.dot], after));
    }
    std::lock_guard<SpinLock> lock(s.memo_lock);
    if (s.bounded.load(std::memory_order_relaxed)) continue;
    s.done = std::move(done);
    s.bound = bound;
    s.bounded.store(true, std::memory_order_release);
  }
  return set.bound;
}

/// One search of Grammar::shortest_completion.
class CompletionSearch {
 public:
  CompletionSearch(const Grammar& g, const std::array<std::uint64_t, 4>* alphabet, bool need_byte)
      : g_(g), alphabet_(alphabet), need_byte_(need_byte) {}

  /// The answer (the shortest one when `weight` is 1); `exhausted` tells
  /// whether every reachable node was seen.
  std::optional<std::string> run(const StatePtr& ps, std::int32_t cfg, std::uint64_t local,
                                 const std::vector<std::uint8_t>& bytes, std::uint32_t weight,
                                 bool& exhausted) {
    weight_ = weight;
    nodes_.clear();
    best_.clear();
    queue_ = {};
    exhausted = false;
    push(ps, cfg, local, 0, -1, 0);
    if (cfg >= 0 && !g_.config(cfg).fresh && g_.lex_accepting(cfg)) {  // the lexeme may end here
      StatePtr done = g_.finish_lexeme(*ps, cfg, local);
      if (done->set) push(done, g_.start_config(*done, cfg), g_.start_local(*done), 0, -1, 0);
    }
    while (!queue_.empty()) {
      if (nodes_.size() > kMaxNodes) return std::nullopt;
      const auto [f, neg_g, order] = queue_.top();
      queue_.pop();
      const auto at = static_cast<std::int32_t>(order);
      const Node n = nodes_[at];
      if (best_[key(n)] != n.g) continue;  // a shorter way here was found
      if (fresh(n) && (n.g > 0 || !need_byte_) && g_.can_finish(*n.ps)) return spell(at);
      if (n.cfg < 0) continue;
      for (std::uint8_t b : bytes) {
        if (alphabet_ && !((*alphabet_)[b >> 6] >> (b & 63) & 1)) continue;
        std::int32_t cfg2 = n.cfg;
        std::uint64_t local2 = n.local;
        if (!g_.lex_step(cfg2, local2, b)) continue;
        if (g_.lex_accepting(cfg2)) {
          StatePtr done = g_.finish_lexeme(*n.ps, cfg2, local2);
          if (done->set) push(done, g_.start_config(*done, cfg2), g_.start_local(*done), n.g + 1, at, b);
        }
        push(n.ps, cfg2, local2, n.g + 1, at, b);
      }
    }
    exhausted = true;
    return std::nullopt;
  }

 private:
  struct Node {
    StatePtr ps;
    std::int32_t cfg;
    std::uint64_t local;
    std::uint32_t g;  ///< bytes so far
    std::int32_t parent;
    std::uint8_t byte;
  };
  /// Nodes are told apart by what the parse state holds, not by its address:
  /// the hooks make a new state for every blank or comment line.
  struct Key {
    const ParseState* ps;
    std::int32_t cfg;
    std::uint64_t local;
    bool started;
    bool operator==(const Key& o) const {
      if (cfg != o.cfg || local != o.local || started != o.started) return false;
      if (ps == o.ps) return true;
      const HookState &a = ps->hook, &b = o.ps->hook;
      return ps->set == o.ps->set && ps->effective == o.ps->effective && a.indents == b.indents &&
             a.alt_indents == b.alt_indents && a.col == b.col && a.altcol == b.altcol &&
             a.continued == b.continued && a.depth == b.depth && a.fields == b.fields &&
             a.line_start == b.line_start &&
             a.line_tokens == b.line_tokens && a.heredocs == b.heredocs && a.bodies == b.bodies;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      const HookState& h = k.ps->hook;
      std::uint64_t x = reinterpret_cast<std::uintptr_t>(k.ps->set.get()) * 0x9E3779B97F4A7C15ull;
      x ^= reinterpret_cast<std::uintptr_t>(k.ps->effective.get()) * 0xD6E8FEB86659FD93ull;
      x ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.cfg)) << 1 | k.started) * 0xBF58476D1CE4E5B9ull;
      x ^= (k.local + (static_cast<std::uint64_t>(h.col) << 32 | h.altcol)) * 0x94D049BB133111EBull;
      x ^= (static_cast<std::uint64_t>(h.indents.size()) << 40 | static_cast<std::uint32_t>(h.depth) << 8 |
            h.continued << 3 | h.line_start << 2 | h.line_tokens << 1 | h.bodies) * 0xFF51AFD7ED558CCDull;
      x ^= h.heredocs.size() * 0xC4CEB9FE1A85EC53ull;
      return static_cast<std::size_t>(x ^ (x >> 31));
    }
  };

  Key key(const Node& n) const { return Key{n.ps.get(), n.cfg, n.local, n.g > 0 || !need_byte_}; }
  bool fresh(const Node& n) const { return n.cfg < 0 || g_.config(n.cfg).fresh; }

  /// A lower bound on the bytes still needed from `n`: inside a lexeme, the
  /// bytes to finish it plus the parse's bound, less what the terminal it
  /// becomes was counted for there (ignored lexemes count for nothing).
  std::uint32_t estimate(const Node& n) const {
    std::uint32_t parse = g_.set_bound(*n.ps->set);
    if (g_.hook_ == Hook::kPython && parse < kFar && parse > 0) --parse;  // the end gives a newline
    // bash: each heredoc still due needs its delimiter line (the grammar
    // leaves the bodies optional; the hook demands them), and the bodies a
    // newline before them. The one being read is the current lexeme.
    // These come on top of the parse's bound, never taken back with a lexeme's text.
    const HookState& hook = n.ps->hook;
    const auto& due = hook.heredocs;
    std::uint32_t extra = 0;
    for (std::size_t i = hook.bodies && !fresh(n) ? 1 : 0; i < due.size(); ++i)
      extra = plus(extra, static_cast<std::uint32_t>(due[i].first.size()));
    bool pending = !due.empty();
    // bash: inside a heredoc start, the delimiter read so far is due as a line.
    if (!fresh(n) && n.local >> 62 == 1 && g_.config(n.cfg).capture) {
      bool start_only = true;
      for (auto [t, s] : g_.config(n.cfg).items)
        start_only = start_only && ((t & kShadow) || static_cast<std::int32_t>(t) == g_.heredoc_start_);
      if (start_only) {
        extra = plus(extra, g_.delimiters_.length(static_cast<std::uint32_t>(n.local)));
        pending = true;
      }
    }
    if (pending && !hook.bodies) extra = plus(extra, 1);
    if (fresh(n)) return plus(parse, extra);
    std::uint32_t best = kFar;
    for (auto [t, s] : g_.config(n.cfg).items) {
      if (t & kShadow) continue;
      std::uint32_t dist = 0, counted = 0;
      if (t < g_.term_dist_.size() && !g_.term_dist_[t].empty()) {
        dist = g_.term_dist_[t][s];
        if (dist == 0xFFFF) continue;
        counted = Grammar::is_token(g_.term(t).role) ? g_.term_dist_[t][0] : 0;
      } else if (g_.term(t).role == TermRole::kHeredoc) {
        dist = body_distance(t, s);  // the grammar counted the body as nothing
        if (dist >= kFar) continue;
      }
      best = std::min(best, dist + (parse > counted ? parse - counted : 0));
    }
    return plus(best, extra);
  }

  /// bash: the fewest bytes that end a heredoc body (a terminal made on
  /// demand, so not in term_dist_) from state `s` of its automaton.
  std::uint32_t body_distance(std::uint16_t t, std::int32_t s) const {
    const std::uint64_t k = static_cast<std::uint64_t>(t) << 32 | static_cast<std::uint32_t>(s);
    if (auto it = body_dist_.find(k); it != body_dist_.end()) return it->second;
    const Terminal& term = g_.term(t);
    std::vector<std::int32_t> level{s}, next;
    std::vector<std::uint8_t> seen(term.accepting.size(), 0);
    seen[s] = 1;
    std::uint32_t d = 0;
    for (; !level.empty(); ++d, level.swap(next), next.clear()) {
      for (std::int32_t at : level) {
        if (term.accepting[at]) return body_dist_[k] = d;
        for (int b = 0; b < 256; ++b) {
          const std::int32_t to = term.table[static_cast<std::size_t>(at) * 256 + b];
          if (to >= 0 && !seen[to]) {
            seen[to] = 1;
            next.push_back(to);
          }
        }
      }
    }
    return body_dist_[k] = kFar;
  }

  void push(StatePtr ps, std::int32_t cfg, std::uint64_t local, std::uint32_t g, std::int32_t parent,
            std::uint8_t byte) {
    Node n{std::move(ps), cfg, local, g, parent, byte};
    auto [it, fresh_key] = best_.emplace(key(n), g);
    if (!fresh_key) {
      if (it->second <= g) return;
      it->second = g;
    }
    const std::uint32_t h = estimate(n);
    if (h >= kFar) return;  // the parse cannot end from here
    queue_.emplace(g + std::uint64_t{weight_} * h, -static_cast<std::int64_t>(g), nodes_.size());
    nodes_.push_back(std::move(n));
  }

  std::string spell(std::int32_t at) const {
    std::string out;
    for (; nodes_[at].parent >= 0; at = nodes_[at].parent) out.push_back(static_cast<char>(nodes_[at].byte));
    std::reverse(out.begin(), out.end());
    return out;
  }

  const Grammar& g_;
  const std::array<std::uint64_t, 4>* alphabet_;
  bool need_byte_;
  std::uint32_t weight_ = 1;
  std::vector<Node> nodes_;
  std::unordered_map<Key, std::uint32_t, KeyHash> best_;
  mutable std::unordered_map<std::uint64_t, std::uint32_t> body_dist_;
  /// (estimated total, -bytes so far, node): the fewest total first, the
  /// deepest among equals (it reaches an end sooner), then the bytes' order.
  using Entry = std::tuple<std::uint64_t, std::int64_t, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
};

std::optional<std::string> Grammar::shortest_completion(const StatePtr& ps, std::int32_t cfg,
                                                        std::uint64_t local, bool need_byte,
                                                        const std::array<std::uint64_t, 4>* alphabet) const {
  if (!ps || !ps->set) return std::nullopt;
  CompletionSearch search(*this, alphabet, need_byte);
  bool exhausted = false;
  try {
    const std::vector<std::uint8_t> printable = byte_order(false);
    auto found = search.run(ps, cfg, local, printable, 1, exhausted);
    if (found) return found;
    std::vector<std::uint8_t> bytes = printable;
    if (exhausted) {  // nothing printable ends it: every byte
      const std::vector<std::uint8_t> rest = byte_order(true);
      bytes.insert(bytes.end(), rest.begin(), rest.end());
      found = search.run(ps, cfg, local, bytes, 1, exhausted);
      if (found || exhausted) return found;
    }
    for (std::uint32_t weight : kGreedy)
      if ((found = search.run(ps, cfg, local, bytes, weight, exhausted)) || exhausted) return found;
    return std::nullopt;
  } catch (const GrammarError&) {  // a parse past the grammar's limits: no answer
    return std::nullopt;
  }
}

}  // namespace pse::grammar
