// The leaf kinds, dispatched by one switch: the only per-byte code.
#pragma once

#include "nodes/buffer.h"
#include "nodes/character.h"
#include "nodes/dfa.h"
#include "nodes/lexer.h"
#include "nodes/number.h"
#include "nodes/phrase.h"
#include "nodes/string.h"
#include "pse_core/frame.h"

namespace pse::leaf {

inline bool is_leaf(Kind k) {
  return k == Kind::kPhrase || k == Kind::kCharacter || k == Kind::kString ||
         k == Kind::kNumber || k == Kind::kBuffer || k == Kind::kDfa || k == Kind::kLexer;
}

inline bool step(Kind k, const StateMachine& n, std::int32_t& state, std::uint64_t& local,
                 std::uint8_t b) {
  switch (k) {
    case Kind::kPhrase: return phrase::step(n, state, local, b);
    case Kind::kCharacter: return character::step(n, state, local, b);
    case Kind::kString: return json_string::step(n, state, local, b);
    case Kind::kNumber: return number::step(n, state, local, b);
    case Kind::kBuffer: return buffer::step(n, state, local, b);
    case Kind::kDfa: return dfa::step(n, state, local, b);
    case Kind::kLexer: return lexer::step(n, state, local, b);
    default: return false;
  }
}

inline bool accepting(Kind k, const StateMachine& n, std::int32_t state, std::uint64_t local) {
  switch (k) {
    case Kind::kPhrase: return phrase::accepting(n, state, local);
    case Kind::kCharacter: return character::accepting(n, state, local);
    case Kind::kString: return json_string::accepting(n, state, local);
    case Kind::kNumber: return number::accepting(n, state, local);
    case Kind::kBuffer: return buffer::accepting(n, state, local);
    case Kind::kDfa: return dfa::accepting(n, state, local);
    case Kind::kLexer: return lexer::accepting(n, state, local);
    default: return false;
  }
}

/// The part of a leaf's state that decides which tokens it accepts from here,
/// for tokens of at most `span` bytes.
inline std::uint64_t canonical(Kind k, const StateMachine& n, std::uint64_t local,
                               std::uint32_t span) {
  switch (k) {
    case Kind::kCharacter: return character::canonical(n, local, span);
    case Kind::kString: return json_string::canonical(n, local, span);
    case Kind::kBuffer: return buffer::canonical(n, local, span);
    default: return local;
  }
}

inline bool step_frame(const Frame& f, std::uint8_t b, std::int32_t& state, std::uint64_t& local) {
  state = f.state;
  local = f.local;
  return step(f.kind, *f.node, state, local, b);
}

}  // namespace pse::leaf
