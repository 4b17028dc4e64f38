// Computing the token mask: which tokens some active stepper can consume.
// Leaves on top of the stack answer from the mask cache; only the tokens that
// run past the end of a leaf are walked byte by byte through the trie.
#pragma once

#include <cstdint>
#include <vector>

#include "pse_core/vocabulary.h"
#include "runtime.h"

namespace pse {

class MaskComputer {
 public:
  MaskComputer(const Vocabulary& vocab, Arena& scratch)
      : vocab_(vocab), nodes_(vocab.trie().nodes()), rt_(scratch, false), arena_(scratch) {}

  /// OR into `bits` every token some position can consume; returns whether a
  /// position has finished (end-of-sequence allowed).
  bool compute(const Positions& closed, std::uint32_t* bits);

 private:
  void walk(std::uint32_t u, const Positions& set, std::size_t depth, std::size_t trie_depth);
  void external(const Frame* f, std::uint32_t u, std::size_t trie_depth);
  void mark(std::uint32_t node);
  Positions& level(std::size_t depth);

  const Vocabulary& vocab_;
  const std::vector<TrieMap::Node>& nodes_;
  Runtime rt_;
  Arena& arena_;
  std::uint32_t* bits_ = nullptr;
  std::vector<Positions> levels_;
};

}  // namespace pse
