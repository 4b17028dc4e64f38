// How grammar frames move. A kGrammar frame holds a ParseState (kept alive by
// the arena) in `local` and, in `state`, the lexer configuration its last
// lexeme ended in (-1: none), for maximal munch. Its closure pushes a kLexer
// leaf for the next lexeme and, when the parse may end here, pops itself;
// popping a lexer leaf feeds the finished lexeme to the parser.
#include "grammar/grammar.h"
#include "grammar/grammar_frames.h"
#include "runtime.h"

namespace pse {

namespace {

const grammar::ParseState& parse_state(const Frame* f) {
  return *reinterpret_cast<const grammar::ParseState*>(f->local);
}

std::uint64_t hold(Arena& arena, const grammar::StatePtr& ps) {
  arena.keep(ps);
  return reinterpret_cast<std::uintptr_t>(ps.get());
}

}  // namespace

std::uint64_t Runtime::grammar_start(const StateMachine& node) {
  return hold(arena_, node.grammar->initial());
}

void Runtime::grammar_closure(const Frame* f, Positions& out) {
  const grammar::Grammar& g = *f->node->grammar;
  const grammar::ParseState& ps = parse_state(f);
  std::int32_t cfg = g.start_config(ps, f->state);
  if (cfg >= 0) closure(make(f, f->node, Kind::kLexer, cfg, 0, g.start_local(ps), 0), out);
  if (f->consumed() && (finals || !is_root(f)) && g.can_finish(ps)) closure(pop(f), out);
}

const Frame* Runtime::end_lexeme(const Frame* lexeme, std::int32_t state, std::uint64_t local) {
  const Frame* p = lexeme->parent;
  const grammar::ParseState& ps = parse_state(p);
  grammar::StatePtr next = p->node->grammar->finish_lexeme(ps, state, local);
  const std::uint64_t held = next.get() == &ps ? p->local : hold(arena_, next);
  return with(p, state, held, p->flags | kConsumed, p->hist);
}

const Frame& grammar_frame(const Frame& f) { return f.kind == Kind::kLexer ? *f.parent : f; }

std::uint64_t grammar_shape(const Frame& f) { return f.node->grammar->shape(parse_state(&f)); }

std::optional<std::string> grammar_completion(const Frame& f,
                                              const std::array<std::uint64_t, 4>* alphabet) {
  const Frame& top = grammar_frame(f);
  const grammar::Grammar& g = *top.node->grammar;
  grammar::StatePtr ps = parse_state(&top).shared_from_this();
  // The grammar frame pops only once something was read (by it or its lexeme).
  const bool need_byte = !top.consumed() && !f.consumed();
  if (f.kind == Kind::kLexer) return g.shortest_completion(ps, f.state, f.local, need_byte, alphabet);
  return g.shortest_completion(ps, g.start_config(*ps, f.state), g.start_local(*ps), need_byte, alphabet);
}

std::optional<std::string> grammar_shortest(const StateMachine& n,
                                            const std::array<std::uint64_t, 4>* alphabet) {
  const grammar::Grammar& g = *n.grammar;
  const grammar::StatePtr ps = g.initial();
  return g.shortest_completion(ps, g.start_config(*ps, -1), g.start_local(*ps), true, alphabet);
}

}  // namespace pse
