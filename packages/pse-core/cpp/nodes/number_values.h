// The values a number item may still take under its automaton: the uniqueness
// check (unique_items.h) asks whether the beginning of a number item can still
// end as a value no earlier item has, when the item's numbers come from
// byte-level automata (bounded ranges, enums, multipleOf) with infinitely many
// values in all but some of their states.
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

/// One number automaton (a kDfa machine reading one JSON number), with what
/// each of its states says about the values beyond it.
class NumberValues {
 public:
  /// Copies the automaton of `dfa` (kind kDfa) and analyses it.
  explicit NumberValues(const StateMachine& dfa);

  /// Whether some number the automaton accepts begins with `prefix` and has a
  /// canonical key (unique_items.h's `canonical_json`) for which `seen` is
  /// false. Exact, except that a search past limits::kMaxUniqueSearch texts
  /// answers true.
  bool reaches_unseen(std::string_view prefix,
                      const std::function<bool(const std::string&)>& seen) const;

 private:
  /// Beginnings beyond which every value was seen when last asked, with those
  /// values (at most kMaxListed), kept per automaton (emptied when full).
  struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<std::string>> closed;
  };
  static constexpr std::size_t kMaxListed = 64;
  static constexpr std::size_t kMaxCached = 4096;

  enum class Outcome { kStopped, kExhausted, kEndless };
  /// Breadth first over the texts beyond `prefix` (in state `q`), calling
  /// `stop` with the key of each accepted one until it returns true.
  Outcome search(std::int32_t q, std::string_view prefix,
                 const std::function<bool(const std::string&)>& stop) const;
  std::int32_t step(std::int32_t state, char byte) const;

  std::array<std::uint8_t, 256> byte_class_{};
  std::uint32_t classes_ = 0;
  std::vector<std::int32_t> transitions_;
  std::vector<std::uint8_t> accepting_;
  std::int32_t start_ = -1;
  /// Per state: a cycle through a nonzero digit is reachable, so infinitely
  /// many values lie beyond it whatever came before.
  std::vector<std::uint8_t> endless_;
  /// Per state: a nonzero digit can be read before any byte other than a digit
  /// (so zeros just read in a fraction are not trailing ones).
  std::vector<std::uint8_t> nonzero_next_;
  std::unique_ptr<Cache> cache_;
};

}  // namespace pse
