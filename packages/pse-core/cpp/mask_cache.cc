#include "pse_core/mask_cache.h"

#include <algorithm>
#include <array>

#include "nodes/leaf.h"
#include "pse_core/limits.h"
#include "pse_core/trie.h"

namespace pse {

namespace {

struct Builder {
  const Frame& leaf;
  const std::vector<TrieMap::Node>& nodes;
  const TrieMap& trie;
  std::vector<std::int32_t> inside;
  std::array<std::vector<std::uint32_t>, 256> exits;
  std::vector<MaskEntry::LexerExit> lexer_exits;

  void walk(std::uint32_t u, std::int32_t state, std::uint64_t local) {
    for (std::uint32_t c = u + 1; c < nodes[u].end; c = nodes[c].end) {
      std::int32_t s = state;
      std::uint64_t l = local;
      if (!leaf::step(leaf.kind, *leaf.node, s, l, nodes[c].byte)) continue;
      const TrieMap::Node& n = nodes[c];
      inside.insert(inside.end(), trie.ids(n), trie.ids(n) + (n.ids_end - n.ids_begin));
      if (n.end == c + 1) continue;  // no children
      if (leaf::accepting(leaf.kind, *leaf.node, s, l))
        for (std::uint32_t d = c + 1; d < n.end; d = nodes[d].end) {
          if (leaf.kind != Kind::kLexer) {
            exits[nodes[d].byte].push_back(d);
            continue;
          }
          // Inside the grammar a lexeme never ends before a byte that extends
          // it (maximal munch); only a parent after the grammar may take it.
          std::int32_t s2 = s;
          std::uint64_t l2 = l;
          bool extends = leaf::step(leaf.kind, *leaf.node, s2, l2, nodes[d].byte);
          lexer_exits.push_back({s, l, d, extends});
        }
      walk(c, s, l);
    }
  }
};

}  // namespace

std::size_t MaskEntry::bytes() const {
  return dense.size() * 4 + sparse.size() * 4 + exit_offsets.size() * 4 + exit_nodes.size() * 4 +
         exit_bytes.size() + lexer_exits.size() * sizeof(LexerExit);
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

const MaskEntry& MaskCache::get(const Key& key, const Frame& leaf, const TrieMap& trie,
                                std::size_t vocab_size) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) return *it->second;

  Builder b{leaf, trie.nodes(), trie, {}, {}, {}};
  b.walk(key.root, leaf.state, leaf.local);
  auto entry = std::make_unique<MaskEntry>();
  if (b.inside.size() * limits::kSparseDivisor > vocab_size) {
    entry->dense.assign((vocab_size + 31) / 32, 0);
    for (std::int32_t id : b.inside) entry->dense[id >> 5] |= 1u << (id & 31);
  } else {
    entry->sparse = std::move(b.inside);
  }
  const auto& nodes = trie.nodes();
  std::sort(b.lexer_exits.begin(), b.lexer_exits.end(), [&](const auto& x, const auto& y) {
    if (x.state != y.state) return x.state < y.state;
    if (x.local != y.local) return x.local < y.local;
    if (x.extends != y.extends) return y.extends;
    if (nodes[x.node].byte != nodes[y.node].byte) return nodes[x.node].byte < nodes[y.node].byte;
    return x.node < y.node;
  });
  entry->lexer_exits = std::move(b.lexer_exits);
  std::size_t total = 0;
  for (const auto& e : b.exits) total += e.size();
  if (total) {
    entry->exit_offsets.resize(257);
    entry->exit_nodes.reserve(total);
    for (int byte = 0; byte < 256; ++byte) {
      entry->exit_offsets[byte] = static_cast<std::uint32_t>(entry->exit_nodes.size());
      if (!b.exits[byte].empty()) entry->exit_bytes.push_back(static_cast<std::uint8_t>(byte));
      entry->exit_nodes.insert(entry->exit_nodes.end(), b.exits[byte].begin(), b.exits[byte].end());
    }
    entry->exit_offsets[256] = static_cast<std::uint32_t>(entry->exit_nodes.size());
  }
  return *entries_.emplace(key, std::move(entry)).first->second;
}

std::size_t MaskCache::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

std::size_t MaskCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t total = 0;
  for (const auto& [k, e] : entries_) total += e->bytes();
  return total;
}

}  // namespace pse
