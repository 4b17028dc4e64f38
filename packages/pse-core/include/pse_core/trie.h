// TrieMap: byte strings -> token ids, stored as a flat trie in depth-first
// order. A node's subtree is the index range [i, end); its children are
// i + 1, then each next sibling at the previous child's `end`. Walking the
// vocabulary is a linear scan that skips dead subtrees in one jump.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pse {

class TrieMap {
 public:
  struct Node {
    std::uint32_t end;         ///< one past the last node of this subtree
    std::uint32_t ids_begin;   ///< token ids ending here: ids_[ids_begin, ids_end)
    std::uint32_t ids_end;
    std::uint8_t byte;         ///< the edge byte from the parent (root: 0)
    std::uint16_t depth;       ///< bytes from the root
  };

  void insert(std::string_view key, std::int32_t id);
  /// Ids stored under exactly `key`.
  const std::vector<std::int32_t>* get(std::string_view key) const;
  /// Longest stored key that is a prefix of `text`.
  std::optional<std::pair<std::string, std::vector<std::int32_t>>> longest_prefix(
      std::string_view text) const;
  std::size_t size() const { return keys_.size(); }
  const std::map<std::string, std::vector<std::int32_t>>& items() const { return keys_; }

  /// The flat trie (rebuilt after inserts, on first use).
  const std::vector<Node>& nodes() const;
  const std::int32_t* ids(const Node& n) const { return ids_.data() + n.ids_begin; }
  /// The children of a node, in byte order: bytes[k] leads to nodes[k]. The
  /// nodes of siblings lie far apart in the flat trie (a subtree between
  /// each two); their bytes lie together here, so a walk reads a child's
  /// node only when it takes the child's byte.
  struct Children {
    const std::uint8_t* bytes;
    const std::uint32_t* nodes;
    std::uint32_t size;
  };
  Children children(std::uint32_t u) const {
    if (dirty_) build();
    const std::uint32_t at = child_begin_[u];
    return {child_bytes_.data() + at, child_nodes_.data() + at, child_begin_[u + 1] - at};
  }
  /// The child of node `u` along byte `b`, or 0 when none.
  std::uint32_t child(std::uint32_t u, std::uint8_t b) const;
  std::size_t max_key_bytes() const;

 private:
  void build() const;
  std::map<std::string, std::vector<std::int32_t>> keys_;
  mutable bool dirty_ = true;
  mutable std::vector<Node> nodes_;
  mutable std::vector<std::int32_t> ids_;
  /// Children of node u: child_bytes_/child_nodes_[child_begin_[u], child_begin_[u + 1]).
  mutable std::vector<std::uint32_t> child_begin_;
  mutable std::vector<std::uint32_t> child_nodes_;
  mutable std::vector<std::uint8_t> child_bytes_;
  /// The root's child along each byte, or 0: the root has a child for most
  /// bytes, and phrases and patterns start there.
  mutable std::array<std::uint32_t, 256> root_child_{};
  mutable std::size_t max_key_ = 0;
};

}  // namespace pse
