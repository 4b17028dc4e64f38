// Every budget of the engine, in one place.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pse::limits {

/// Deepest stack of nested machines a stepper may hold. Deeper means runaway
/// (left) recursion in the grammar; the engine raises GrammarError.
inline constexpr std::size_t kMaxStackDepth = 2000;

/// Most positions the closure of one step may produce before the engine
/// declares the grammar too ambiguous (GrammarError).
inline constexpr std::size_t kMaxPositions = 100000;

/// Longest forced byte run that multi-token processing looks ahead for.
inline constexpr std::size_t kMaxForcedBytes = 256;

/// Longest shortest match a node may have for completions to spell it: a node
/// whose every match is longer (minItems 10^8, ...) has no known completion,
/// so the shortest completion goes another way or is unknown (the budget
/// then cannot be enforced) instead of spelling gigabytes.
inline constexpr std::size_t kMaxCompletionBytes = 1u << 20;

/// Most texts the uniqueItems check explores beyond an item's beginning
/// to find a value no earlier item has (nodes/item_values.h); past it the
/// beginning is kept unproven.
inline constexpr std::size_t kMaxUniqueSearch = 4096;

/// Arena block size for frames allocated while walking the vocabulary trie.
inline constexpr std::size_t kArenaBlockBytes = 64 * 1024;

/// Arena block size for the frames one consumed token adds to a path (a few
/// frames and histories; these arenas live as long as the path).
inline constexpr std::size_t kPathArenaBlockBytes = 1024;

/// Mask-cache entries with fewer allowed tokens than vocab/kSparseDivisor are
/// stored as id lists instead of bitmasks.
inline constexpr std::uint32_t kSparseDivisor = 64;

/// Most items one Earley set of a grammar may hold before the engine declares
/// the grammar too ambiguous (GrammarError).
inline constexpr std::size_t kMaxEarleyItems = 200000;

/// Most lexer configurations (live terminal-automaton states) a grammar may
/// create; a multiple of 1024. Each takes about 1.1 KB (its 256 transitions).
inline constexpr std::uint32_t kMaxLexerStates = 1u << 20;

}  // namespace pse::limits
