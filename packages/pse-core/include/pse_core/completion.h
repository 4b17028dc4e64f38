// Shortest completions: the fewest bytes that take a position to an accept
// state, used to keep output valid when the token budget runs out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pse_core/frame.h"
#include "pse_core/trie.h"

namespace pse {

/// Shortest string `node` can match when entered fresh (at least one byte),
/// or nullopt when it matches nothing finite (or contains external nodes).
std::optional<std::string> shortest_match(const StateMachine* node);

/// Shortest bytes that finish the stack `top` (canonical or not), with
/// frames at `root_depth` acting as the root; nullopt if none is known.
std::optional<std::string> shortest_completion(const Frame* top, std::uint32_t root_depth);

/// Fewest vocabulary tokens whose bytes concatenate to `bytes` (empty if none).
std::vector<std::int32_t> fewest_tokens(const TrieMap& trie, const std::string& bytes);

}  // namespace pse
