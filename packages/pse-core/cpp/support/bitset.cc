#include "support/bitset.h"

#include <cstring>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
#define PSE_BITSET_CLONES __attribute__((target_clones("avx2,popcnt", "default")))
#else
#define PSE_BITSET_CLONES
#endif

namespace pse {

PSE_BITSET_CLONES void or_words(std::uint32_t* bits, const std::uint32_t* other,
                                std::size_t words) {
  for (std::size_t w = 0; w < words; ++w) bits[w] |= other[w];
}

PSE_BITSET_CLONES std::size_t count_bits(const std::uint32_t* bits, std::size_t words) {
  std::size_t count = 0, w = 0;
  for (; w + 2 <= words; w += 2) {
    std::uint64_t pair;
    std::memcpy(&pair, bits + w, sizeof pair);
    count += static_cast<std::size_t>(__builtin_popcountll(pair));
  }
  if (w < words) count += static_cast<std::size_t>(__builtin_popcount(bits[w]));
  return count;
}

}  // namespace pse
