// Shortest completions: the fewest bytes that take a position to an accept
// state, used to keep output valid when the token budget runs out.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pse_core/frame.h"
#include "pse_core/trie.h"

namespace pse {

/// A set of bytes (bit b of word b / 64).
using ByteSet = std::array<std::uint64_t, 4>;

/// Bytes that have a one-byte token in `trie`: any string of them can be spelled.
ByteSet single_byte_tokens(const TrieMap& trie);

/// True when `node` provably matches no string at all (an empty language).
/// False when it matches something or when that is unknown: Python-defined
/// (external) nodes and grammars are assumed to match.
bool accepts_nothing(const StateMachine* node);

/// Shortest string `node` can match when entered fresh (at least one byte),
/// or nullopt when it matches nothing finite (or contains external nodes).
std::optional<std::string> shortest_match(const StateMachine* node);

/// Shortest bytes that finish the stack `top` (canonical or not), with
/// frames at `root_depth` acting as the root; nullopt if none is known. With
/// `alphabet`, only its bytes are used (the shortest spellable completion).
std::optional<std::string> shortest_completion(const Frame* top, std::uint32_t root_depth,
                                               const ByteSet* alphabet = nullptr);

/// Fewest vocabulary tokens whose bytes concatenate to `bytes` (empty if none).
std::vector<std::int32_t> fewest_tokens(const TrieMap& trie, const std::string& bytes);

}  // namespace pse
