#include "pse_core/mask_cache.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "grammar/grammar.h"
#include "nodes/leaf.h"
#include "pse_core/class_index.h"
#include "pse_core/limits.h"
#include "pse_core/trie.h"
#include "support/bitset.h"
#include "support/machine_edits.h"

namespace pse {

namespace {

struct Builder {
  const Frame& leaf;
  const std::vector<TrieMap::Node>& nodes;
  const TrieMap& trie;
  /// Lexer leaves: record the exits before bytes that extend the lexeme
  /// (and nothing else), instead of the tokens and the other exits.
  bool extending = false;
  std::array<std::uint64_t, 4> extending_left{};  ///< the bytes of those not recorded
  std::vector<std::int32_t> inside{};
  std::vector<std::uint32_t> exits{};      ///< trie nodes
  std::vector<std::uint8_t> exit_bytes{};  ///< their bytes
  struct LexerExit {
    std::int32_t state;
    std::uint64_t local;
    std::uint32_t node;
    std::uint8_t byte;  ///< the node's (sorting reads it here, not in the trie)
  };
  std::vector<LexerExit> lexer_exits{};

  void walk(std::uint32_t u, std::int32_t state, std::uint64_t local) {
    const TrieMap::Children cs = trie.children(u);
    for (std::uint32_t k = 0; k < cs.size; ++k) child(cs.nodes[k], cs.bytes[k], state, local);
  }

  /// Trie node `c` (of byte `byte`), whose parent the leaf reached in (state, local).
  void child(std::uint32_t c, std::uint8_t byte, std::int32_t state, std::uint64_t local) {
    if (leaf::step(leaf.kind, *leaf.node, state, local, byte)) reached(c, state, local);
  }

  /// Trie node `c`, which the leaf reached in (state, local).
  void reached(std::uint32_t c, std::int32_t s, std::uint64_t l) {
    const TrieMap::Node& n = nodes[c];
    if (!extending) inside.insert(inside.end(), trie.ids(n), trie.ids(n) + (n.ids_end - n.ids_begin));
    if (n.end == c + 1) return;  // no children
    if (!leaf::accepting(leaf.kind, *leaf.node, s, l)) return walk(c, s, l);
    const TrieMap::Children cs = trie.children(c);
    if (leaf.kind != Kind::kLexer) {
      exits.insert(exits.end(), cs.nodes, cs.nodes + cs.size);
      exit_bytes.insert(exit_bytes.end(), cs.bytes, cs.bytes + cs.size);
      return walk(c, s, l);
    }
    const grammar::Grammar& g = *leaf.node->grammar;
    for (std::uint32_t k = 0; k < cs.size; ++k) {
      // Each child is an exit. Inside the grammar a lexeme never ends before
      // a byte that extends it (maximal munch, Grammar::munches: a byte the
      // lexeme takes, but for a backslash under the bash hook); only a parent
      // after the grammar may take it.
      const std::uint8_t b = cs.bytes[k];
      std::int32_t t = s;
      std::uint64_t m = l;
      const bool takes = g.lex_step(t, m, b);
      const bool extends = takes && (b != '\\' || g.munches(s, b));
      if (extends == extending) lexer_exits.push_back({s, l, cs.nodes[k], b});
      else if (extends) extending_left[b >> 6] |= std::uint64_t{1} << (b & 63);
      if (takes) reached(cs.nodes[k], t, m);
    }
  }
};

/// A DFA state's run: the bytes its most common next state reads (`set`),
/// and how many of them in a row lead through states that read the whole set
/// to one next state, none of them accepting (so that no exit lies inside
/// the run). `states[k]`: the state after k bytes of the set.
struct Run {
  ClassIndex::Set set{};
  std::vector<std::int32_t> states;
};

/// The run from `state`; none (empty states) when too few bytes share a
/// next state for an index to pay.
Run dfa_run(const StateMachine& n, std::int32_t state) {
  constexpr int kMinBytes = 4;
  Run run;
  std::vector<int> per_class(n.classes, 0);
  for (int b = 0; b < 256; ++b) ++per_class[n.byte_class[b]];
  const std::int32_t* row = &n.transitions[static_cast<std::size_t>(state) * n.classes];
  // The next state most bytes go to (ties: the lowest), dead excluded.
  std::vector<int> to(n.accepting.size(), 0);
  for (std::uint32_t c = 0; c < n.classes; ++c)
    if (row[c] >= 0) to[row[c]] += per_class[c];
  std::int32_t best = -1;
  for (std::size_t t = 0; t < to.size(); ++t)
    if (to[t] >= kMinBytes && (best < 0 || to[t] > to[best])) best = static_cast<std::int32_t>(t);
  if (best < 0) return run;
  std::vector<std::uint8_t> in_set(n.classes, 0);
  for (std::uint32_t c = 0; c < n.classes; ++c) in_set[c] = row[c] == best;
  for (int b = 0; b < 256; ++b)
    if (in_set[n.byte_class[b]]) run.set[b >> 6] |= std::uint64_t{1} << (b & 63);
  run.states.push_back(state);
  return run;
}

/// Extend `run` while the last state reads the whole set to one live,
/// non-accepting state, up to `depth` bytes; false when an accepting state
/// is met (the run's nodes would have exits).
bool extend_run(const StateMachine& n, Run& run, std::uint32_t depth) {
  std::vector<std::uint32_t> classes;
  for (int b = 0; b < 256; ++b)
    if (ClassIndex::has(run.set, static_cast<std::uint8_t>(b))) classes.push_back(n.byte_class[b]);
  while (run.states.size() <= depth) {
    const std::size_t from = static_cast<std::size_t>(run.states.back()) * n.classes;
    const std::int32_t* row = &n.transitions[from];
    const std::int32_t next = row[classes.front()];
    for (std::uint32_t c : classes)
      if (row[c] != next) return true;  // the set splits here
    if (next < 0) return true;
    if (n.accepting[next]) return false;
    run.states.push_back(next);
  }
  return true;
}

/// Walks a JSON string leaf without length bounds, recording for each token
/// the room (characters past the current count) the bounds must leave, and
/// for tokens that close the string the characters it holds by then.
struct StringWalker {
  const std::vector<TrieMap::Node>& nodes;
  const TrieMap& trie;
  std::vector<std::pair<std::int32_t, MaskCache::StringProfile::Need>> ids;
  std::vector<std::pair<std::uint32_t, MaskCache::StringProfile::Need>> exits;

  void walk(std::uint32_t u, std::int32_t state, std::uint64_t local, std::uint32_t room) {
    using json_string::count;
    for (std::uint32_t c = u + 1; c < nodes[u].end; c = nodes[c].end) {
      const std::uint8_t b = nodes[c].byte;
      std::int32_t s = state;
      std::uint64_t l = local;
      if (!json_string::step_within(0, UINT32_MAX, s, l, b)) continue;
      // A byte that a maximum of count() characters refuses needs one more.
      std::int32_t ts = state;
      std::uint64_t tl = local;
      std::uint32_t r = room;
      if (!json_string::step_within(0, count(local), ts, tl, b)) r = std::max(r, count(local) + 1);
      const bool closed = s == json_string::kClosed;
      MaskCache::StringProfile::Need need{r, count(local), closed};
      const TrieMap::Node& n = nodes[c];
      for (const std::int32_t* id = trie.ids(n); id != trie.ids(n) + (n.ids_end - n.ids_begin); ++id)
        ids.emplace_back(*id, need);
      if (closed) {  // the string is over: the rest of a token goes below
        for (std::uint32_t d = c + 1; d < n.end; d = nodes[d].end) exits.emplace_back(d, need);
        continue;
      }
      if (n.end > c + 1) walk(c, s, l, r);
    }
  }
};

}  // namespace

const MaskCache::StringProfile& MaskCache::string_profile(const Key& key, const TrieMap& trie,
                                                          std::size_t vocab_size) {
  // Bounds and count are not part of the profile: only the state, the partial
  // character or escape (local's high half) and the trie node.
  Key pkey{0, key.local & 0xFFFFFFFF00000000ull, key.state, key.kind, key.root};
  auto [it, fresh] = string_profiles_.try_emplace(pkey, nullptr);
  if (!fresh) return *it->second;
  StringWalker w{trie.nodes(), trie, {}, {}};
  w.walk(key.root, key.state, pkey.local, 0);
  auto p = std::make_unique<StringProfile>();
  // Open tokens first, by room (a counting sort: rooms are below the span),
  // then the closing ones in trie order.
  std::vector<std::size_t> slot;
  for (const auto& [id, need] : w.ids) {
    if (need.closed) continue;
    if (slot.size() <= need.room + 1) slot.resize(need.room + 2, 0);
    ++slot[need.room + 1];
    ++p->open;
  }
  for (std::size_t r = 1; r < slot.size(); ++r) slot[r] += slot[r - 1];
  p->ids.resize(w.ids.size());
  p->id_needs.resize(w.ids.size());
  p->open_dense.assign((vocab_size + 31) / 32, 0);
  std::size_t closed_at = p->open;
  for (const auto& [id, need] : w.ids) {
    const std::size_t at = need.closed ? closed_at++ : slot[need.room]++;
    p->ids[at] = id;
    p->id_needs[at] = need;
    if (!need.closed) p->open_dense[id >> 5] |= 1u << (id & 31);
  }
  const auto& nodes = trie.nodes();
  std::stable_sort(w.exits.begin(), w.exits.end(), [&](const auto& x, const auto& y) {
    return nodes[x.first].byte < nodes[y.first].byte;
  });
  for (const auto& [node, need] : w.exits) {
    p->exit_nodes.push_back(node);
    p->exit_needs.push_back(need);
  }
  it->second = std::move(p);
  return *it->second;
}

void MaskCache::prepare(const TrieMap& trie, std::size_t vocab_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::int32_t kind = static_cast<std::int32_t>(Kind::kString);
  for (std::int32_t state : {json_string::kOpen, json_string::kContent})
    string_profile(Key{0, 0, state, kind, 0}, trie, vocab_size);
  // The character classes patterns and formats use most.
  for (std::string_view ranges : {"09", "az", "AZ", "09az__", "09AZ__az", "09af", "09AFaf"}) {
    ClassIndex::Set set{};
    for (std::size_t i = 0; i < ranges.size(); i += 2)
      for (int b = ranges[i]; b <= ranges[i + 1]; ++b) set[b >> 6] |= std::uint64_t{1} << (b & 63);
    class_index(set, trie, vocab_size, true);
  }
}

std::size_t MaskEntry::bytes() const {
  return dense.size() * 4 + sparse.size() * 4 + exit_begin.size() * 4 + exit_nodes.size() * 4 +
         exit_bytes.size() + lexer_groups.size() * sizeof(LexerGroup) + lexer_nodes.size() * 4;
}

std::size_t MaskCache::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = k.uid * 0x9E3779B97F4A7C15ull;
  h ^= k.local + 0xBF58476D1CE4E5B9ull + (h << 6) + (h >> 2);
  h ^= (static_cast<std::uint64_t>(k.state) << 8 | static_cast<std::uint64_t>(k.kind)) +
       (h << 6) + (h >> 2);
  h ^= static_cast<std::uint64_t>(k.root) * 0xD6E8FEB86659FD93ull + (h << 6) + (h >> 2);
  return static_cast<std::size_t>(h);
}

MaskCache::Key MaskCache::key(const Frame& leaf, std::uint32_t root, std::uint32_t span) {
  return Key{leaf.node->leaf_class(), leaf::canonical(leaf.kind, *leaf.node, leaf.local, span),
             leaf.state, static_cast<std::int32_t>(leaf.kind), root};
}

std::shared_ptr<const MaskEntry> MaskCache::get(const Key& key, const Frame& leaf,
                                                 const TrieMap& trie, std::size_t vocab_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) return it->second;
  std::shared_ptr<const MaskEntry> entry = build(key, leaf, trie, vocab_size);
  const std::size_t size = entry->bytes();
  if (bytes_ + size > limit()) {
    entries_.clear();
    bytes_ = 0;
    generation_.fetch_add(1, std::memory_order_relaxed);
  }
  bytes_ += size;
  entries_.emplace(key, entry);
  // Entries of leaf classes no live machine has can never be asked for again.
  drop_dead_classes(entries_, swept_size_, swept_deaths_,
                    [this](const auto& dropped) { bytes_ -= dropped->bytes(); });
  return entry;
}

std::unique_ptr<MaskEntry> MaskCache::build(const Key& key, const Frame& leaf,
                                            const TrieMap& trie, std::size_t vocab_size) {
  auto entry = std::make_unique<MaskEntry>();
  const auto& nodes = trie.nodes();
  const std::size_t words = (vocab_size + 31) / 32;
  std::vector<std::uint32_t> exits;
  std::vector<std::uint8_t> exit_bytes;  // parallel to `exits`
  if (leaf.kind == Kind::kString) {
    // Filter the bound-free profile: tokens within the room left, closing
    // ones only once the minimum length is reached.
    const StringProfile& p = string_profile(key, trie, vocab_size);
    const std::uint32_t need = static_cast<std::uint32_t>(key.local & 0xFFFF);
    const std::uint32_t room = static_cast<std::uint32_t>((key.local >> 16) & 0xFFFF);
    auto fits = [&](const StringProfile::Need& n) {
      return n.room <= room && (!n.closed || n.count >= need);
    };
    const auto open_end = p.id_needs.begin() + static_cast<std::ptrdiff_t>(p.open);
    const std::size_t open = static_cast<std::size_t>(
        std::upper_bound(p.id_needs.begin(), open_end, room,
                         [](std::uint32_t r, const StringProfile::Need& n) { return r < n.room; }) -
        p.id_needs.begin());
    std::size_t inside = open;
    for (std::size_t i = p.open; i < p.ids.size(); ++i) inside += fits(p.id_needs[i]);
    if (inside * limits::kSparseDivisor > vocab_size) {
      if (2 * open > p.open) {  // most open tokens fit: clear the few that do not
        entry->dense = p.open_dense;
        for (std::size_t i = open; i < p.open; ++i)
          entry->dense[p.ids[i] >> 5] &= ~(1u << (p.ids[i] & 31));
      } else {
        entry->dense.assign(words, 0);
        for (std::size_t i = 0; i < open; ++i) entry->dense[p.ids[i] >> 5] |= 1u << (p.ids[i] & 31);
      }
      for (std::size_t i = p.open; i < p.ids.size(); ++i)
        if (fits(p.id_needs[i])) entry->dense[p.ids[i] >> 5] |= 1u << (p.ids[i] & 31);
    } else {
      entry->sparse.assign(p.ids.begin(), p.ids.begin() + static_cast<std::ptrdiff_t>(open));
      for (std::size_t i = p.open; i < p.ids.size(); ++i)
        if (fits(p.id_needs[i])) entry->sparse.push_back(p.ids[i]);
    }
    for (std::size_t i = 0; i < p.exit_nodes.size(); ++i)
      if (fits(p.exit_needs[i])) {
        exits.push_back(p.exit_nodes[i]);
        exit_bytes.push_back(nodes[p.exit_nodes[i]].byte);
      }
  } else {
    Builder b{leaf, nodes, trie, (key.kind & kExtendingExits) != 0};
    // A DFA from the root: the tokens of its state's run come from the
    // vocabulary's index of the run's byte set; only the trie nodes that
    // leave the set, or go past the run, are stepped.
    const ClassIndex* index = nullptr;
    std::uint32_t length = 0;  // of the run
    if (leaf.kind == Kind::kDfa && key.root == 0 && leaf.state >= 0) {
      Run run = dfa_run(*leaf.node, leaf.state);
      if (!run.states.empty()) index = class_index(run.set, trie, vocab_size, false);
      if (index && !extend_run(*leaf.node, run, index->depth())) index = nullptr;
      if (index) {
        length = static_cast<std::uint32_t>(run.states.size() - 1);
        const StateMachine& n = *leaf.node;
        for (std::uint32_t d = 0; d <= length; ++d) {
          const std::size_t from = static_cast<std::size_t>(run.states[d]) * n.classes;
          const std::int32_t* row = &n.transitions[from];
          const std::uint32_t* at = &index->boundary_at[257 * d];
          for (int byte = 0; byte < 256; ++byte)
            if (at[byte] != at[byte + 1] && row[n.byte_class[byte]] >= 0)
              for (std::uint32_t i = at[byte]; i < at[byte + 1]; ++i)
                b.child(index->boundary[i], static_cast<std::uint8_t>(byte), run.states[d], 0);
        }
        if (length < index->depth())  // in-set nodes past the run
          for (std::uint32_t i = index->node_end[length]; i < index->node_end[length + 1]; ++i)
            b.child(index->nodes[i], nodes[index->nodes[i]].byte, run.states[length], 0);
      }
    }
    if (!index) b.walk(key.root, leaf.state, leaf.local);
    const std::size_t from_index = index && length ? index->id_end[length] : 0;
    if ((from_index + b.inside.size()) * limits::kSparseDivisor > vocab_size) {
      if (from_index) entry->dense = index->dense[length - 1];
      else entry->dense.assign(words, 0);
      for (std::int32_t id : b.inside) entry->dense[id >> 5] |= 1u << (id & 31);
    } else {
      if (from_index) entry->sparse.assign(index->ids.begin(), index->ids.begin() + from_index);
      entry->sparse.insert(entry->sparse.end(), b.inside.begin(), b.inside.end());
    }
    std::sort(b.lexer_exits.begin(), b.lexer_exits.end(), [](const auto& x, const auto& y) {
      if (x.state != y.state) return x.state < y.state;
      if (x.local != y.local) return x.local < y.local;
      if (x.byte != y.byte) return x.byte < y.byte;
      return x.node < y.node;
    });
    const auto& lexer = b.lexer_exits;
    for (std::size_t i = 0; i < lexer.size(); ++i) {
      if (i == 0 || lexer[i].state != lexer[i - 1].state || lexer[i].local != lexer[i - 1].local) {
        const auto at = static_cast<std::uint32_t>(i);
        entry->lexer_groups.push_back({lexer[i].state, lexer[i].local, at, at});
      }
      ++entry->lexer_groups.back().end;
      entry->lexer_nodes.push_back(lexer[i].node);
    }
    entry->extending_bytes = b.extending_left;
    exits = std::move(b.exits);
    exit_bytes = std::move(b.exit_bytes);
  }
  if (!entry->dense.empty()) entry->dense_count = count_bits(entry->dense.data(), entry->dense.size());
  if (!exits.empty()) {
    // Grouped by byte: a counting sort (a mask does not depend on the order
    // of the nodes of one byte).
    std::array<std::uint32_t, 257> start{};
    for (std::uint8_t byte : exit_bytes) ++start[byte + 1];
    for (int byte = 0; byte < 256; ++byte) {
      if (start[byte + 1]) {
        entry->exit_bytes.push_back(static_cast<std::uint8_t>(byte));
        entry->exit_begin.push_back(start[byte]);
      }
      start[byte + 1] += start[byte];
    }
    entry->exit_begin.push_back(static_cast<std::uint32_t>(exits.size()));
    entry->exit_nodes.resize(exits.size());
    for (std::size_t i = 0; i < exits.size(); ++i)
      entry->exit_nodes[start[exit_bytes[i]]++] = exits[i];
  }
  return entry;
}

const ClassIndex* MaskCache::class_index(const ClassIndex::Set& set, const TrieMap& trie,
                                         std::size_t vocab_size, bool now) {
  auto it = class_indexes_.find(set);
  if (it != class_indexes_.end() && it->second.index) return it->second.index.get();
  // An index costs about two walks of the set: built when the set comes
  // back, within bounds on the sets seen and the indexes' bytes (else the
  // walk stays the way).
  if (it == class_indexes_.end()) {
    if (!now && class_indexes_.size() >= kClassSets) return nullptr;
    it = class_indexes_.try_emplace(set).first;
  }
  ClassSlot& slot = it->second;
  if (!now && (++slot.asked < 2 || class_index_bytes_ >= kClassIndexBytes)) return nullptr;
  slot.index = std::make_unique<ClassIndex>(trie, set, vocab_size);
  class_index_bytes_ += slot.index->bytes();
  return slot.index.get();
}

std::size_t MaskCache::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

std::size_t MaskCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace pse
