// The keys of a JSON object in any order: the check of a checked node
// (checked.h) around an object machine that offers every pair at every
// position. A state graph that tracks which named properties were seen has
// one state per set of them (2^n); this check keeps the set in the stepper:
// each key appears at most once (a key that is not named too: a JSON parser
// keeps one of repeated keys, so counting both towards minProperties would
// pass an object that has fewer), the required ones (with the keys that
// dependentRequired adds, transitively) are present before the closing brace,
// no forbidden set is complete, and the pair count stays within
// minProperties/maxProperties. It masks a key prefix that no allowed key
// completes, a comma after which no key is allowed and a brace that closes
// too early, so a stepper it lets through can always finish.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nodes/checked.h"

namespace pse {

struct ObjectKeys {
  /// Every named key (decoded); `usable[i]`: key `i` may appear at all.
  std::vector<std::u32string> names;
  std::vector<bool> usable;
  std::vector<std::uint32_t> required;
  /// Per key, the keys its presence requires (dependentRequired).
  std::vector<std::vector<std::uint32_t>> dependent;
  /// Sets of keys that must not all be present.
  std::vector<std::vector<std::uint32_t>> forbidden;
  /// Whether keys that are not named may appear (any number of distinct ones).
  bool others = false;
  std::uint32_t min_properties = 0;
  std::optional<std::uint32_t> max_properties;
};

std::shared_ptr<const Check> object_keys_check(ObjectKeys keys);

}  // namespace pse
