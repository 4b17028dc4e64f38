#include "mask.h"

#include "consume.h"
#include "nodes/leaf.h"

namespace pse {

Positions& MaskComputer::level(std::size_t depth) {
  if (levels_.size() <= depth) levels_.resize(depth + 1);
  levels_[depth].clear();
  return levels_[depth];
}

void MaskComputer::mark(std::uint32_t node) {
  const TrieMap::Node& n = nodes_[node];
  const std::int32_t* ids = vocab_.trie().ids(n);
  for (std::uint32_t i = 0; i < n.ids_end - n.ids_begin; ++i)
    bits_[ids[i] >> 5] |= 1u << (ids[i] & 31);
}

void MaskComputer::walk(std::uint32_t u, const Positions& set, std::size_t depth,
                        std::size_t trie_depth) {
  const Positions* native = &set;
  Positions kept;
  for (const Frame* f : set)
    if (f->kind == Kind::kExternal) external(f, u, trie_depth);
    else kept.push_back(f);
  if (kept.size() != set.size()) native = &kept;
  if (native->empty()) return;
  for (std::uint32_t c = u + 1; c < nodes_[u].end; c = nodes_[c].end) {
    Arena::Mark m = arena_.mark();
    Positions& next = level(depth);
    rt_.advance(*native, nodes_[c].byte, next);
    if (!next.empty()) {
      mark(c);
      if (nodes_[c].end > c + 1) walk(c, next, depth + 1, trie_depth + 1);
    }
    arena_.rewind(m);
  }
}

void MaskComputer::external(const Frame* f, std::uint32_t u, std::size_t trie_depth) {
  // The slow path: every token below trie node u, fed whole to the stepper.
  for (std::uint32_t c = u + 1; c < nodes_[u].end; ++c) {
    const TrieMap::Node& n = nodes_[c];
    for (std::uint32_t i = 0; i < n.ids_end - n.ids_begin; ++i) {
      std::int32_t id = vocab_.trie().ids(n)[i];
      if ((bits_[id >> 5] >> (id & 31)) & 1u) continue;
      const std::string& bytes = *vocab_.token(id);
      FeedResult fed;
      Arena::Mark m = arena_.mark();
      feed(rt_, Positions{f}, std::string_view(bytes).substr(trie_depth), 0, fed);
      arena_.rewind(m);
      if (!fed.full.empty()) bits_[id >> 5] |= 1u << (id & 31);
    }
  }
}

bool MaskComputer::compute(const Positions& closed, std::uint32_t* bits) {
  bits_ = bits;
  bool finished = false;
  const std::size_t words = (vocab_.size() + 31) / 32;
  for (const Frame* p : closed) {
    if (p->done()) {
      finished = true;
      continue;
    }
    if (p->kind == Kind::kExternal) {
      external(p, 0, 0);
      continue;
    }
    const MaskEntry& e = vocab_.cache().get(*p, vocab_.trie(), vocab_.span(), vocab_.size());
    if (!e.dense.empty()) {
      for (std::size_t w = 0; w < words; ++w) bits[w] |= e.dense[w];
    } else {
      for (std::int32_t id : e.sparse) bits[id >> 5] |= 1u << (id & 31);
    }
    if (e.exit_bytes.empty()) continue;
    // The rest of a token after the leaf ends goes to the stack below it.
    Arena::Mark m = arena_.mark();
    Positions& below = level(0);
    rt_.closure(rt_.pop(p), below);
    Positions after_pop = below;  // level(1) below would clobber `below`
    for (std::uint8_t b : e.exit_bytes) {
      Positions& stepped = level(1);
      rt_.advance(after_pop, b, stepped);
      if (stepped.empty()) continue;
      Positions start = stepped;
      for (std::uint32_t i = e.exit_offsets[b]; i < e.exit_offsets[b + 1]; ++i) {
        std::uint32_t d = e.exit_nodes[i];
        mark(d);
        if (nodes_[d].end > d + 1) walk(d, start, 2, nodes_[d].depth);
      }
    }
    arena_.rewind(m);
  }
  return finished;
}

}  // namespace pse
