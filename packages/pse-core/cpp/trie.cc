#include "pse_core/trie.h"

#include <algorithm>

namespace pse {

void TrieMap::insert(std::string_view key, std::int32_t id) {
  auto& ids = keys_[std::string(key)];
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  dirty_ = true;
}

const std::vector<std::int32_t>* TrieMap::get(std::string_view key) const {
  auto it = keys_.find(std::string(key));
  return it == keys_.end() ? nullptr : &it->second;
}

std::optional<std::pair<std::string, std::vector<std::int32_t>>> TrieMap::longest_prefix(
    std::string_view text) const {
  const auto& ns = nodes();
  std::optional<std::pair<std::string, std::vector<std::int32_t>>> best;
  std::uint32_t at = 0;
  for (std::size_t depth = 0;; ++depth) {
    const Node& n = ns[at];
    if (depth > 0 && n.ids_end > n.ids_begin)
      best.emplace(std::string(text.substr(0, depth)),
                   std::vector<std::int32_t>(ids_.begin() + n.ids_begin, ids_.begin() + n.ids_end));
    if (depth == text.size()) break;
    std::uint8_t want = static_cast<std::uint8_t>(text[depth]);
    std::uint32_t c = at + 1;
    while (c < n.end && ns[c].byte != want) c = ns[c].end;
    if (c >= n.end) break;
    at = c;
  }
  return best;
}

const std::vector<TrieMap::Node>& TrieMap::nodes() const {
  if (dirty_) build();
  return nodes_;
}

std::uint32_t TrieMap::child(std::uint32_t u, std::uint8_t b) const {
  if (dirty_) build();
  if (u == 0) return root_child_[b];
  const Children c = children(u);
  const std::uint8_t* at = std::lower_bound(c.bytes, c.bytes + c.size, b);
  return at != c.bytes + c.size && *at == b ? c.nodes[at - c.bytes] : 0;
}

std::size_t TrieMap::max_key_bytes() const {
  if (dirty_) build();
  return max_key_;
}

void TrieMap::build() const {
  // keys_ is ordered bytewise, which is depth-first order of the trie.
  nodes_.clear();
  ids_.clear();
  max_key_ = 0;
  nodes_.push_back(Node{0, 0, 0, 0, 0});
  std::vector<std::uint32_t> open{0};  // path of node indices for the previous key
  std::vector<std::uint32_t> parent{0};
  std::string prev;
  for (const auto& [key, ids] : keys_) {
    max_key_ = std::max(max_key_, key.size());
    std::size_t common = 0;
    while (common < prev.size() && common < key.size() && prev[common] == key[common]) ++common;
    while (open.size() > common + 1) {  // close subtrees that diverge
      nodes_[open.back()].end = static_cast<std::uint32_t>(nodes_.size());
      open.pop_back();
    }
    for (std::size_t d = common; d < key.size(); ++d) {
      parent.push_back(open.back());
      open.push_back(static_cast<std::uint32_t>(nodes_.size()));
      nodes_.push_back(Node{0, 0, 0, static_cast<std::uint8_t>(key[d]),
                            static_cast<std::uint16_t>(std::min<std::size_t>(d + 1, 65535))});
    }
    Node& leaf = nodes_[open.back()];
    leaf.ids_begin = static_cast<std::uint32_t>(ids_.size());
    ids_.insert(ids_.end(), ids.begin(), ids.end());
    leaf.ids_end = static_cast<std::uint32_t>(ids_.size());
    if (key.empty()) {  // the empty key lives on the root
      nodes_[0].ids_begin = leaf.ids_begin;
      nodes_[0].ids_end = leaf.ids_end;
    }
    prev = key;
  }
  while (!open.empty()) {
    nodes_[open.back()].end = static_cast<std::uint32_t>(nodes_.size());
    open.pop_back();
  }
  // Children by parent: a counting sort of the nodes (already in byte order
  // among siblings).
  const std::size_t n = nodes_.size();
  child_begin_.assign(n + 1, 0);
  for (std::size_t c = 1; c < n; ++c) ++child_begin_[parent[c] + 1];
  for (std::size_t u = 0; u < n; ++u) child_begin_[u + 1] += child_begin_[u];
  child_nodes_.resize(n - 1);
  child_bytes_.resize(n - 1);
  std::vector<std::uint32_t> at(child_begin_.begin(), child_begin_.end() - 1);
  for (std::size_t c = 1; c < n; ++c) {
    const std::uint32_t k = at[parent[c]]++;
    child_nodes_[k] = static_cast<std::uint32_t>(c);
    child_bytes_[k] = nodes_[c].byte;
  }
  root_child_.fill(0);
  for (std::uint32_t k = child_begin_[0]; k < child_begin_[1]; ++k)
    root_child_[child_bytes_[k]] = child_nodes_[k];
  dirty_ = false;
}

}  // namespace pse
