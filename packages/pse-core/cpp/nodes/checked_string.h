// A JSON string whose decoded value must pass a rule no automaton can judge:
// the check of a checked node (checked.h) around a native JSON string machine.
// The check decodes the string as bytes arrive (escapes, surrogate pairs, raw
// UTF-8 split across tokens) and asks its rule whether the text so far can
// still be completed (at the end of each token) and whether the whole text is
// valid (at the closing quote).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "nodes/checked.h"

namespace pse {

/// What a checked string asks about its decoded text (code points; a lone
/// surrogate escape stays as its code unit).
class StringRule {
 public:
  virtual ~StringRule() = default;
  /// Whether some completion of `text` is valid; `pending`: an escape or a
  /// multi-byte character has begun after `text`.
  virtual bool viable(const std::u32string& text, bool pending) const = 0;
  virtual bool complete(const std::u32string& text) const = 0;
};

std::shared_ptr<const Check> checked_string_check(std::shared_ptr<const StringRule> rule);

/// format "regex": an ECMA-262 pattern (Unicode mode), with the string's length
/// bounds in code points (a completion must fit `max_length`).
std::shared_ptr<const StringRule> ecma_regex_rule(std::uint32_t min_length,
                                                  std::optional<std::uint32_t> max_length);

/// draft 7 contentMediaType application/json: the text (or, with `base64`, the
/// UTF-8 its base64 encodes) is a JSON text (RFC 8259).
std::shared_ptr<const StringRule> json_content_rule(bool base64);

/// Whether `text` is an ECMA-262 pattern (complete) or a prefix of one (viable).
bool ecma_regex_valid(const std::u32string& text);
bool ecma_regex_viable(const std::u32string& text);

}  // namespace pse
