#include "pse_core/class_index.h"

#include <algorithm>

namespace pse {

ClassIndex::ClassIndex(const TrieMap& trie, const Set& set, std::size_t vocab_size) {
  const auto& all = trie.nodes();
  // Breadth first: one level of in-set nodes at a time.
  std::vector<std::uint32_t> level{0}, next;
  node_end.push_back(0);
  id_end.push_back(0);
  std::vector<std::uint32_t> out;  // this level's children outside the set
  while (!level.empty()) {
    next.clear();
    out.clear();
    for (std::uint32_t u : level)
      for (std::uint32_t c = u + 1; c < all[u].end; c = all[c].end)
        (has(set, all[c].byte) ? next : out).push_back(c);
    std::stable_sort(out.begin(), out.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return all[x].byte < all[y].byte; });
    std::size_t i = 0;
    for (int b = 0; b < 256; ++b) {
      boundary_at.push_back(static_cast<std::uint32_t>(boundary.size()));
      for (; i < out.size() && all[out[i]].byte == b; ++i) boundary.push_back(out[i]);
    }
    boundary_at.push_back(static_cast<std::uint32_t>(boundary.size()));
    if (next.empty()) break;
    for (std::uint32_t c : next) {
      nodes.push_back(c);
      const TrieMap::Node& n = all[c];
      ids.insert(ids.end(), trie.ids(n), trie.ids(n) + (n.ids_end - n.ids_begin));
    }
    node_end.push_back(static_cast<std::uint32_t>(nodes.size()));
    id_end.push_back(static_cast<std::uint32_t>(ids.size()));
    level.swap(next);
  }
  const std::size_t words = (vocab_size + 31) / 32;
  std::vector<std::uint32_t> bits(words, 0u);
  for (std::size_t d = 1; d < id_end.size(); ++d) {
    for (std::uint32_t i = id_end[d - 1]; i < id_end[d]; ++i)
      bits[ids[i] >> 5] |= 1u << (ids[i] & 31);
    dense.push_back(bits);
  }
}

std::size_t ClassIndex::bytes() const {
  std::size_t n = (nodes.size() + node_end.size() + ids.size() + id_end.size() + boundary.size() +
                   boundary_at.size()) * 4;
  for (const auto& d : dense) n += d.size() * 4;
  return n;
}

}  // namespace pse
