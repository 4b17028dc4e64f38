// Computing the token mask: which tokens some active stepper can consume.
// Each position has a leaf on top; the mask cache says which tokens below a
// trie node that leaf accepts by itself and where it may end mid-token. Only
// at those ends does the stack below take the next byte, and from there the
// cache answers again: no token is walked byte by byte.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "pse_core/mask_cache.h"
#include "pse_core/vocabulary.h"
#include "runtime.h"

namespace pse {

/// One per engine, reused for every mask: its buffers and its memo of cache
/// entries (looked up without the shared cache's lock) persist between calls.
class MaskComputer {
 public:
  MaskComputer(const Vocabulary& vocab, Arena& scratch)
      : vocab_(vocab), nodes_(vocab.trie().nodes()), rt_(scratch, false), arena_(scratch) {}

  /// OR into `bits` every token some position can consume; returns whether a
  /// position has finished (end-of-sequence allowed).
  bool compute(const Positions& closed, std::uint32_t* bits);
  Runtime& runtime() { return rt_; }

 private:
  /// Tokens below trie node `u` that continue the canonical positions `set`.
  void explore(std::uint32_t u, const Positions& set, std::size_t depth);
  void external(const Frame* f, std::uint32_t u);
  /// The exits of a lexer leaf: one stack below per state the lexeme ended in.
  void lexer_exits(const Frame* p, const MaskEntry& e, std::size_t depth);
  void mark(std::uint32_t node);
  Positions& level(std::size_t depth);
  const MaskEntry& entry(const Frame& leaf, std::uint32_t root);

  const Vocabulary& vocab_;
  const std::vector<TrieMap::Node>& nodes_;
  Runtime rt_;
  Arena& arena_;
  std::uint32_t* bits_ = nullptr;
  std::deque<Positions> levels_;  ///< a deque: references survive growth
  std::unordered_map<MaskCache::Key, const MaskEntry*, MaskCache::KeyHash> seen_;
  bool finished_ = false;
};

}  // namespace pse
