// Lexer: the current lexeme of a grammar. The frame's node is the kGrammar
// node; state = the grammar's lexer configuration id; local = the column being
// tracked (python hook, at a line start; bit 63 set) or 0.
#pragma once

#include "grammar/grammar.h"
#include "pse_core/state_machine.h"

namespace pse::lexer {

inline bool step(const StateMachine& n, std::int32_t& state, std::uint64_t& local, std::uint8_t b) {
  return state >= 0 && n.grammar->lex_step(state, local, b);
}

inline bool accepting(const StateMachine& n, std::int32_t state, std::uint64_t) {
  return state >= 0 && n.grammar->lex_accepting(state);
}

}  // namespace pse::lexer
