#include "mask.h"

#include "consume.h"
#include "nodes/leaf.h"
#include "support/bitset.h"

namespace pse {

const MaskEntry& MaskComputer::entry(const Frame& leaf, std::uint32_t root) {
  MaskCache::Key key = MaskCache::key(leaf, root, vocab_.span());
  auto [it, fresh] = seen_.try_emplace(key, nullptr);
  if (fresh) it->second = &vocab_.cache().get(key, leaf, vocab_.trie(), vocab_.size());
  return *it->second;
}

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

void MaskComputer::external(const Frame* f, std::uint32_t u) {
  // The slow path: every token below trie node u, fed whole to the stepper.
  const std::size_t depth = nodes_[u].depth;
  for (std::uint32_t c = u + 1; c < nodes_[u].end; ++c) {
    const TrieMap::Node& n = nodes_[c];
    for (std::uint32_t i = 0; i < n.ids_end - n.ids_begin; ++i) {
      std::int32_t id = vocab_.trie().ids(n)[i];
      if ((bits_[id >> 5] >> (id & 31)) & 1u) continue;
      FeedResult fed;
      Arena::Mark m = arena_.mark();
      feed(rt_, Positions{f}, std::string_view(*vocab_.token(id)).substr(depth), 0, fed);
      arena_.rewind(m);
      if (!fed.full.empty()) bits_[id >> 5] |= 1u << (id & 31);
    }
  }
}

void MaskComputer::explore(std::uint32_t u, const Positions& set, std::size_t depth) {
  const std::size_t words = (vocab_.size() + 31) / 32;
  for (const Frame* p : set) {
    if (p->done()) {
      if (u == 0) finished_ = true;
      continue;
    }
    if (p->kind == Kind::kExternal) {
      external(p, u);
      continue;
    }
    const MaskEntry& e = entry(*p, u);
    if (!e.dense.empty()) {
      or_words(bits_, e.dense.data(), words);
    } else {
      for (std::int32_t id : e.sparse) bits_[id >> 5] |= 1u << (id & 31);
    }
    if (!e.lexer_exits.empty()) lexer_exits(p, e, depth);
    if (e.exit_bytes.empty()) continue;
    // The rest of a token after the leaf ends goes to the stack below it.
    Arena::Mark m = arena_.mark();
    Positions& below = level(2 * depth);
    rt_.closure(rt_.pop(p), below);
    for (std::uint8_t b : e.exit_bytes) {
      Positions& stepped = level(2 * depth + 1);
      rt_.advance(below, b, stepped);
      if (stepped.empty()) continue;
      for (std::uint32_t i = e.exit_offsets[b]; i < e.exit_offsets[b + 1]; ++i) {
        std::uint32_t d = e.exit_nodes[i];
        mark(d);
        if (nodes_[d].end > d + 1) explore(d, stepped, depth + 1);
      }
    }
    arena_.rewind(m);
  }
}

void MaskComputer::lexer_exits(const Frame* p, const MaskEntry& e, std::size_t depth) {
  // Exits come sorted by end state, then bytes the lexeme cannot take, then
  // bytes it can (where only positions after the grammar continue), by byte.
  const auto& exits = e.lexer_exits;
  const Frame* grammar = p->parent;
  for (std::size_t i = 0; i < exits.size();) {
    std::size_t j = i;
    while (j < exits.size() && exits[j].state == exits[i].state && exits[j].local == exits[i].local) ++j;
    Arena::Mark m = arena_.mark();
    Positions& below = level(2 * depth);
    rt_.closure(rt_.pop(rt_.with(p, exits[i].state, exits[i].local, p->flags | kConsumed, p->hist)),
                below);
    bool after_only = false;
    while (i < j) {
      if (exits[i].extends && !after_only) {
        // Keep the positions where the grammar has ended and a parent goes on.
        after_only = true;
        Positions after;
        for (const Frame* q : below) {
          const Frame* a = q;
          while (a && a->depth > grammar->depth) a = a->parent;
          if (!q->done() && (!a || a->node != grammar->node || a->kind != Kind::kGrammar))
            after.push_back(q);
        }
        below.swap(after);
        if (below.empty()) {
          i = j;
          break;
        }
      }
      const std::uint8_t byte = nodes_[exits[i].node].byte;
      const bool extends = exits[i].extends;
      Positions& stepped = level(2 * depth + 1);
      rt_.advance(below, byte, stepped);
      for (; i < j && nodes_[exits[i].node].byte == byte && exits[i].extends == extends; ++i) {
        if (stepped.empty()) continue;
        std::uint32_t d = exits[i].node;
        mark(d);
        if (nodes_[d].end > d + 1) explore(d, stepped, depth + 1);
      }
    }
    arena_.rewind(m);
  }
}

bool MaskComputer::compute(const Positions& closed, std::uint32_t* bits) {
  bits_ = bits;
  finished_ = false;
  explore(0, closed, 0);
  return finished_;
}

}  // namespace pse
