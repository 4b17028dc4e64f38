#include "nodes/checked.h"

#include <algorithm>

#include "consume.h"
#include "pse_core/limits.h"

namespace pse {

namespace {

/// A stepper of a checked node: the wrapped machine's canonical positions
/// (bottom frame at depth 1, in `arena` and the arenas it keeps) and the
/// check's state. Immutable once made.
struct Stepped {
  std::shared_ptr<Arena> arena;
  Positions positions;
  Check::State check;
  bool finished = false;
};

bool any_done(const Positions& set) {
  return std::any_of(set.begin(), set.end(), [](const Frame* f) { return f->done(); });
}

/// `f` (a stack whose bottom frame stands at depth 1) standing where `at` stands.
const Frame* rebase(Runtime& rt, const Frame* f, const Frame* at) {
  if (f->depth == 1) return rt.make(at->parent, f->node, f->kind, f->state, at->target, f->local,
                                    f->flags);
  return rt.reparent(f, rebase(rt, f->parent, at));
}

const Stepped& stepped(const Frame* f) {
  return *reinterpret_cast<const Stepped*>(static_cast<std::uintptr_t>(f->local));
}

}  // namespace

ExternalNode::Handle CheckedNode::start() {
  auto s = std::make_shared<Stepped>();
  s->arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  Runtime rt(*s->arena, false);
  rt.closure(rt.push(nullptr, inner_, -1), s->positions);
  s->check = check_->start();
  s->finished = any_done(s->positions);
  return s;
}

std::vector<ExternalNode::Step> CheckedNode::consume(void* h, std::string_view text) {
  const auto& s = *static_cast<const Stepped*>(h);
  std::vector<Step> out;
  if (text.empty()) return out;
  // The check stops at the end of the value, so one call judges every step.
  Check::State check = check_->feed(s.check.get(), text);
  if (!check) return out;
  auto arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  arena->keep(s.arena);
  Runtime rt(*arena, false);
  // feed() steps external frames inside the wrapped machine too (a checked
  // value nested in another: a unique array of unique arrays).
  FeedResult fed;
  feed(rt, s.positions, text, 0, fed);
  auto make_step = [&](Positions positions, std::size_t used) {
    auto n = std::make_shared<Stepped>();
    n->arena = arena;
    n->check = check;
    n->finished = any_done(positions);
    n->positions = std::move(positions);
    out.push_back(Step{n, used});
  };
  if (fed.finished && fed.finished_at > 0)  // the value ended inside the text: the rest is the parent's
    make_step(Positions{fed.finished}, fed.finished_at);
  Positions next;
  rt.offset = static_cast<std::uint32_t>(text.size());
  for (const Frame* g : fed.full) rt.closure(g, next);
  if (!next.empty()) make_step(std::move(next), text.size());
  return out;
}

bool CheckedNode::accepting(void* h) { return static_cast<const Stepped*>(h)->finished; }

void CheckedNode::positions(const Frame* f, Runtime& rt, Positions& out) const {
  for (const Frame* p : stepped(f).positions)
    if (!p->done()) add_unique(out, rebase(rt, p, f));
}

void CheckedNode::filter(const Frame* f, const Vocabulary& vocab, std::size_t skip,
                         std::uint32_t* bits) const {
  const void* state = stepped(f).check.get();
  const std::size_t words = (vocab.size() + 31) / 32;
  for (std::size_t w = 0; w < words; ++w) {
    for (std::uint32_t x = bits[w]; x; x &= x - 1) {
      const auto bit = static_cast<std::uint32_t>(__builtin_ctz(x));
      const auto id = static_cast<std::int32_t>(w * 32 + bit);
      const std::optional<std::string>& token = vocab.token(id);
      if (token && token->size() > skip &&
          !check_->allows(state, std::string_view(*token).substr(skip)))
        bits[w] &= ~(1u << bit);
    }
  }
}

SMPtr make_checked(SMPtr inner, std::shared_ptr<const Check> check) {
  auto node = std::make_shared<StateMachine>(Kind::kGraph);
  const StateMachine* raw = inner.get();
  node->set_graph({{StateKey{std::int64_t{0}}, {{std::move(inner), StateKey{std::string("$")}}}}},
                  StateKey{std::int64_t{0}}, {StateKey{std::string("$")}});
  node->external = std::make_shared<CheckedNode>(raw, std::move(check));
  return node;
}

}  // namespace pse
