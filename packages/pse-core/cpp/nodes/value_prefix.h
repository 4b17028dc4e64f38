// What the beginning of a JSON value's text says about the value it becomes,
// in the canonical keys of `canonical_json` (unique_items.h): the key every
// completion has when the beginning fixes it, and whether a given scalar value
// is still among the completions. The uniqueness check uses both to refuse an
// item's prefix whose every completion repeats an earlier item.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pse {

/// The key of every JSON value whose text begins with `prefix` (the first
/// bytes of one value, no leading blanks), when the prefix fixes it: a
/// literal's first byte, or a number whose digits so far are all zeros and
/// whose exponent has begun. nullopt otherwise.
std::optional<std::string> determined_key(std::string_view prefix);

/// Exponents a number may be written with, as bits `e + kExponentBias` of a
/// mask (the number automata of constrained schemas keep |e| <= 4; writing no
/// exponent is always allowed).
inline constexpr int kExponentBias = 4;

/// Whether some JSON text beginning with `prefix` is a value of canonical key
/// `key`, a number's written exponent being one of `exponents`. Exact for
/// scalar keys (null, booleans, strings, numbers); false for arrays and
/// objects.
bool may_become(std::string_view prefix, std::string_view key, std::uint32_t exponents);

}  // namespace pse
