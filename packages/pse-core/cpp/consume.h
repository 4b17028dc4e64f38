// Feeding text to steppers: the per-token path (once per sampled token).
#pragma once

#include <string_view>
#include <vector>

#include "pse_core/frame.h"
#include "runtime.h"

namespace pse {

struct ConsumeResult {
  std::vector<PathPtr> full;     ///< consumed every byte
  std::vector<PathPtr> partial;  ///< the root finished early; `remaining` holds the rest
};

struct FeedResult {
  Positions full;                  ///< positions (not yet closed) after every byte
  const Frame* finished = nullptr; ///< a finished root seen before byte `finished_at`
  std::size_t finished_at = 0;
};

/// Feed `bytes` to canonical positions `start`; the text offset of byte 0 is `base`.
void feed(Runtime& rt, Positions start, std::string_view bytes, std::uint32_t base,
          FeedResult& result);

/// Canonical positions of a path (closure of its top).
void close_path(Runtime& rt, const Path& path, Positions& out);

/// Feed `bytes` to `path`. `token_id` >= 0 is appended to the token history.
ConsumeResult consume(const PathPtr& path, std::string_view bytes, std::int32_t token_id);

/// Append to `into` the paths of `more` whose stack (and root depth) no path
/// of `into` has. Paths over the same text that differ only in the history of
/// how they got there (which of two overlapping alternatives read an item)
/// continue alike; keeping one, the first, as a single path's closure does,
/// keeps their number from multiplying with every ambiguous item.
void merge_paths(std::vector<PathPtr>& into, const std::vector<PathPtr>& more);

/// Whether `path` can consume all of `bytes` (consume() without building paths).
bool can_consume(const PathPtr& path, std::string_view bytes);

/// A path that is `base` with `top` and extended text/tokens.
PathPtr extend(const Path& base, const Frame* top, std::shared_ptr<Arena> arena,
               SharedLog<std::string> text, std::optional<std::string> remaining);

/// `path` with one more token, ending at the end of its text.
PathPtr with_token(const PathPtr& path, std::int32_t token_id);

}  // namespace pse
