// Engine: the per-sequence state of structured generation. Holds the active
// steppers (as paths), computes exact token masks and advances on tokens.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pse_core/frame.h"
#include "pse_core/vocabulary.h"

namespace pse {

class MaskComputer;

/// What a mask fill found: how many tokens are allowed, and whether the
/// structure is complete with nothing but end tokens (EOS, whitelisted
/// control tokens) left to choose.
struct MaskStatus {
  std::size_t allowed = 0;
  bool only_end = false;
};

class Engine {
 public:
  Engine(VocabPtr vocab, bool multi_token_sampling, int max_resample_attempts);

  VocabPtr vocab;
  bool multi_token_sampling;
  int max_resample_attempts;
  /// first token id -> the full sequence to emit when it is sampled.
  std::map<std::int32_t, std::vector<std::int32_t>> multi_token_mapping;

  const SMPtr& state_machine() const { return machine_; }
  /// Set the grammar (null clears it) and start over.
  void set_state_machine(SMPtr machine);
  const std::vector<PathPtr>& paths() const { return paths_; }
  void set_paths(std::vector<PathPtr> paths);
  void reset(bool hard);

  void set_whitelist(const std::vector<std::int32_t>& ids);
  const std::vector<std::int32_t>& whitelist() const { return whitelist_ids_; }

  bool has_reached_accept_state() const;
  /// Fill `out` (ceil(vocab/32) words, bit i of word i/32 = token i) with
  /// the allowed tokens. Returns the number of allowed tokens.
  std::size_t fill_bitmask(std::uint32_t* out, std::size_t words);
  /// fill_bitmask, also telling whether only end tokens are left.
  MaskStatus fill_mask(std::uint32_t* out, std::size_t words);
  /// fill_mask when this engine remembers the mask of its current position
  /// (a copy, no walk); false, with `out` untouched, otherwise.
  bool fill_remembered_mask(std::uint32_t* out, std::size_t words, MaskStatus& status);
  /// How fill_mask may run beside other engines' fills (see fill_masks).
  enum class Sharing : std::uint8_t {
    kParallel,  ///< native nodes only (grammars included): any thread, beside other engines
    kPython,    ///< a Python-defined node: only with the GIL held
  };
  Sharing sharing() const { return sharing_; }
  /// Whether fill_mask recalls and remembers whole masks (MaskMemo, mask.h);
  /// off, every mask is computed (for tests and benchmarks that compare).
  bool remember_masks = true;
  bool is_token_allowed(std::int32_t id) const;
  /// Advance on a sampled token. Returns the ids to emit: the token itself,
  /// plus the forced continuation when multi-token sampling is on.
  std::vector<std::int32_t> consume_token(std::int32_t id);
  /// consume_token for a sampling loop: returns the ids to emit, or nothing
  /// (the engine unchanged) when `id` is not allowed or, with a `budget` >= 0
  /// (tokens that may still be emitted, this one included), when no known
  /// completion fits in the budget after it.
  std::vector<std::int32_t> advance_within(std::int32_t id, std::int64_t budget);
  /// Advance on arbitrary text (token healing applies). False if rejected.
  bool consume_text(std::string_view text, bool token_healing);
  /// Shortest bytes that complete the structure from here (nullopt: unknown,
  /// e.g. an external node on the stack).
  std::optional<std::string> shortest_completion() const;
  /// The fewest tokens that spell shortest_completion() (empty when complete);
  /// if no tokens spell those bytes, the shortest completion over the
  /// vocabulary's one-byte tokens (nullopt: no completion is known).
  std::optional<std::vector<std::int32_t>> completion_tokens() const;
  /// Tokens a completion needs after consuming `id` (nullopt: `id` not allowed
  /// or no completion known).
  std::optional<std::size_t> completion_length_after(std::int32_t id) const;
  /// Token ids consumed so far along the best path.
  std::vector<std::int32_t> token_history() const;
  std::string text() const;

 private:
  bool advance(std::int32_t id);
  /// Append the continuation that multi-token sampling forces after `id`.
  void extend_forced(std::int32_t id, std::vector<std::int32_t>& emitted);
  std::string forced_bytes() const;

  void update_sharing();

  SMPtr machine_;
  std::vector<PathPtr> paths_;
  Sharing sharing_ = Sharing::kParallel;
  std::vector<bool> whitelist_;
  std::vector<std::int32_t> whitelist_ids_;
  std::shared_ptr<Arena> scratch_ = std::make_shared<Arena>();
  std::shared_ptr<MaskComputer> masker_;  ///< built on the first mask
};

/// Fill the masks of many engines in one call: engine i fills the `words`
/// words at `rows[i]`. Engines whose machines are native (Sharing::kParallel)
/// run on up to `threads` threads (0: one per hardware thread); the others run
/// one after another on the calling thread. Each engine must appear at most
/// once. The caller holds no lock a Python-defined node needs (the GIL) only
/// when no engine is Sharing::kPython. Rethrows the first row's error.
std::vector<MaskStatus> fill_masks(const std::vector<Engine*>& engines,
                                   const std::vector<std::uint32_t*>& rows, std::size_t words,
                                   std::size_t threads);

/// A fresh path at the start of `machine` (or at graph state `state`). `raw`:
/// the root uses the machine's own kind even if an external stepper overrides it.
PathPtr start_path(const SMPtr& machine, std::int32_t state = -1, bool raw = false);

}  // namespace pse
