// Word-level operations on token bitmasks (32 token ids per word), the two
// loops every mask runs over the whole vocabulary. On x86-64 Linux they are
// compiled twice, for the baseline and for AVX2 + POPCNT, and the loader picks
// the variant the CPU supports: baseline x86-64 has no popcount instruction,
// and the library call it falls back to cost more than the rest of the mask.
// Counting also has an AVX-512 variant (vector popcount), taken where the CPU
// has it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pse {

/// bits[w] |= other[w] for every word.
void or_words(std::uint32_t* bits, const std::uint32_t* other, std::size_t words);

/// Number of set bits in `words` words.
std::size_t count_bits(const std::uint32_t* bits, std::size_t words);

}  // namespace pse
