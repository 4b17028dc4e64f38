// The values an array item may still take under its machine: the uniqueness
// check (unique_items.h) asks whether the beginning of an item can still end
// as a value no earlier item has, when the item's numbers or strings come from
// machines it can read: byte-level automata (number bounds, multipleOf, enums,
// patterns, formats) and JSON strings with length bounds.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pse_core/state_machine.h"

namespace pse {

/// One machine reading a whole JSON number or string (kind kDfa, or kString),
/// with what each of its states says about the values beyond it.
class ItemValues {
 public:
  /// Copies what it needs of `machine` (kind kDfa or kString) and analyses it;
  /// std::invalid_argument for another kind.
  explicit ItemValues(const StateMachine& machine);

  /// Whether some text the machine accepts begins with `prefix` and has a
  /// canonical key (unique_items.h's `canonical_json`) for which `seen` is
  /// false (`seen_count`: how many keys it holds). Exact, except that a
  /// search past limits::kMaxUniqueSearch texts answers true.
  bool reaches_unseen(std::string_view prefix, const std::function<bool(const std::string&)>& seen,
                      std::size_t seen_count) const;

 private:
  /// Where the machine stands: a DFA state, or a string's state and count.
  struct Position {
    std::int32_t state = -1;
    std::uint64_t local = 0;
  };
  /// Beginnings beyond which every value was seen when last asked, with those
  /// values (at most kMaxListed), kept per machine (emptied when full).
  struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<std::string>> closed;
  };
  static constexpr std::size_t kMaxListed = 64;
  static constexpr std::size_t kMaxCached = 4096;

  enum class Outcome { kStopped, kExhausted, kEndless };
  /// Breadth first over the texts beyond `prefix` (at `at`), calling `stop`
  /// with the key of each accepted one until it returns true.
  Outcome search(Position at, std::string_view prefix,
                 const std::function<bool(const std::string&)>& stop) const;
  Position step(Position at, char byte) const;
  bool accepting(Position at) const;
  /// Infinitely many values lie beyond `at`, whatever came before.
  bool endless(Position at) const;
  /// Fill `raw_texts_` (`next`: each state's successors).
  void count_raw_texts(const std::vector<std::vector<std::int32_t>>& next);

  bool number_ = false;  ///< a DFA reading numbers (else strings)
  // kDfa
  std::array<std::uint8_t, 256> byte_class_{};
  std::uint32_t classes_ = 0;
  std::vector<std::int32_t> transitions_;
  std::vector<std::uint8_t> accepting_;
  std::int32_t start_ = -1;
  /// Per state: a cycle that makes new values is reachable (for numbers, one
  /// through a nonzero digit; for strings, any: each adds a character).
  std::vector<bool> endless_;
  /// Per number state: a nonzero digit can be read before any byte other than
  /// a digit (so zeros just read in a fraction are not trailing ones).
  std::vector<bool> nonzero_next_;
  /// Per string state that is not endless: how many texts without a backslash
  /// it accepts (at most kMany). Such texts have distinct values, so more of
  /// them than values seen means an unseen one, with no search.
  std::vector<std::uint32_t> raw_texts_;
  static constexpr std::uint32_t kMany = 1u << 30;
  // kString (when `transitions_` is empty)
  std::uint32_t min_length_ = 0, max_length_ = 0;
  std::unique_ptr<Cache> cache_;
};

}  // namespace pse
