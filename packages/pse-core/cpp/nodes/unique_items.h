// uniqueItems: the check of a checked node (checked.h) that rejects the byte
// completing an array item equal, in JSON equality, to an earlier one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nodes/checked.h"
#include "pse_core/state_machine.h"

namespace pse {

/// The items of the array are pairwise distinct (numbers by value, 1 == 1.0;
/// objects in any key order; strings after unescaping). An item's beginning is
/// refused when it fixes a value already seen, or, given `domain` (every value
/// an item may take, when finitely many and all scalar: its JSON text and, for
/// a number, the exponents its automaton writes it with as a mask of
/// value_prefix.h), when every unseen value is out of its reach. Without a
/// domain, given `numbers` (the automata, kind kDfa, of every number the item
/// schema allows) or `strings` (the machines, kDfa or kString, of every
/// string it allows), a number (string) item's beginning is refused when
/// every value beyond it in those machines is a seen one (item_values.h).
std::shared_ptr<const Check> unique_items_check(
    const std::vector<std::pair<std::string, std::uint32_t>>& domain = {},
    const std::vector<SMPtr>& numbers = {}, const std::vector<SMPtr>& strings = {});

/// A key under which JSON-equal texts coincide, for one valid JSON value;
/// nullopt for text that is not one JSON value, or for a number whose exponent
/// has more than 18 digits (not compared: such an item is rejected).
std::optional<std::string> canonical_json(std::string_view text);

}  // namespace pse
