// uniqueItems: the check of a checked node (checked.h) that rejects the byte
// completing an array item equal, in JSON equality, to an earlier one.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "nodes/checked.h"

namespace pse {

/// The items of the array are pairwise distinct (numbers by value, 1 == 1.0;
/// objects in any key order; strings after unescaping).
std::shared_ptr<const Check> unique_items_check();

/// A key under which JSON-equal texts coincide, for one valid JSON value;
/// nullopt for text that is not one JSON value, or for a number whose exponent
/// has more than 18 digits (not compared: such an item is rejected).
std::optional<std::string> canonical_json(std::string_view text);

}  // namespace pse
