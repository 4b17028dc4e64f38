#include "pse_core/vocabulary.h"

#include "pse_core/errors.h"

namespace pse {

Vocabulary::Vocabulary(std::vector<std::optional<std::string>> tokens,
                       std::vector<std::int32_t> control_ids, std::vector<std::int32_t> eos_ids)
    : tokens_(std::move(tokens)), control_(tokens_.size()), eos_(tokens_.size()) {
  if (tokens_.empty()) throw VocabularyError("the vocabulary has no tokens");
  auto check = [&](std::int32_t id, const char* what) {
    if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size())
      throw VocabularyError(std::string(what) + " id " + std::to_string(id) +
                            " is outside the vocabulary of " + std::to_string(tokens_.size()));
  };
  for (std::int32_t id : control_ids) {
    check(id, "control token");
    if (!control_[id]) control_ids_.push_back(id);
    control_[id] = true;
  }
  for (std::int32_t id : eos_ids) {
    check(id, "end-of-sequence token");
    if (!eos_[id]) eos_ids_.push_back(id);
    eos_[id] = true;
  }
  std::size_t usable = 0;
  for (std::size_t id = 0; id < tokens_.size(); ++id) {
    const auto& t = tokens_[id];
    if (!t || t->empty() || control_[id] || eos_[id]) continue;
    trie_.insert(*t, static_cast<std::int32_t>(id));
    ++usable;
  }
  if (usable == 0) throw VocabularyError("the vocabulary has no ordinary (non-control) tokens");
  span_ = static_cast<std::uint32_t>(trie_.max_key_bytes()) + 1;
  cache_.prepare(trie_, tokens_.size());
}

}  // namespace pse
