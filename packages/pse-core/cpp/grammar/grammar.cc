#include "grammar/grammar.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <map>
#include <new>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <tuple>
#include <utility>

#include "pse_core/errors.h"
#include "pse_core/limits.h"

namespace pse::grammar {

namespace {

/// The keywords CPython's tokenizer lets follow a number with nothing between
/// (`1if x else 2`); any other identifier character there is "invalid decimal literal".
constexpr std::string_view kAfterNumber[] = {"and", "else", "for", "if", "in", "is", "not", "or"};

/// bash: the terminals (found by name) where bash keeps a backslash-newline as it is: a
/// comment, '...' and $'...' (also a heredoc delimiter's '...', where "..." may hold a ').
/// Elsewhere bash removes the pair before it reads words, in "..." too.
struct RawTerminal {
  std::string_view name;
  std::string_view lead;  ///< every text of the terminal starts so
  int open, close;
  bool escapes;  ///< a backslash inside escapes the next byte ($'\'')
  bool dquotes;  ///< "..." may hold the opening byte
};
constexpr RawTerminal kRawTerminals[] = {{"COMMENT", "#", '#', -1, false, false},
                                         {"SINGLE_QUOTED", "'", '\'', '\'', false, false},
                                         {"ANSI_C_QUOTED", "$'", '\'', '\'', true, false},
                                         {"HEREDOC_START", "<<", '\'', '\'', false, true}};

/// A pseudo terminal given as (from, byte, to) moves over `states` states.
Terminal pseudo(std::string name, TermRole role, std::int32_t states, std::int32_t accept,
                std::initializer_list<std::array<std::int32_t, 3>> moves) {
  Terminal t;
  t.name = std::move(name);
  t.role = role;
  t.priority = 1 << 20;  // the hook's newlines beat any user terminal
  t.table.assign(static_cast<std::size_t>(states) * 256, -1);
  for (auto [from, byte, to] : moves) t.table[static_cast<std::size_t>(from) * 256 + byte] = to;
  t.accepting.assign(static_cast<std::size_t>(states), 0);
  t.accepting[accept] = 1;
  return t;
}

/// Drop transitions into states from which no accepting state is reachable.
void prune(Terminal& t) {
  const std::size_t n = t.accepting.size();
  std::vector<std::uint8_t> live(t.accepting.begin(), t.accepting.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t s = 0; s < n; ++s) {
      if (live[s]) continue;
      for (int b = 0; b < 256 && !live[s]; ++b) {
        std::int32_t to = t.table[s * 256 + b];
        if (to >= 0 && live[to]) live[s] = changed = true;
      }
    }
  }
  for (auto& to : t.table)
    if (to >= 0 && !live[to]) to = -1;
}

struct ItemKey {
  std::uint32_t rule, dot;
  const EarleySet* origin;
  bool operator==(const ItemKey&) const = default;
};
/// EarleyBuilder's table takes the low bits. A product's low bits depend only
/// on the factor's low bits (the rule sits in the high half, and origins are
/// aligned blocks), so the high half is folded in: without it, the items of
/// one dot and origin shared a slot and a probe ran through all of them.
struct ItemHash {
  std::size_t operator()(const ItemKey& k) const {
    std::uint64_t h = (static_cast<std::uint64_t>(k.rule) << 32 | k.dot) * 0x9E3779B97F4A7C15ull;
    h ^= reinterpret_cast<std::uintptr_t>(k.origin) * 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(h ^ h >> 32);
  }
};

}  // namespace

EarleySet::~EarleySet() {
  // A long text is a long chain of sets: unlink it iteratively, not recursively.
  SetPtr p = std::move(prev);
  while (p && p.use_count() == 1) {
    SetPtr next = std::move(p->prev);
    p = std::move(next);
  }
}

std::vector<std::pair<std::int32_t, std::uint32_t>> EarleySet::all_waiting() const {
  std::vector<std::pair<std::int32_t, std::uint32_t>> all(waiting.begin(), waiting.end());
  for (auto [nt, i] : predicted->waiting) all.emplace_back(nt, static_cast<std::uint32_t>(kernel.size()) + i);
  std::inplace_merge(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(waiting.size()), all.end());
  return all;
}

LexConfig::LexConfig() {
  for (auto& n : next) n.store(-2, std::memory_order_relaxed);
}

/// Scratch buffers of the set builder, reused by each thread.
struct BuildScratch {
  std::vector<std::uint8_t> predicted;
  std::vector<std::uint32_t> table;
  std::vector<std::int32_t> seeds;
  std::vector<std::uint16_t> expected;
  std::vector<std::uint32_t> scanned;  ///< Grammar::scan: indices of the items it advances
  std::vector<Item> kernel;            ///< the set's kernel while it is built
};

/// Builds one Earley set. Its items fall in two parts: the kernel (items that
/// began in an earlier set: scanned, completed, or advanced over a nullable
/// nonterminal, Aycock-Horspool) and the predictions (items that begin here).
/// The predictions depend only on the nonterminals the kernel waits on (its
/// seeds): Grammar::prediction() makes them once per seed set.
struct EarleyBuilder {
  const Grammar& g;
  std::shared_ptr<EarleySet> s = std::allocate_shared<EarleySet>(Recycled<EarleySet>{});
  BuildScratch& scratch = fresh_scratch(g.rules_of_.size());
  std::vector<std::uint8_t>& predicted = scratch.predicted;
  /// Open addressing over item indices + 1 (0: free); grows with the set.
  std::vector<std::uint32_t>& table = scratch.table;
  /// The kernel, built here and copied into the set (one allocation of its size).
  std::vector<Item>& kernel = scratch.kernel;

  explicit EarleyBuilder(const Grammar& grammar) : g(grammar) {}

  static BuildScratch& fresh_scratch(std::size_t nonterminals) {
    thread_local BuildScratch scratch;
    scratch.predicted.assign(nonterminals, 0);
    scratch.table.assign(256, 0);
    scratch.seeds.clear();
    scratch.kernel.clear();
    return scratch;
  }

  /// A kernel item, unless already present.
  void add(const Item& it) {
    const ItemKey key{it.rule, it.dot, it.origin};
    std::size_t mask = table.size() - 1, i = ItemHash{}(key) & mask;
    for (; table[i]; i = (i + 1) & mask) {
      const Item& o = kernel[table[i] - 1];
      if (o.rule == it.rule && o.dot == it.dot && o.origin == it.origin) return;
    }
    kernel.push_back(it);
    table[i] = static_cast<std::uint32_t>(kernel.size());
    if (2 * kernel.size() > table.size()) {
      table.assign(table.size() * 4, 0);
      mask = table.size() - 1;
      for (std::uint32_t k = 0; k < kernel.size(); ++k) {
        const Item& o = kernel[k];
        std::size_t j = ItemHash{}(ItemKey{o.rule, o.dot, o.origin}) & mask;
        while (table[j]) j = (j + 1) & mask;
        table[j] = k + 1;
      }
    }
  }

  /// Predict nonterminal `a` here (once).
  void seed(std::int32_t a) {
    if (predicted[a]) return;
    predicted[a] = 1;
    scratch.seeds.push_back(a);
  }

  SetPtr run() {
    for (std::size_t i = 0; i < kernel.size(); ++i) {
      if (kernel.size() > limits::kMaxEarleyItems) too_many();
      const Item it = kernel[i];
      const Rule& r = g.rules_[it.rule];
      if (it.dot < r.rhs.size()) {
        std::int32_t sym = r.rhs[it.dot];
        if (sym >= 0) continue;
        seed(~sym);
        if (g.nullable_[~sym]) add(Item{it.rule, it.dot + 1, it.origin});
        continue;
      }
      // A kernel item began before this set: its completion advances the
      // items of its origin that wait on its left side.
      const EarleySet* o = it.origin;
      o->each_waiting(r.lhs, [&](std::uint32_t i) {
        const Item w = o->item(i);
        add(Item{w.rule, w.dot + 1, w.origin});
      });
    }
    const auto kernels = static_cast<std::uint32_t>(kernel.size());
    std::sort(scratch.seeds.begin(), scratch.seeds.end());
    std::shared_ptr<const Prediction> predicted_here = g.prediction(scratch.seeds);
    const Prediction& p = *predicted_here;
    if (kernels + p.items.size() > limits::kMaxEarleyItems) too_many();
    std::vector<std::uint16_t>& expected = scratch.expected;
    expected.clear();
    std::uint32_t kernel_waiting = 0;
    for (std::uint32_t i = 0; i < kernels; ++i) {
      const Item& it = kernel[i];
      const Rule& r = g.rules_[it.rule];
      if (it.dot < r.rhs.size()) {
        std::int32_t sym = r.rhs[it.dot];
        if (sym >= 0) expected.push_back(static_cast<std::uint16_t>(sym));
        else ++kernel_waiting;
      }
    }
    s->waiting.reserve(kernel_waiting);
    for (std::uint32_t i = 0; i < kernels; ++i) {
      const Item& it = kernel[i];
      const Rule& r = g.rules_[it.rule];
      if (it.dot < r.rhs.size()) {
        if (r.rhs[it.dot] < 0) s->waiting.emplace_back(~r.rhs[it.dot], i);
      } else if (it.rule == 0) {
        s->complete = true;
      }
    }
    s->complete = s->complete || p.complete;
    std::sort(s->waiting.begin(), s->waiting.end());
    std::sort(expected.begin(), expected.end());
    if (std::includes(p.expected.begin(), p.expected.end(), expected.begin(), expected.end())) {
      // Most kernels expect no terminal the predictions do not: the list and its id are made.
      s->expected = p.expected;
      s->expected_id = p.expected_id;
    } else {
      const std::size_t own = expected.size();
      expected.insert(expected.end(), p.expected.begin(), p.expected.end());
      std::inplace_merge(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(own),
                         expected.end());
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      std::tie(s->expected_id, s->expected) = g.intern_expected(expected);
    }
    s->predicted = std::move(predicted_here);
    s->kernel.assign(kernel.begin(), kernel.end());
    return s;
  }

  [[noreturn]] static void too_many() {
    throw GrammarError("an Earley set grew past " + std::to_string(limits::kMaxEarleyItems) +
                       " items (limits.kMaxEarleyItems): the grammar is too ambiguous");
  }
};

namespace {

/// `values`' bytes as a map key, in a buffer each thread reuses: a lookup that
/// finds its key allocates nothing.
template <class T>
const std::string& bytes_key(const std::vector<T>& values) {
  thread_local std::string key;
  key.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  return key;
}

}  // namespace

std::shared_ptr<const Prediction> Grammar::prediction(const std::vector<std::int32_t>& seeds) const {
  {
    std::lock_guard<SpinLock> lock(mutex_);
    auto found = predictions_.find(bytes_key(seeds));
    if (found != predictions_.end()) return found->second;
  }
  // The closure of the seeds under prediction, with the dots advanced over
  // nullable nonterminals: items (rule, dot) that all begin in the set.
  auto p = std::make_shared<Prediction>();
  std::vector<std::uint16_t> expected;
  std::vector<std::uint8_t> predicted(rules_of_.size(), 0);
  std::unordered_set<std::uint64_t> advanced;  // (rule, dot > 0) pairs made
  auto predict = [&](std::int32_t a) {
    if (predicted[a]) return;
    predicted[a] = 1;
    for (std::uint32_t k : rules_of_[a]) p->items.emplace_back(k, 0);
  };
  for (std::int32_t a : seeds) predict(a);
  for (std::size_t i = 0; i < p->items.size(); ++i) {
    if (p->items.size() > limits::kMaxEarleyItems) EarleyBuilder::too_many();
    const auto [rule, dot] = p->items[i];
    const Rule& r = rules_[rule];
    if (dot < r.rhs.size()) {
      const std::int32_t sym = r.rhs[dot];
      if (sym >= 0) {
        expected.push_back(static_cast<std::uint16_t>(sym));
        p->scans.emplace_back(static_cast<std::uint16_t>(sym), static_cast<std::uint32_t>(i));
        continue;
      }
      predict(~sym);
      p->waiting.emplace_back(~sym, static_cast<std::uint32_t>(i));
      if (nullable_[~sym] && advanced.insert(static_cast<std::uint64_t>(rule) << 32 | (dot + 1)).second)
        p->items.emplace_back(rule, dot + 1);
    } else if (rule == 0) {
      p->complete = true;
    }
  }
  std::sort(p->waiting.begin(), p->waiting.end());
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  std::sort(p->scans.begin(), p->scans.end());
  std::tie(p->expected_id, p->expected) = intern_expected(expected);
  std::lock_guard<SpinLock> lock(mutex_);
  // Seed sets are few (the sets of a grammar share them); past the bound the
  // memo starts over.
  if (predictions_.size() >= kMaxPredictions) predictions_.clear();
  return predictions_.try_emplace(bytes_key(seeds), std::move(p)).first->second;
}

std::int32_t Grammar::left_factor(const std::vector<Rule>& rules, std::int32_t count) {
  // A nonterminal's alternatives as a trie: alternatives that begin alike
  // share their common prefix, which ends in a new nonterminal for the rests
  // (Lark spells `a b? c?` as four rules, which an Earley set would carry
  // as four items at every position of the common part). Linear in the
  // rules' symbols but for the hashing: an alternation of thousands costs
  // no more than the rules themselves.
  using Rhs = std::span<const std::int32_t>;
  struct RhsHash {
    std::size_t operator()(const std::pair<std::int32_t, Rhs>& r) const {
      std::uint64_t h = static_cast<std::uint32_t>(r.first);
      for (std::int32_t sym : r.second) h = (h ^ static_cast<std::uint32_t>(sym)) * 0x100000001B3ull;
      return static_cast<std::size_t>(h ^ h >> 29);
    }
  };
  struct RhsEqual {
    bool operator()(const std::pair<std::int32_t, Rhs>& a, const std::pair<std::int32_t, Rhs>& b) const {
      return a.first == b.first && std::ranges::equal(a.second, b.second);
    }
  };
  // Few nonterminals have more than a handful of alternatives: those are
  // searched in a line, the others hashed.
  constexpr std::size_t kLinear = 16;
  std::unordered_set<std::pair<std::int32_t, Rhs>, RhsHash, RhsEqual> seen;
  std::vector<std::vector<Rhs>> alternatives(static_cast<std::size_t>(count));
  for (const Rule& r : rules) {
    auto& alts = alternatives[static_cast<std::size_t>(r.lhs)];
    const Rhs rhs(r.rhs);
    const bool fresh = alts.size() < kLinear
                           ? std::none_of(alts.begin(), alts.end(),
                                          [&](Rhs a) { return std::ranges::equal(a, rhs); })
                           : seen.insert({r.lhs, rhs}).second;
    if (!fresh) continue;
    if (alts.size() + 1 == kLinear)  // from here on hashed: the earlier ones join the set
      for (Rhs a : alts) seen.insert({r.lhs, a});
    alts.push_back(rhs);
  }
  std::unordered_map<std::int32_t, std::size_t> group_of;
  auto factor = [&](auto& self, std::int32_t lhs, const std::vector<Rhs>& rests) -> void {
    // The rests by first symbol, in the order they first appear.
    std::vector<std::vector<Rhs>> groups;
    bool empty = false;
    group_of.clear();
    for (const Rhs& r : rests) {
      if (r.empty()) {
        empty = true;
        continue;
      }
      std::size_t at = groups.size();
      if (rests.size() < kLinear) {
        for (std::size_t k = 0; k < groups.size(); ++k)
          if (groups[k][0][0] == r[0]) at = k;
      } else {
        at = group_of.try_emplace(r[0], groups.size()).first->second;
      }
      if (at == groups.size()) groups.emplace_back();
      groups[at].push_back(r);
    }
    if (empty) rules_.push_back(Rule{lhs, {}});
    for (std::vector<Rhs>& group : groups) {
      std::size_t common = group[0].size();
      for (const Rhs& g : group) {
        std::size_t k = 0;
        while (k < common && k < g.size() && g[k] == group[0][k]) ++k;
        common = k;
      }
      std::vector<std::int32_t> rhs(group[0].begin(), group[0].begin() + static_cast<std::ptrdiff_t>(common));
      if (group.size() == 1) {
        rules_.push_back(Rule{lhs, std::move(rhs)});
        continue;
      }
      const std::int32_t tail = count++;
      rhs.push_back(~tail);
      rules_.push_back(Rule{lhs, std::move(rhs)});
      for (Rhs& g : group) g = g.subspan(common);
      self(self, tail, group);
    }
  };
  for (std::size_t lhs = 0; lhs < alternatives.size(); ++lhs)
    factor(factor, static_cast<std::int32_t>(lhs), alternatives[lhs]);
  return count;
}

Grammar::Grammar(std::vector<Terminal> terminals, std::vector<Rule> rules, std::int32_t start,
                 std::int32_t nonterminals, std::vector<std::string> nonterminal_names, Hook hook)
    : terminals_(std::move(terminals)), nonterminal_names_(std::move(nonterminal_names)), hook_(hook) {
  if (nonterminals <= 0 || start < 0 || start >= nonterminals)
    throw GrammarError("the start symbol is not a rule of the grammar");
  // Rule 0: the augmented start S' -> start.
  const std::int32_t aug = nonterminals;
  rules_.push_back(Rule{aug, {~start}});
  for (Rule& r : rules) {
    if (r.lhs < 0 || r.lhs >= nonterminals) throw GrammarError("a rule has an unknown left side");
    for (std::int32_t sym : r.rhs)
      if (sym >= 0 ? sym >= static_cast<std::int32_t>(terminals_.size()) : ~sym >= nonterminals)
        throw GrammarError("a rule uses an unknown symbol");
  }
  start_ = aug;
  const std::int32_t count = left_factor(rules, nonterminals + 1);
  rules_of_.resize(static_cast<std::size_t>(count));
  for (std::uint32_t k = 0; k < rules_.size(); ++k) rules_of_[rules_[k].lhs].push_back(k);
  // Items with the same left side and the same symbols after the dot have the
  // same future: shapes name them alike (set_shape).
  {
    std::map<std::vector<std::int32_t>, std::uint32_t> ids;
    std::vector<std::int32_t> key;
    for (const Rule& r : rules_) {
      suffix_at_.push_back(static_cast<std::uint32_t>(suffix_ids_.size()));
      for (std::size_t dot = 0; dot <= r.rhs.size(); ++dot) {
        key.assign(1, r.lhs);
        key.insert(key.end(), r.rhs.begin() + static_cast<std::ptrdiff_t>(dot), r.rhs.end());
        suffix_ids_.push_back(ids.emplace(key, static_cast<std::uint32_t>(ids.size())).first->second);
      }
    }
  }
  nullable_.assign(rules_of_.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& r : rules_)
      if (!nullable_[r.lhs] &&
          std::all_of(r.rhs.begin(), r.rhs.end(), [&](std::int32_t s) { return s < 0 && nullable_[~s]; }))
        nullable_[r.lhs] = changed = true;
  }
  auto find = [&](std::string_view name) -> std::int32_t {
    for (std::size_t i = 0; i < terminals_.size(); ++i)
      if (terminals_[i].name == name) return static_cast<std::int32_t>(i);
    return -1;
  };
  // The terminals a hook finds by name (docs/grammar.md, "Lexer hooks"): a missing one is an error.
  std::string missing;
  auto need = [&](std::int32_t t, std::string_view name, bool declared) {
    if (t < 0 || (terminals_[t].role == TermRole::kDeclared) != declared ||
        (name == "NAME" && (terminals_[t].literal || terminals_[t].role != TermRole::kNormal)))
      missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
  if (hook_ == Hook::kPython) {
    newline_ = find("_NEWLINE");
    indent_ = find("_INDENT");
    dedent_ = find("_DEDENT");
    need(newline_, "_NEWLINE", true);
    need(indent_, "_INDENT", true);
    need(dedent_, "_DEDENT", true);
    // A keyword ends only where a NAME would not go on (`ifx` is a NAME).
    need(find("NAME"), "NAME", false);
    if (!missing.empty())
      throw GrammarError("the python lexer hook needs `%declare _NEWLINE _INDENT _DEDENT` and a regex terminal "
                         "NAME (missing or of another kind: " + missing + ")");
    terminals_.push_back(pseudo("<newline>", TermRole::kNewline, 3, 2,
                                {{0, '\r', 1}, {0, '\n', 2}, {1, '\n', 2}}));
    terminals_.push_back(pseudo("<continuation>", TermRole::kContinuation, 4, 3,
                                {{0, '\\', 1}, {1, '\r', 2}, {1, '\n', 3}, {2, '\n', 3}}));
  }
  if (hook_ == Hook::kBash) {
    heredoc_start_ = find("HEREDOC_START");
    heredoc_body_ = find("HEREDOC_BODY");
    newline_ = find("_NEWLINE");
    for (std::size_t i = 0; i < terminals_.size() && semicolon_ < 0; ++i) {
      const Terminal& t = terminals_[i];
      if (t.literal && t.role == TermRole::kNormal && t.table[';'] >= 0 && t.accepting[t.table[';']])
        semicolon_ = static_cast<std::int32_t>(i);
    }
    // Also those where a backslash-newline stays: a comment named otherwise would be joined
    // to the next line.
    need(heredoc_body_, "HEREDOC_BODY", true);
    need(newline_, "_NEWLINE", false);
    for (const RawTerminal& r : kRawTerminals) need(find(r.name), r.name, false);
    if (!missing.empty())
      throw GrammarError("the bash lexer hook needs `%declare HEREDOC_BODY` and terminals _NEWLINE, COMMENT, "
                         "SINGLE_QUOTED, ANSI_C_QUOTED and HEREDOC_START (missing or of another kind: " +
                         missing + ")");
  }
  if (terminals_.size() + kMaxHeredocTerminals >= kShadow) throw GrammarError("more than 28000 terminals");
  for (std::size_t i = 0; i < terminals_.size(); ++i) {
    Terminal& t = terminals_[i];
    if (t.role == TermRole::kDeclared) continue;
    if (t.accepting.empty() || t.table.size() != t.accepting.size() * 256)
      throw GrammarError("terminal " + t.name + " needs 256 transitions per state");
    for (std::int32_t to : t.table)
      if (to < -1 || to >= static_cast<std::int32_t>(t.accepting.size()))
        throw GrammarError("terminal " + t.name + " has a transition out of range");
    if (t.accepting[0]) throw GrammarError("terminal " + t.name + " matches the empty string");
    prune(t);
    if (t.role != TermRole::kNormal) ignore_.push_back(static_cast<std::uint16_t>(i));
  }
  if (hook_ == Hook::kPython) {
    bound_keywords(find("NAME"));
    number_rules();
    for (Terminal& t : terminals_) {
      if (t.name.starts_with("FSTRING_")) {
        const bool triple = t.name.starts_with("FSTRING_TSQ") || t.name.starts_with("FSTRING_TDQ");
        const std::int8_t open = triple ? 1 : 2;
        t.fstring = t.name.ends_with("_OPEN") ? open : t.name.ends_with("_CLOSE") ? -open : 0;
      }
      t.comment = t.role == TermRole::kIgnore && t.table['#'] >= 0;
    }
  }
  if (hook_ == Hook::kBash) bash_continuations();
  initial_ = initial_set();
  initial_state_ = make_state(initial_, HookState{});
}

void Grammar::bound_keywords(std::int32_t name) {
  if (name < 0 || terminals_[name].role != TermRole::kNormal || terminals_[name].literal) return;
  name_ = name;
  bounded_.assign(terminals_.size(), 0);
  const Terminal& n = terminals_[name];
  for (std::size_t i = 0; i < terminals_.size(); ++i) {
    const Terminal& t = terminals_[i];
    if (!t.literal || t.role != TermRole::kNormal) continue;
    // Is some text of `t` a prefix of a NAME? Walk both automata together.
    std::vector<std::pair<std::int32_t, std::int32_t>> todo{{0, 0}}, seen{{0, 0}};
    while (!todo.empty() && !bounded_[i]) {
      auto [a, b] = todo.back();
      todo.pop_back();
      for (int c = 0; c < 256; ++c) {
        std::int32_t a2 = t.table[static_cast<std::size_t>(a) * 256 + c];
        std::int32_t b2 = n.table[static_cast<std::size_t>(b) * 256 + c];
        if (a2 < 0 || b2 < 0) continue;
        if (t.accepting[a2]) bounded_[i] = 1;
        if (std::find(seen.begin(), seen.end(), std::pair{a2, b2}) != seen.end()) continue;
        seen.emplace_back(a2, b2);
        todo.emplace_back(a2, b2);
      }
    }
  }
}

void Grammar::number_rules() {
  auto ident = [](int b) { return std::isalnum(b) || b == '_' || b >= 0x80; };
  auto matches = [](const Terminal& t, std::string_view text) {
    std::int32_t s = 0;
    for (char ch : text)
      if ((s = t.table[static_cast<std::size_t>(s) * 256 + static_cast<std::uint8_t>(ch)]) < 0) return false;
    return t.accepting[s] != 0;
  };
  number_.assign(terminals_.size(), 0);
  after_number_.assign(terminals_.size(), 1);
  for (std::size_t i = 0; i < terminals_.size(); ++i) {
    const Terminal& t = terminals_[i];
    if (t.role != TermRole::kNormal) continue;
    number_[i] = !t.literal && t.name.ends_with("NUMBER");
    bool word = false;
    for (int b = 0; b < 256 && !word; ++b) word = ident(b) && t.table[b] >= 0;
    if (!word) continue;
    // A terminal that starts with a letter is dropped whole: in Python none
    // can also start with another byte and follow a number (strings cannot).
    after_number_[i] = t.literal && std::any_of(std::begin(kAfterNumber), std::end(kAfterNumber),
                                                [&](std::string_view k) { return matches(t, k); });
  }
}

void Grammar::bash_continuations() {
  enum : std::uint8_t { kUnseen, kOut, kRaw, kRawEscaped, kDouble, kDoubleEscaped };
  auto after = [](const RawTerminal* raw, std::uint8_t c, int b) -> std::uint8_t {
    if (!raw) return c;
    switch (c) {
      case kOut: return b == raw->open ? kRaw : raw->dquotes && b == '"' ? kDouble : kOut;
      case kRaw: return raw->escapes && b == '\\' ? kRawEscaped : b == raw->close ? kOut : kRaw;
      case kRawEscaped: return kRaw;
      case kDouble: return b == '\\' ? kDoubleEscaped : b == '"' ? kOut : kDouble;
      default: return kDouble;
    }
  };
  for (std::size_t i = 0; i < terminals_.size(); ++i) {
    Terminal& t = terminals_[i];
    // After the newline that ends a line a heredoc body may start, read raw: the newline
    // takes no continuation (lookup_start offers <continuation> after it instead).
    if (t.accepting.empty() || static_cast<std::int32_t>(i) == newline_) continue;
    const RawTerminal* raw = nullptr;
    for (const RawTerminal& r : kRawTerminals)
      if (t.name == r.name) raw = &r;
    if (raw) {  // it must start as the hook reads it, or its quotes would be misread
      std::int32_t s = 0;
      for (const char ch : raw->lead) {
        const std::int32_t* row = &t.table[static_cast<std::size_t>(s) * 256];
        for (int b = 0; b < 256; ++b)
          if ((row[b] >= 0) != (b == static_cast<std::uint8_t>(ch)))
            throw GrammarError("the bash lexer hook reads terminal " + t.name + " as a text that starts with `" +
                               std::string(raw->lead) + "`: it may match no other text");
        s = row[static_cast<std::uint8_t>(ch)];
      }
    }
    const auto n = static_cast<std::int32_t>(t.accepting.size());
    std::vector<std::uint8_t> ctx(static_cast<std::size_t>(n), kUnseen);
    std::vector<std::int32_t> todo{0};
    ctx[0] = kOut;
    while (!todo.empty()) {
      const std::int32_t s = todo.back();
      todo.pop_back();
      for (int b = 0; b < 256; ++b) {
        const std::int32_t to = t.table[static_cast<std::size_t>(s) * 256 + b];
        if (to < 0) continue;
        const std::uint8_t c = after(raw, ctx[s], b);
        if (ctx[to] == kUnseen) {
          ctx[to] = c;
          todo.push_back(to);
        } else if (ctx[to] != c) {
          throw GrammarError("the bash lexer hook cannot tell where terminal " + t.name + " is quoted");
        }
      }
    }
    // An unquoted state s gets a twin, the state after a backslash read there: a newline goes
    // back to s, any other byte on as the backslash and that byte would. Not the first state
    // (the lexeme before, or <continuation>, takes a continuation that precedes a lexeme),
    // nor one right after a first backslash (`\\` is an escaped backslash).
    const std::vector<std::int32_t> before = t.table;
    const std::int32_t escape = before['\\'];
    for (std::int32_t s = 1; s < n; ++s) {
      if ((ctx[s] != kOut && ctx[s] != kDouble) || s == escape) continue;
      const auto twin = static_cast<std::int32_t>(t.accepting.size());
      t.accepting.push_back(0);
      t.table.resize(t.accepting.size() * 256, -1);
      const std::int32_t escaped = before[static_cast<std::size_t>(s) * 256 + '\\'];
      std::int32_t* row = &t.table[static_cast<std::size_t>(twin) * 256];
      if (escaped >= 0) std::copy_n(&before[static_cast<std::size_t>(escaped) * 256], 256, row);
      row['\n'] = s;
      t.table[static_cast<std::size_t>(s) * 256 + '\\'] = twin;
    }
  }
  continuation_ = static_cast<std::int32_t>(terminals_.size());
  terminals_.push_back(pseudo("<continuation>", TermRole::kIgnore, 4, 2,
                              {{0, '\\', 1}, {1, '\n', 2}, {2, '\\', 3}, {3, '\n', 2}}));
}

bool Grammar::backslash_extends(const Terminal& t, std::int32_t s) {
  const std::int32_t to = t.table[static_cast<std::size_t>(s) * 256 + '\\'];
  if (to < 0) return false;
  if (t.accepting[to]) return true;
  // A twin that only a newline leaves, back to s: a line continuation, no more.
  const std::int32_t* row = &t.table[static_cast<std::size_t>(to) * 256];
  for (int b = 0; b < 256; ++b)
    if (row[b] >= 0 && (b != '\n' || row[b] != s)) return true;
  return false;
}

std::pair<std::int32_t, std::span<const std::uint16_t>> Grammar::intern_expected(
    const std::vector<std::uint16_t>& terms) const {
  const std::string& key = bytes_key(terms);
  std::lock_guard<SpinLock> lock(mutex_);
  auto it = expected_ids_.find(key);
  if (it == expected_ids_.end()) {
    it = expected_ids_.emplace(key, static_cast<std::int32_t>(expected_ids_.size())).first;
    expected_lists_.push_back(terms);  // a deque: earlier lists stay where they are
  }
  return {it->second, expected_lists_[static_cast<std::size_t>(it->second)]};
}

SetPtr Grammar::initial_set() const {
  EarleyBuilder b{*this};
  b.seed(start_);  // the augmented start: rule 0 begins here
  return b.run();
}

bool Grammar::expects(const EarleySet& set, std::int32_t term) const {
  return term >= 0 && std::binary_search(set.expected.begin(), set.expected.end(),
                                         static_cast<std::uint16_t>(term));
}

SetPtr Grammar::scan(const SetPtr& set, const std::vector<std::uint16_t>& terms) const {
  if (!set) return nullptr;
  // No item expects any of the terminals: nothing to build.
  if (std::none_of(terms.begin(), terms.end(), [&](std::uint16_t t) { return expects(*set, t); }))
    return nullptr;
  const std::uint64_t memo_key = scan_key(terms);
  {
    std::lock_guard<SpinLock> lock(set->memo_lock);
    for (std::size_t i = 0; i < set->memo.size(); ++i)
      if (set->memo[i].first == memo_key) {
        if (SetPtr hit = set->memo[i].second.lock()) return hit;
      }
  }
  EarleyBuilder b{*this};
  b.s->prev = set;
  // The items that expect one of `terms`, in their order: the kernel's by a
  // look at each, the predicted ones from the prediction's index.
  std::vector<std::uint32_t>& scanned = b.scratch.scanned;
  scanned.clear();
  const auto kernel = static_cast<std::uint32_t>(set->kernel.size());
  for (std::uint32_t i = 0; i < kernel; ++i) {
    const Item& it = set->kernel[i];
    const Rule& r = rules_[it.rule];
    if (it.dot < r.rhs.size() && r.rhs[it.dot] >= 0 &&
        std::binary_search(terms.begin(), terms.end(), static_cast<std::uint16_t>(r.rhs[it.dot])))
      scanned.push_back(i);
  }
  const Prediction& p = *set->predicted;
  const std::size_t own = scanned.size();
  for (std::uint16_t t : terms)
    for (auto at = std::lower_bound(p.scans.begin(), p.scans.end(), std::pair<std::uint16_t, std::uint32_t>{t, 0});
         at != p.scans.end() && at->first == t; ++at)
      scanned.push_back(kernel + at->second);
  if (terms.size() > 1) std::sort(scanned.begin() + static_cast<std::ptrdiff_t>(own), scanned.end());
  for (std::uint32_t i : scanned) {
    const Item it = set->item(i);
    b.add(Item{it.rule, it.dot + 1, it.origin});
  }
  if (b.kernel.empty()) return nullptr;
  SetPtr out = b.run();
  SetPtr dropped;  // released outside the lock
  {
    // The memo is weak; the most recent results stay alive here so that the
    // next masks (which revisit the same parses) find them.
    std::lock_guard<SpinLock> lock(mutex_);
    dropped = std::exchange(recent_[recent_next_++ % recent_.size()], out);
  }
  std::lock_guard<SpinLock> lock(set->memo_lock);
  for (std::size_t i = 0; i < set->memo.size(); ++i)
    if (auto& [key, weak] = set->memo[i]; key == memo_key) {
      if (SetPtr hit = weak.lock()) return hit;
      weak = out;
      return out;
    }
  set->memo.push_back({memo_key, out});
  return out;
}

std::uint64_t Grammar::scan_key(const std::vector<std::uint16_t>& terms) const {
  if (terms.size() > 4) return 1ull << 63 | static_cast<std::uint32_t>(intern_expected(terms).first);
  std::uint64_t key = static_cast<std::uint64_t>(terms.size()) << 60;
  for (std::size_t i = 0; i < terms.size(); ++i) key |= static_cast<std::uint64_t>(terms[i]) << (15 * i);
  return key;
}

StatePtr Grammar::make_state(SetPtr set, HookState hook) const {
  SetPtr effective;
  if (set && hook_ == Hook::kPython && hook.line_start) {
    // The INDENT or DEDENTs a real token at column `col` would bring.
    // Columns are compared with tab stops of 8 and of 1; where the two
    // disagree, CPython raises TabError.
    SetPtr e = set;
    std::size_t level = hook.indents.size() - 1;
    if (hook.col > hook.indents[level]) {
      e = hook.altcol > hook.alt_indents[level] ? scan(e, {static_cast<std::uint16_t>(indent_)}) : nullptr;
    } else {
      while (e && hook.col < hook.indents[level]) {
        --level;
        e = scan(e, {static_cast<std::uint16_t>(dedent_)});
      }
      if (hook.indents[level] != hook.col || hook.alt_indents[level] != hook.altcol)
        e = nullptr;  // inconsistent dedent, or TabError
    }
    effective = std::move(e);
  }
  auto ps = std::allocate_shared<ParseState>(Recycled<ParseState>{}, std::move(hook));
  ps->set = std::move(set);
  ps->effective = std::move(effective);
  return ps;
}

StatePtr Grammar::initial() const { return initial_state_; }

std::uint64_t Grammar::intern_shape(const std::string& key) const {
  std::lock_guard<SpinLock> lock(mutex_);
  if (auto found = shapes_.find(key); found != shapes_.end()) return found->second;
  if (shapes_.size() >= kMaxShapes) shapes_.clear();
  shapes_.emplace(key, ++shape_count_);
  return shape_count_;
}

std::uint64_t Grammar::known_shape(const EarleySet& set, std::int32_t nt) const {
  std::lock_guard<SpinLock> lock(set.memo_lock);
  if (!set.shapes) return 0;
  if (nt < 0) return set.shapes->end;
  for (std::size_t i = 0; i < set.shapes->origin.size(); ++i)
    if (set.shapes->origin[i].first == nt) return set.shapes->origin[i].second;
  return 0;
}

std::uint64_t Grammar::set_shape(const EarleySet& set, std::int32_t nt) const {
  if (std::uint64_t known = known_shape(set, nt)) return known;
  // A set's items that a text can still reach: at the parse's end all its
  // open items (scans); in an earlier set (an origin), only those waiting on a
  // nonterminal that can complete there from now on: the left sides of the
  // later items begun there, closed under the items predicted there. A view
  // (set, nt) holds those for one left side `nt` (-1: the end). Views wait on
  // their origins' views, so they are made from a stack, not by recursion
  // (a text consumed without masks leaves a long chain unviewed).
  struct Task {
    const EarleySet* set;
    std::int32_t nt;
  };
  struct Scratch {
    std::vector<Task> todo;
    std::vector<std::int32_t> sides;
    std::vector<std::pair<const Item*, std::int32_t>> reach;  // (item, its left side)
    std::vector<std::uint32_t> own;  // predicted items reached (their suffix ids)
    std::vector<std::array<std::uint64_t, 2>> items;
    std::string key;
  };
  thread_local Scratch scratch;
  auto& [todo, sides, reach, own, items, key] = scratch;
  todo.assign(1, {&set, nt});
  bool predicted_waits = false;  // gather(): some predicted item waits on `x`
  auto gather = [&](const EarleySet& s, std::int32_t x) {
    reach.clear();
    own.clear();
    predicted_waits = false;
    if (x < 0) {
      for (const Item& it : s.kernel)
        if (it.dot < rules_[it.rule].rhs.size()) reach.emplace_back(&it, rules_[it.rule].lhs);
      return;
    }
    sides.assign(1, x);
    const auto& waiting = s.predicted->waiting;
    for (std::size_t i = 0; i < sides.size(); ++i)
      for (auto at = std::lower_bound(waiting.begin(), waiting.end(),
                                      std::pair<std::int32_t, std::uint32_t>{sides[i], 0});
           at != waiting.end() && at->first == sides[i]; ++at) {
        predicted_waits = true;  // sides grow only from `x`'s own run: it is found first
        const auto [rule, dot] = s.predicted->items[at->second];
        own.push_back(suffix_ids_[suffix_at_[rule] + dot]);
        const std::int32_t lhs = rules_[rule].lhs;
        if (std::find(sides.begin(), sides.end(), lhs) == sides.end()) sides.push_back(lhs);
      }
    for (std::int32_t y : sides)
      for (auto at = std::lower_bound(s.waiting.begin(), s.waiting.end(),
                                      std::pair<std::int32_t, std::uint32_t>{y, 0});
           at != s.waiting.end() && at->first == y; ++at) {
        const Item& it = s.kernel[at->second];
        reach.emplace_back(&it, rules_[it.rule].lhs);
      }
  };
  auto store = [](const EarleySet& s, std::int32_t x, std::uint64_t id) {
    std::lock_guard<SpinLock> lock(s.memo_lock);
    if (!s.shapes) s.shapes = std::make_unique<EarleySet::Shapes>();
    if (x < 0) s.shapes->end = id;
    else s.shapes->origin.push_back({x, id});
  };
  while (!todo.empty()) {
    const auto [s, x] = todo.back();
    if (known_shape(*s, x)) {
      todo.pop_back();
      continue;
    }
    gather(*s, x);
    // Items come in runs with one origin and left side: one look-up per run.
    items.clear();
    bool ready = true;
    const EarleySet* last = nullptr;
    std::int32_t last_lhs = 0;
    std::uint64_t view = 0;
    for (auto [it, lhs] : reach) {
      if (it->origin != last || lhs != last_lhs) {
        last = it->origin;
        last_lhs = lhs;
        view = known_shape(*last, lhs);
        if (!view) {
          todo.push_back({last, lhs});
          ready = false;
        }
      }
      items.push_back({suffix_ids_[suffix_at_[it->rule] + it->dot], view});
    }
    if (!ready) continue;
    todo.pop_back();
    // Where completing `x` here completes just one item, and that item then
    // completes at its origin (it waits on its last symbol; Leo's
    // deterministic reductions), this view is the origin's: so `- - - x` and
    // `not not x` nest no deeper in shape than `- x`.
    if (x >= 0 && !predicted_waits && reach.size() == 1 &&
        reach[0].first->dot + 1 == rules_[reach[0].first->rule].rhs.size()) {
      store(*s, x, items[0][1]);
      continue;
    }
    // At the end, the kernel's open items fix the predicted ones; in an
    // origin, those reached from `x` are named, each as its own origin.
    for (std::uint32_t id : own) items.push_back({id, ~std::uint64_t{0}});
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    const std::array<std::uint64_t, 2> head{static_cast<std::uint32_t>(x),
                                            x < 0 && s->complete ? 1u : 0u};
    key.assign(1, 's');  // a set's key; a state's begins with 'p'
    key.append(reinterpret_cast<const char*>(head.data()), sizeof head);
    key.append(reinterpret_cast<const char*>(items.data()), items.size() * sizeof items[0]);
    store(*s, x, intern_shape(key));
  }
  return known_shape(set, nt);
}

std::uint64_t Grammar::shape(const ParseState& ps) const {
  if (std::uint64_t known = ps.shape.load(std::memory_order_acquire)) return known;
  const HookState& h = ps.hook;
  std::vector<std::uint64_t> words{ps.set ? set_shape(*ps.set, -1) : 0,
                                   ps.effective ? set_shape(*ps.effective, -1) : 0,
                                   h.col,
                                   h.altcol,
                                   static_cast<std::uint32_t>(h.depth),
                                   static_cast<std::uint32_t>(h.fields),
                                   static_cast<std::uint64_t>(h.continued) | h.line_start << 1 |
                                       h.line_tokens << 2 | h.bodies << 3,
                                   h.indents.size(),
                                   h.heredocs.size()};
  for (std::size_t i = 0; i < h.indents.size(); ++i)
    words.push_back(static_cast<std::uint64_t>(h.indents[i]) << 32 | h.alt_indents[i]);
  std::string key(1, 'p');
  key.append(reinterpret_cast<const char*>(words.data()), words.size() * sizeof words[0]);
  for (const auto& [word, flags] : h.heredocs) {
    key.push_back(static_cast<char>(flags));
    key.append(std::to_string(word.size())).push_back(':');
    key.append(word);
  }
  const std::uint64_t id = intern_shape(key);
  ps.shape.store(id, std::memory_order_release);
  return id;
}

bool Grammar::start_nullable() const { return nullable_[~rules_[0].rhs[0]]; }

std::int32_t Grammar::start_config(const ParseState& ps, std::int32_t prev) const {
  if (!ps.set) return -1;
  // lookup_start() depends on `prev` only through the bytes that extend it
  // (and what may follow it directly, `glue`).
  const std::int32_t extends = prev >= 0 ? config(prev).extends_id * 4 + config(prev).glue : -1;
  const std::uint64_t last = ps.last_start.load(std::memory_order_acquire);
  if (last && static_cast<std::int32_t>((last >> 32) - 1) == extends)
    return static_cast<std::int32_t>((last & 0xFFFFFFFFull) - 1);
  const std::int32_t id = lookup_start(ps, prev);
  ps.last_start.store((static_cast<std::uint64_t>(static_cast<std::uint32_t>(extends + 1)) << 32) |
                          static_cast<std::uint32_t>(id + 1),
                      std::memory_order_release);
  return id;
}

std::int32_t Grammar::lookup_start(const ParseState& ps, std::int32_t prev) const {
  if (hook_ == Hook::kBash && ps.hook.bodies) {
    const auto& [delimiter, flags] = ps.hook.heredocs.front();
    if (!expects(*ps.set, heredoc_body_)) return -1;
    // Maximal munch here too: a body that ended on its delimiter without the
    // newline extends with any byte, so only the end of the input follows it.
    std::array<std::uint64_t, 4> forbid{};
    if (prev >= 0) forbid = config(prev).extends;
    return intern({{heredoc_terminal(delimiter, flags), 0}}, forbid, true, -1);
  }
  const EarleySet* base = ps.set.get();
  bool newline_ok = true;
  if (hook_ == Hook::kPython) {
    if (ps.hook.line_start) base = ps.effective.get();
    // (in a triple-quoted f-string's field a newline is whitespace)
    newline_ok = ps.hook.depth > 0 || !ps.hook.line_tokens ||
                 (ps.hook.fields > 0 && ps.hook.fields < HookState::kOneLineField) ||
                 expects(*ps.set, newline_);
  }
  // Ignored lexemes (blanks, comments) are absorbed by the lexer: after one,
  // it restarts in `home` without the parser (not where the hooks need them).
  // Inside an f-string's replacement field the hook must see a backslash-newline.
  const bool absorb = hook_ == Hook::kNone ||
                      (hook_ == Hook::kPython && !ps.hook.line_start && ps.hook.fields == 0);
  // Only the bytes that would extend the previous lexeme matter, not which
  // configuration it ended in: start configurations are shared by those.
  const std::int32_t expected = base ? base->expected_id : -1;
  const LexConfig* before = prev >= 0 ? &config(prev) : nullptr;
  const auto extends = static_cast<std::uint64_t>(before ? before->extends_id + 1 : 0);
  const std::uint8_t glue = before ? before->glue : 0;
  const std::uint8_t number = hook_ == Hook::kPython ? glue : 0;
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(expected)) << 32) |
                            extends << 4 | glue << 2 | (newline_ok ? 1 : 0) | (absorb ? 2 : 0);
  {
    std::lock_guard<SpinLock> lock(mutex_);
    auto it = start_configs_.find(key);
    if (it != start_configs_.end()) return it->second;
  }
  // The terminals a lexeme may start with; python: right after a number
  // (`glued`), only those CPython's tokenizer lets follow it.
  auto candidates = [&](bool glued) {
    std::vector<std::pair<std::uint16_t, std::int32_t>> items;
    bool name = false, bounded = false;
    if (base)
      for (std::uint16_t t : base->expected)
        if (terminals_[t].role == TermRole::kNormal && (!glued || after_number_[t])) {
          items.emplace_back(t, 0);
          name = name || t == name_;
          bounded = bounded || (name_ >= 0 && bounded_[t]);
        }
    for (std::uint16_t t : ignore_)
      if (newline_ok || terminals_[t].role != TermRole::kNewline) items.emplace_back(t, 0);
    // bash: a backslash-newline that the lexeme before cannot take (there is none, or it is a
    // newline or a heredoc body) is a lexeme of its own, dropped.
    if (continuation_ >= 0 && !items.empty() && !(before && (before->extends[1] >> ('\\' - 64) & 1)))
      items.emplace_back(static_cast<std::uint16_t>(continuation_), 0);
    // A keyword may not end where the NAME it begins goes on.
    if (!items.empty() && bounded && !name)
      items.emplace_back(static_cast<std::uint16_t>(name_ | kShadow), 0);
    std::sort(items.begin(), items.end());
    return items;
  };
  std::vector<std::pair<std::uint16_t, std::int32_t>> items = candidates(number != 0);
  std::int32_t id = -1;
  if (!items.empty()) {
    // Maximal munch: the new lexeme may not start with a byte that would
    // have extended the previous one (only bytes it can start with matter).
    std::array<std::uint64_t, 4> forbid{};
    if (before)
      for (int b = 0; b < 256; ++b) {
        if (!(before->extends[b >> 6] >> (b & 63) & 1)) continue;
        if (number == 2 && b == 'e') continue;  // python: `1else` is 1 else
        if (hook_ == Hook::kBash && b == '\\' && !(glue & 2)) continue;  // bash: a continuation only
        bool starts = false;
        for (auto [t, s] : items) starts = starts || (!(t & kShadow) && term(t).table[b] >= 0);
        if (starts) forbid[b >> 6] |= 1ull << (b & 63);
      }
    if (hook_ == Hook::kBash && (glue & 1))  // `;&` and `;;` are operators of their own
      for (int b : {'&', ';'}) forbid[b >> 6] |= 1ull << (b & 63);
    // After an ignored lexeme (a blank) the restriction after a number is gone.
    const std::int32_t home = absorb ? intern(number ? candidates(false) : items, {}, true, kSelf) : -1;
    id = home >= 0 && !number && forbid == std::array<std::uint64_t, 4>{}
             ? home
             : intern(std::move(items), forbid, true, home);
  }
  std::lock_guard<SpinLock> lock(mutex_);
  start_configs_.emplace(key, id);
  return id;
}

std::uint64_t Grammar::start_local(const ParseState& ps) const {
  if (hook_ == Hook::kPython)
    return ps.hook.line_start ? (1ull << 63) | static_cast<std::uint64_t>(ps.hook.altcol) << 32 | ps.hook.col
                              : 0;
  if (hook_ == Hook::kBash && !ps.hook.bodies && ps.set && expects(*ps.set, heredoc_start_))
    return 1ull << 62;
  return 0;
}

std::uint64_t Grammar::hook_local(std::uint64_t local, std::int32_t cfg, std::uint8_t b) const {
  if (!(local >> 63)) {  // bash: the delimiter word of a heredoc start
    if (!config(cfg).capture) return 0;
    auto node = static_cast<std::uint32_t>(local);
    const bool single = local >> 61 & 1, dbl = local >> 59 & 1;
    // `<<`, `-` and blanks before the word; quotes and backslashes only quote
    // it (bash removes them); inside quotes every other byte is the word's.
    constexpr std::uint64_t quoted = 1ull << 58, escape = 1ull << 57, blank = 1ull << 56;
    if (local & escape) {  // the byte after a backslash outside '...'
      local &= ~escape;
      if (b == '\n') return local;  // a line continuation: both go
      if (!dbl) local |= quoted;
      else if (b != '$' && b != '`' && b != '"' && b != '\\') node = delimiters_.child(node, '\\');
      return (local & ~0xFFFFFFFFull) | delimiters_.child(node, b);
    }
    if (b == '\'' && !dbl) return (local ^ 1ull << 61) | quoted;
    if (b == '"' && !single) return (local ^ 1ull << 59) | quoted;
    if (b == '\\' && !single) return local | escape;
    if (!single && !dbl) {
      if (b == '<') return local;
      if (b == ' ' || b == '\t') return local | blank;
      if (b == '-' && node == 0 && !(local >> 60 & 1) && !(local & blank)) return local | 1ull << 60;
    }
    return (local & ~0xFFFFFFFFull) | delimiters_.child(node, b);
  }
  if (!config(cfg).tracks) return 0;  // the column is never read again
  auto col = static_cast<std::uint32_t>(local);
  auto altcol = static_cast<std::uint32_t>(local >> 32 & 0x3FFFFFFF);
  switch (b) {
    case '\t': col = (col / 8 + 1) * 8; ++altcol; break;
    case '\f': col = altcol = 0; break;
    default: ++col; ++altcol; break;
  }
  return (1ull << 63) | static_cast<std::uint64_t>(altcol & 0x3FFFFFFF) << 32 | col;
}

std::int32_t Grammar::intern(std::vector<std::pair<std::uint16_t, std::int32_t>> items,
                             const std::array<std::uint64_t, 4>& forbid, bool fresh,
                             std::int32_t home) const {
  // `home` only matters while an absorbable (ignored) terminal is alive.
  bool absorbable = false;
  for (auto [t, s] : items) {
    if (t & kShadow) continue;
    TermRole r = term(t).role;
    absorbable = absorbable || r == TermRole::kIgnore || r == TermRole::kContinuation;
  }
  if (!absorbable) home = -1;
  // The key spells each item's fields (a pair's padding bytes are not its value).
  std::string key;
  key.reserve(items.size() * 6 + 1 + sizeof(home) + sizeof(forbid));
  for (auto [t, s] : items) {
    key.append(reinterpret_cast<const char*>(&t), sizeof(t));
    key.append(reinterpret_cast<const char*>(&s), sizeof(s));
  }
  key.push_back(fresh ? 1 : 0);
  key.append(reinterpret_cast<const char*>(&home), sizeof(home));
  if (fresh) key.append(reinterpret_cast<const char*>(forbid.data()), sizeof(forbid));
  std::lock_guard<SpinLock> lock(mutex_);
  auto found = config_ids_.find(key);
  if (found != config_ids_.end()) return found->second;
  const std::uint32_t id = config_count_.load();
  if (id >= limits::kMaxLexerStates)
    throw GrammarError("the lexer needs more than " + std::to_string(limits::kMaxLexerStates) +
                       " states (limits.kMaxLexerStates): the grammar's terminals are too large");
  LexConfig* chunk = chunks_[id >> kChunkBits].load();
  if (!chunk) {
    owned_.emplace_back(new LexConfig[kChunkSize]);
    chunk = owned_.back().get();
    chunks_[id >> kChunkBits].store(chunk, std::memory_order_release);
  }
  LexConfig& c = chunk[id & (kChunkSize - 1)];
  c.items = std::move(items);
  c.forbid = forbid;
  c.fresh = fresh;
  c.home = home == kSelf ? static_cast<std::int32_t>(id) : home;
  c.tracks = absorbable;
  if (!fresh) {
    // Among the terminals the lexeme matches, the highest rank wins; at equal
    // rank a grammar terminal beats an ignored one.
    std::int32_t top = INT32_MIN;
    for (auto [t, s] : c.items)
      if (!(t & kShadow) && term(t).accepting[s]) top = std::max(top, term(t).rank());
    bool token = false;
    for (auto [t, s] : c.items)
      token = token || (!(t & kShadow) && term(t).accepting[s] && term(t).rank() == top &&
                        is_token(term(t).role));
    if (top != INT32_MIN) {
      c.accepting = true;
      c.ignored = !token;
      for (auto [t, s] : c.items)
        if (!(t & kShadow) && term(t).accepting[s] && term(t).rank() == top &&
            is_token(term(t).role) == token)
          c.accepted.push_back(t);
    }
  }
  for (auto [t, s] : c.items) c.capture = c.capture || static_cast<std::int32_t>(t) == heredoc_start_;
  if (c.accepting) {
    std::string names(reinterpret_cast<const char*>(c.accepted.data()), c.accepted.size() * 2);
    c.accepted_id = accepted_ids_.emplace(std::move(names), static_cast<std::int32_t>(accepted_ids_.size()))
                        .first->second;
    c.plain = !c.ignored && term(c.accepted[0]).role != TermRole::kHeredoc &&
              std::find(c.accepted.begin(), c.accepted.end(), heredoc_start_) == c.accepted.end();
    auto is_number = [&](std::uint16_t t) { return t < number_.size() && number_[t]; };
    if (hook_ == Hook::kPython && !c.ignored &&
        std::any_of(c.accepted.begin(), c.accepted.end(), is_number)) {
      // CPython reads `e` after a decimal number as an exponent, and ends the
      // number before it when no digit follows.
      bool exponent = true;
      for (auto [t, s] : c.items)
        if (!(t & kShadow)) {
          const std::int32_t to = term(t).table[static_cast<std::size_t>(s) * 256 + 'e'];
          exponent = exponent && (to < 0 || !term(t).accepting[to]);
        }
      c.glue = exponent ? 2 : 1;
    }
    if (hook_ == Hook::kBash && !c.ignored && semicolon_ >= 0 &&
        std::find(c.accepted.begin(), c.accepted.end(), semicolon_) != c.accepted.end())
      c.glue = 1;
    if (hook_ == Hook::kBash)
      for (auto [t, s] : c.items)
        if (!(t & kShadow) && backslash_extends(term(t), s)) c.glue |= 2;
  }
  auto mark_moves = [&](const std::vector<std::pair<std::uint16_t, std::int32_t>>& from, bool real_only) {
    for (auto [t, s] : from) {
      if (real_only && (t & kShadow)) continue;
      const std::int32_t* row = &term(t & ~kShadow).table[static_cast<std::size_t>(s) * 256];
      for (int b = 0; b < 256; ++b)
        if (row[b] >= 0) c.extends[b >> 6] |= 1ull << (b & 63);
    }
  };
  mark_moves(c.items, false);
  if (!c.fresh && c.ignored && c.accepting && c.home >= 0 &&
      term(c.accepted[0]).role != TermRole::kNewline)  // compute_next restarts in `home`
    mark_moves(c.home == static_cast<std::int32_t>(id) ? c.items : config(c.home).items, true);
  std::string bits(reinterpret_cast<const char*>(c.extends.data()), sizeof(c.extends));
  c.extends_id = extends_ids_.emplace(std::move(bits), static_cast<std::int32_t>(extends_ids_.size()))
                     .first->second;
  config_ids_.emplace(std::move(key), static_cast<std::int32_t>(id));
  config_count_.store(id + 1, std::memory_order_release);
  return static_cast<std::int32_t>(id);
}

std::int32_t Grammar::compute_next(std::int32_t cfg, std::uint8_t b) const {
  const LexConfig& c = config(cfg);
  std::vector<std::pair<std::uint16_t, std::int32_t>> items;
  bool real = false;  // shadows alone make no lexeme
  for (auto [t, s] : c.items) {
    std::int32_t to = term(t & ~kShadow).table[static_cast<std::size_t>(s) * 256 + b];
    if (to >= 0) items.emplace_back(t, to);
    real = real || (to >= 0 && !(t & kShadow));
  }
  if (!real) items.clear();
  std::int32_t n = -1;
  if (!items.empty()) {
    n = intern(std::move(items), {}, false, c.home);
  } else if (c.home >= 0 && c.ignored && c.accepting &&
             term(c.accepted[0]).role != TermRole::kNewline) {
    // An ignored lexeme ends: the next one starts in the same parse.
    std::int32_t h = c.home;
    std::uint64_t local = 0;
    if (lex_step(h, local, b)) n = h;
  }
  const_cast<LexConfig&>(c).next[b].store(n, std::memory_order_release);
  return n;
}

StatePtr Grammar::finish_lexeme(const ParseState& ps, std::int32_t cfg, std::uint64_t local) const {
  const LexConfig& c = config(cfg);
  // Lexemes that end in different configurations often have the same
  // terminals: a plain lexeme's effect depends on those alone; the others'
  // on the configuration and the hook's value (bits 62-63 of `local` set).
  const std::uint64_t key = c.plain ? static_cast<std::uint64_t>(c.accepted_id)
                                    : (1ull << 32) | static_cast<std::uint32_t>(cfg);
  const std::uint64_t hook = c.plain || !(local >> 62) ? 0 : local;
  {
    std::lock_guard<SpinLock> lock(ps.next_lock);
    for (std::size_t i = 0; i < ps.next.size(); ++i)
      if (const auto& n = ps.next[i]; n.key == key && n.local == hook)
        if (StatePtr hit = n.state.lock()) return hit;
  }
  StatePtr out = finish_new(ps, c, local);
  // A step that leaves the parse where it was (`- - x`, `"a" "b" "c"`: the
  // same open items, origins aside, and the same shape) stays in `ps`: a run
  // of such lexemes inside a token, or in a text, costs one parser step.
  if (out.get() != &ps && same_future(ps, *out)) out = ps.shared_from_this();
  std::lock_guard<SpinLock> lock(ps.next_lock);
  for (std::size_t i = 0; i < ps.next.size(); ++i)
    if (auto& n = ps.next[i]; n.key == key && n.local == hook) {
      if (StatePtr hit = n.state.lock()) return hit;
      n.state = out;
      return out;
    }
  ps.next.push_back({key, hook, out});
  return out;
}

bool Grammar::same_future(const ParseState& a, const ParseState& b) const {
  if (!a.set || !b.set || !a.effective != !b.effective) return false;
  const EarleySet &x = *a.set, &y = *b.set;
  if (x.kernel.size() != y.kernel.size() || x.predicted != y.predicted || x.complete != y.complete ||
      a.hook.depth != b.hook.depth || a.hook.fields != b.hook.fields ||
      a.hook.line_start != b.hook.line_start || a.hook.indents.size() != b.hook.indents.size() ||
      a.hook.heredocs.size() != b.hook.heredocs.size())
    return false;
  for (std::size_t i = 0; i < x.kernel.size(); ++i)
    if (suffix_ids_[suffix_at_[x.kernel[i].rule] + x.kernel[i].dot] !=
        suffix_ids_[suffix_at_[y.kernel[i].rule] + y.kernel[i].dot])
      return false;
  return shape(a) == shape(b);
}

StatePtr Grammar::finish_new(const ParseState& ps, const LexConfig& c, std::uint64_t local) const {
  if (hook_ == Hook::kBash && !c.ignored) return finish_bash(ps, c, local);
  if (hook_ != Hook::kPython) {
    if (c.ignored) return ps.shared_from_this();
    return make_state(scan(ps.set, c.accepted), ps.hook);
  }
  HookState h = ps.hook;
  const bool continued = h.continued;
  h.continued = false;
  if (c.ignored) {
    switch (terminals_[c.accepted[0]].role) {
      case TermRole::kNewline: {
        // CPython 3.11: a newline ends a one-line f-string, even inside a field's
        // brackets; in a triple-quoted one's field it is whitespace.
        if (h.fields >= HookState::kOneLineField) return make_state(nullptr, std::move(h));
        if (h.fields > 0 || (h.depth > 0 && !continued)) return ps.shared_from_this();
        if (h.depth > 0) return make_state(ps.set, std::move(h));
        SetPtr s = ps.set;
        if (h.line_tokens) s = scan(s, {static_cast<std::uint16_t>(newline_)});
        h.line_start = true;
        h.line_tokens = false;
        h.col = h.altcol = 0;
        return make_state(std::move(s), std::move(h));
      }
      case TermRole::kContinuation:  // the input may not end right after it
        // CPython 3.11: "f-string expression part cannot include a backslash".
        if (h.fields > 0) return make_state(nullptr, std::move(h));
        if (continued) return ps.shared_from_this();
        h.continued = true;
        return make_state(ps.set, std::move(h));
      default:  // whitespace or a comment: at a line start it sets the column
        // CPython 3.11: "f-string expression part cannot include '#'".
        if (h.fields > 0 && terminals_[c.accepted[0]].comment) return make_state(nullptr, std::move(h));
        if (!h.line_start || !(local >> 63)) {
          if (!continued) return ps.shared_from_this();
          return make_state(ps.set, std::move(h));
        }
        h.col = static_cast<std::uint32_t>(local);
        h.altcol = static_cast<std::uint32_t>(local >> 32 & 0x3FFFFFFF);
        return make_state(ps.set, std::move(h));
    }
  }
  SetPtr base = ps.set;
  if (h.line_start) {
    base = ps.effective;
    if (h.col > h.indents.back()) {
      h.indents.push_back(h.col);
      h.alt_indents.push_back(h.altcol);
    }
    while (h.indents.size() > 1 && h.col < h.indents.back()) {
      h.indents.pop_back();
      h.alt_indents.pop_back();
    }
    h.line_start = false;
  }
  h.line_tokens = true;
  h.depth = std::max(0, h.depth + terminals_[c.accepted[0]].bracket);
  if (const std::int8_t f = terminals_[c.accepted[0]].fstring) {
    std::int32_t all = h.fields % HookState::kOneLineField, one_line = h.fields / HookState::kOneLineField;
    all = std::max(0, all + (f > 0 ? 1 : -1));
    if (f == 2 || f == -2) one_line = std::max(0, one_line + f / 2);
    h.fields = all + one_line * HookState::kOneLineField;
  }
  return make_state(scan(base, c.accepted), std::move(h));
}

StatePtr Grammar::finish_bash(const ParseState& ps, const LexConfig& c, std::uint64_t local) const {
  HookState h = ps.hook;
  std::vector<std::uint16_t> terms = c.accepted;
  auto has = [&](std::int32_t t) {
    return std::find(terms.begin(), terms.end(), static_cast<std::uint16_t>(t)) != terms.end();
  };
  if (term(terms[0]).role == TermRole::kHeredoc) {
    terms = {static_cast<std::uint16_t>(heredoc_body_)};
    h.heredocs.erase(h.heredocs.begin());
    h.bodies = !h.heredocs.empty();
  } else {
    if (has(heredoc_start_)) {
      auto node = static_cast<std::uint32_t>(local);
      if (!(local >> 62) || node == 0) return make_state(nullptr, h);
      std::string word = delimiters_.word(node);
      const auto flags = static_cast<std::uint8_t>((local >> 60 & 1 ? kHeredocDash : 0) |
                                                   (local >> 58 & 1 ? kHeredocQuoted : 0));
      h.heredocs.emplace_back(std::move(word), flags);
    }
    if (has(newline_) && !h.heredocs.empty()) h.bodies = true;
  }
  return make_state(scan(ps.set, terms), std::move(h));
}

WordTrie::WordTrie() {
  tables_.push_back(std::make_unique<Table>(64));
  table_.store(tables_.back().get(), std::memory_order_release);
}

std::uint32_t WordTrie::find(const Table& t, std::uint32_t edge) {
  for (std::size_t i = (edge * 0x9E3779B97F4A7C15ull) >> 32 & t.mask;; i = (i + 1) & t.mask) {
    const std::uint64_t slot = t.slots[i].load(std::memory_order_acquire);
    if (!slot) return 0;
    if (slot >> 32 == edge) return static_cast<std::uint32_t>(slot);
  }
}

void WordTrie::put(Table& t, std::uint64_t slot) {
  std::size_t i = ((slot >> 32) * 0x9E3779B97F4A7C15ull) >> 32 & t.mask;
  while (t.slots[i].load(std::memory_order_relaxed)) i = (i + 1) & t.mask;
  t.slots[i].store(slot, std::memory_order_release);
}

std::uint32_t WordTrie::child(std::uint32_t parent, std::uint8_t b) {
  const std::uint32_t edge = parent << 8 | b;
  if (std::uint32_t n = find(*table_.load(std::memory_order_acquire), edge)) return n;
  std::lock_guard<std::mutex> lock(mutex_);
  Table* t = tables_.back().get();
  if (std::uint32_t n = find(*t, edge)) return n;
  if (count_ >= kMaxNodes)
    throw GrammarError("heredoc delimiters read so far exceed " + std::to_string(kMaxNodes) +
                       " bytes (16 x limits.kMaxLexerStates)");
  const std::uint32_t n = count_++;
  auto& chunk = edges_[n >> kChunkBits];
  if (!chunk) chunk.reset(new std::uint32_t[kChunkSize]);
  chunk[n & (kChunkSize - 1)] = edge;
  if (2 * count_ > t->mask + 1) {  // grow: readers go on in the old table meanwhile
    auto bigger = std::make_unique<Table>(4 * (t->mask + 1));
    for (std::size_t i = 0; i <= t->mask; ++i)
      if (const std::uint64_t slot = t->slots[i].load(std::memory_order_relaxed)) put(*bigger, slot);
    tables_.push_back(std::move(bigger));
    t = tables_.back().get();
  }
  put(*t, static_cast<std::uint64_t>(edge) << 32 | n);
  table_.store(t, std::memory_order_release);
  return n;
}

std::string WordTrie::word(std::uint32_t node) const {
  std::string w;
  for (; node; node = edge(node) >> 8) w.push_back(static_cast<char>(edge(node)));
  std::reverse(w.begin(), w.end());
  return w;
}

std::uint32_t WordTrie::length(std::uint32_t node) const {
  std::uint32_t n = 0;
  for (; node; node = edge(node) >> 8) ++n;
  return n;
}

std::uint16_t Grammar::heredoc_terminal(const std::string& delimiter, std::uint8_t flags) const {
  const bool dash = flags & kHeredocDash, join = !(flags & kHeredocQuoted);
  std::string key = std::string(dash ? "-" : "+") + (join ? "u" : "q") + delimiter;
  std::lock_guard<SpinLock> lock(mutex_);
  auto found = heredoc_terms_.find(key);
  if (found != heredoc_terms_.end()) return found->second;
  if (dynamic_.size() >= kMaxHeredocTerminals)
    throw GrammarError("more than " + std::to_string(kMaxHeredocTerminals) + " heredoc delimiters");
  // Lines up to and including the first one equal to the delimiter. States:
  // 0 line start, k in 1..n: k bytes of the delimiter read, n + 1 the rest of
  // a line that is not the delimiter, n + 2 after the delimiter's newline.
  // Unquoted delimiter (bash reads the body as in double quotes): n + 3 + s,
  // a backslash read in state s; with a newline after it both vanish and the
  // line goes on (the delimiter, unquoted, has no backslash); any other byte
  // after it is kept as it is.
  const auto n = static_cast<std::int32_t>(delimiter.size());
  const std::int32_t states = join ? 2 * n + 5 : n + 3;
  auto t = std::make_unique<Terminal>();
  t->name = "HEREDOC_BODY<" + key + ">";
  t->role = TermRole::kHeredoc;
  t->table.assign(static_cast<std::size_t>(states) * 256, -1);
  t->accepting.assign(static_cast<std::size_t>(states), 0);
  t->accepting[n] = t->accepting[n + 2] = 1;
  auto row = [&](std::int32_t s) { return t->table.begin() + static_cast<std::ptrdiff_t>(s) * 256; };
  for (std::int32_t s = 0; s <= n + 1; ++s) {
    std::fill(row(s), row(s) + 256, n + 1);
    row(s)['\n'] = s == n ? n + 2 : 0;
    if (s < n) row(s)[static_cast<std::uint8_t>(delimiter[s])] = s + 1;
    if (join) {
      row(s)['\\'] = n + 3 + s;
      std::fill(row(n + 3 + s), row(n + 3 + s) + 256, n + 1);
      row(n + 3 + s)['\n'] = s;
    }
  }
  if (dash) row(0)['\t'] = 0;
  dynamic_.push_back(std::move(t));
  dynamic_index_[dynamic_.size() - 1].store(dynamic_.back().get(), std::memory_order_release);
  auto id = static_cast<std::uint16_t>(terminals_.size() + dynamic_.size() - 1);
  heredoc_terms_.emplace(std::move(key), id);
  return id;
}

SetPtr Grammar::at_end(const ParseState& ps) const {
  if (hook_ == Hook::kBash && !ps.hook.heredocs.empty()) return nullptr;
  if (hook_ != Hook::kPython) return ps.set;
  if (ps.hook.depth > 0 || ps.hook.continued) return nullptr;
  SetPtr s = ps.set;
  if (ps.hook.line_tokens) s = scan(s, {static_cast<std::uint16_t>(newline_)});
  for (std::size_t i = 1; i < ps.hook.indents.size(); ++i) s = scan(s, {static_cast<std::uint16_t>(dedent_)});
  return s;
}

bool Grammar::can_finish(const ParseState& ps) const {
  std::int8_t known = ps.finish.load(std::memory_order_relaxed);
  if (known >= 0) return known;
  SetPtr end = ps.set ? at_end(ps) : nullptr;
  bool ok = end && end->complete;
  ps.finish.store(ok ? 1 : 0, std::memory_order_relaxed);
  return ok;
}

bool Grammar::validate(std::string_view text, bool strict) const {
  struct Pos {
    StatePtr ps;
    std::int32_t cfg;
    std::uint64_t local;
  };
  auto fresh = [&](const StatePtr& ps, std::int32_t prev) {
    return Pos{ps, start_config(*ps, prev), start_local(*ps)};
  };
  std::vector<Pos> now{fresh(initial(), -1)}, next;
  for (char ch : text) {
    next.clear();
    for (const Pos& p : now) {
      std::int32_t cfg = p.cfg;
      std::uint64_t local = p.local;
      if (cfg < 0 || !lex_step(cfg, local, static_cast<std::uint8_t>(ch))) continue;
      next.push_back(Pos{p.ps, cfg, local});
      if (lex_accepting(cfg)) {
        StatePtr done = finish_lexeme(*p.ps, cfg, local);
        if (done->set) next.push_back(fresh(done, cfg));
      }
    }
    now.swap(next);
    if (now.empty()) return false;
  }
  if (!strict) return true;
  for (const Pos& p : now) {
    if (p.cfg < 0 || config(p.cfg).fresh) {
      if (can_finish(*p.ps)) return true;
    } else if (lex_accepting(p.cfg) && can_finish(*finish_lexeme(*p.ps, p.cfg, p.local))) {
      return true;
    }
  }
  return false;
}

}  // namespace pse::grammar
