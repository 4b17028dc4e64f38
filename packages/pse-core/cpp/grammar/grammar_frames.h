// Completion of a grammar inside a stack: glue between the frames and
// Grammar::shortest_completion (used by completion.cc).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "pse_core/frame.h"

namespace pse {

/// The grammar frame of `f`: `f` itself (kGrammar) or its parent (kLexer).
const Frame& grammar_frame(const Frame& f);

/// Grammar::shape() of kGrammar frame `f`'s parse state (the mask memo's key for it).
std::uint64_t grammar_shape(const Frame& f);

/// The shortest bytes that finish the grammar frame of `f` (a kGrammar frame
/// or the kLexer leaf on top of one), over `alphabet` when given; nullopt
/// when none is known.
std::optional<std::string> grammar_completion(const Frame& f,
                                              const std::array<std::uint64_t, 4>* alphabet);

/// The shortest text the grammar of kGrammar node `n` matches (at least one byte).
std::optional<std::string> grammar_shortest(const StateMachine& n,
                                            const std::array<std::uint64_t, 4>* alphabet);

}  // namespace pse
