// Vocabulary: one tokenizer's tokens as bytes. Built once per tokenizer and
// shared by every engine that uses it, together with the mask cache.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pse_core/mask_cache.h"
#include "pse_core/trie.h"

namespace pse {

class Vocabulary {
 public:
  /// `tokens[id]` is the token's bytes, or nullopt for control tokens and holes.
  Vocabulary(std::vector<std::optional<std::string>> tokens, std::vector<std::int32_t> control_ids,
             std::vector<std::int32_t> eos_ids);

  std::size_t size() const { return tokens_.size(); }
  const std::optional<std::string>& token(std::int32_t id) const { return tokens_.at(id); }
  bool is_control(std::int32_t id) const { return control_[id]; }
  bool is_eos(std::int32_t id) const { return eos_[id]; }
  const std::vector<std::int32_t>& eos_ids() const { return eos_ids_; }
  const std::vector<std::int32_t>& control_ids() const { return control_ids_; }
  const TrieMap& trie() const { return trie_; }
  /// Longest token in bytes, plus one: the span that bounds leaf cache keys.
  std::uint32_t span() const { return span_; }
  MaskCache& cache() const { return cache_; }

 private:
  std::vector<std::optional<std::string>> tokens_;
  std::vector<bool> control_, eos_;
  std::vector<std::int32_t> control_ids_, eos_ids_;
  TrieMap trie_;
  std::uint32_t span_ = 1;
  mutable MaskCache cache_;
};

using VocabPtr = std::shared_ptr<const Vocabulary>;

}  // namespace pse
