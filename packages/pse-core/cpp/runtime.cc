#include "runtime.h"

#include <stdexcept>
#include <string>

#include "nodes/leaf.h"
#include "pse_core/errors.h"
#include "pse_core/external.h"

namespace pse {

namespace {

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}

inline std::uint64_t frame_hash(const Frame& f) {
  std::uint64_t h = f.parent ? f.parent->hash : 0x51ED270B27ull;
  h = mix(h, f.node->uid);
  h = mix(h, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.state)) << 32) |
                 static_cast<std::uint32_t>(f.target));
  h = mix(h, f.local);
  return mix(h, (static_cast<std::uint64_t>(f.kind) << 8) | f.flags);
}

/// The states a graph closure has reached by skipping nullable edges: inline
/// for the usual handful (no allocation), a mark per state once it grows (the
/// skip chains of large objects).
class StateSet {
 public:
  explicit StateSet(std::size_t universe) : universe_(universe) {}

  /// Adds `s`; false when it was already present.
  bool insert(std::int32_t s) {
    if (marks_.empty()) {
      for (std::size_t i = 0; i < size_; ++i)
        if (inline_[i] == s) return false;
      if (size_ < kInline) {
        inline_[size_++] = s;
        return true;
      }
      marks_.assign(universe_, 0);
      spilled_.assign(inline_, inline_ + size_);
      for (std::int32_t t : spilled_) marks_[index(t)] = 1;
    }
    std::uint8_t& mark = marks_[index(s)];
    if (mark) return false;
    mark = 1;
    spilled_.push_back(s);
    ++size_;
    return true;
  }
  std::size_t size() const { return size_; }
  std::int32_t operator[](std::size_t i) const { return marks_.empty() ? inline_[i] : spilled_[i]; }

 private:
  static constexpr std::size_t kInline = 16;
  // Targets outside the graph's states (none today) share the last mark.
  std::size_t index(std::int32_t s) const {
    return s >= 0 && static_cast<std::size_t>(s) < universe_ - 1 ? static_cast<std::size_t>(s) : universe_ - 1;
  }
  std::size_t universe_;
  std::size_t size_ = 0;
  std::int32_t inline_[kInline];
  std::vector<std::int32_t> spilled_;
  std::vector<std::uint8_t> marks_;
};

}  // namespace

bool same_stack(const Frame* a, const Frame* b) {
  while (a != b) {
    if (!a || !b || a->hash != b->hash || a->node != b->node || a->kind != b->kind ||
        a->state != b->state || a->target != b->target || a->local != b->local ||
        a->flags != b->flags)
      return false;
    a = a->parent;
    b = b->parent;
  }
  return true;
}

namespace {

/// The slot of `f`'s equal in `table`, or of the free slot where it belongs.
std::size_t probe(const std::vector<const Frame*>& table, const Frame* f) {
  const std::size_t mask = table.size() - 1;
  std::size_t i = f->hash & mask;
  while (table[i] && !(table[i]->hash == f->hash && same_stack(table[i], f))) i = (i + 1) & mask;
  return i;
}

}  // namespace

void add_unique(Positions& set, const Frame* f) {
  if (set.size() < Positions::kIndexFrom) {
    for (const Frame* g : set)
      if (g->hash == f->hash && same_stack(g, f)) return;
  } else {
    if (2 * (set.size() + 1) > set.table_.size()) {  // grow (power of two) and re-index all
      std::size_t size = 64;
      while (size < 4 * (set.size() + 1)) size *= 2;
      set.table_.assign(size, nullptr);
      set.indexed_ = 0;
    }
    for (; set.indexed_ < set.size(); ++set.indexed_) {
      const Frame* g = set[set.indexed_];
      set.table_[probe(set.table_, g)] = g;
    }
    std::size_t slot = probe(set.table_, f);
    if (set.table_[slot]) return;
    set.table_[slot] = f;
    ++set.indexed_;
  }
  if (set.size() >= limits::kMaxPositions)
    throw GrammarError("the grammar is too ambiguous: more than " +
                       std::to_string(limits::kMaxPositions) + " positions at once");
  set.push_back(f);
}

void* Arena::grow(std::size_t size, std::size_t align) {
  if (size + align > block_bytes_) throw std::length_error("arena allocation larger than a block");
  if (block_ < blocks_.size()) ++block_;  // the current block has no room left
  if (block_ >= blocks_.size())  // not zero-filled: everything is constructed in place
    blocks_.emplace_back(new std::byte[block_bytes_]);
  used_ = size;
  return blocks_[block_].get();
}

const Frame* Runtime::make(const Frame* parent, const StateMachine* node, Kind kind,
                           std::int32_t state, std::int32_t target, std::uint64_t local,
                           std::uint8_t flags) {
  Frame f{parent, node, nullptr, local, 0, offset, state, target,
          parent ? parent->depth + 1 : 1, kind, flags};
  f.hash = frame_hash(f);
  return arena_.make(f);
}

const Frame* Runtime::with(const Frame* f, std::int32_t state, std::uint64_t local,
                           std::uint8_t flags, const Hist* hist) {
  Frame g = *f;
  g.state = state;
  g.local = local;
  g.flags = flags;
  g.hist = hist;
  g.hash = frame_hash(g);
  return arena_.make(g);
}

const Frame* Runtime::reparent(const Frame* f, const Frame* parent) {
  Frame g = *f;
  g.parent = parent;
  g.depth = parent ? parent->depth + 1 : 1;
  g.hash = frame_hash(g);
  return arena_.make(g);
}

void Runtime::check_depth(const Frame* f) {
  if (f->depth > limits::kMaxStackDepth)
    throw GrammarError("stack deeper than " + std::to_string(limits::kMaxStackDepth) +
                       " (left recursion through '" + f->node->describe() + "'?)");
}

const Frame* Runtime::push(const Frame* parent, const StateMachine* node, std::int32_t target,
                           std::int32_t state, bool raw) {
  node = node->resolve();
  if (node->external && !raw) {
    ExternalNode::Handle h = node->external->start();
    arena_.keep(h);
    return make(parent, node, Kind::kExternal, 0, target, reinterpret_cast<std::uintptr_t>(h.get()),
                0);
  }
  std::int32_t s = 0;
  std::uint64_t local = 0;
  if (node->kind == Kind::kGraph) s = state >= 0 ? state : node->start;
  if (node->kind == Kind::kDfa) s = node->start;
  if (node->kind == Kind::kGrammar) {
    s = -1;
    local = grammar_start(*node);
  }
  const Frame* f = make(parent, node, node->kind, s, target, local, 0);
  check_depth(f);
  return f;
}

const Frame* Runtime::pop(const Frame* f) {
  if (is_root(f) || f->done())
    return with(f, f->state, f->local, f->flags | kDone | kConsumed, f->hist);
  const Frame* p = f->parent;
  if (p->kind == Kind::kGrammar) return end_lexeme(f, f->state, f->local);
  const Hist* hist = p->hist;
  if (record_) hist = arena_.make(Hist{p->hist, f, offset});
  std::uint8_t flags = p->flags | kConsumed;
  switch (p->kind) {
    case Kind::kLoop:
      if (f->target == 1) return with(p, 1, p->local + 1, flags, hist);
      return with(p, 0, p->local, flags, hist);
    default:  // graph, wait-for
      return with(p, f->target, p->local, flags, hist);
  }
}

void Runtime::closure(const Frame* f, Positions& out) {
  if (f->done()) {
    add_unique(out, f);
    return;
  }
  // A skippable root that has consumed nothing may finish right away.
  if (f->depth <= root_depth_ && !f->consumed() && f->kind != Kind::kBuffer && f->node->nullable())
    add_unique(out, with(f, f->state, f->local, f->flags | kDone, f->hist));
  switch (f->kind) {
    case Kind::kGraph:
      graph_closure(f, out);
      return;
    case Kind::kLoop:
      loop_closure(f, out);
      return;
    case Kind::kWaitFor:
      wait_closure(f, out);
      return;
    case Kind::kGrammar:
      grammar_closure(f, out);
      return;
    default:
      break;
  }
  add_unique(out, f);
  if (!f->consumed()) return;
  bool accepting = f->kind == Kind::kExternal
                       ? f->node->external->accepting(reinterpret_cast<void*>(f->local))
                       : leaf::accepting(f->kind, *f->node, f->state, f->local);
  if (accepting) closure(pop(f), out);
}

std::vector<std::pair<const Frame*, std::size_t>> Runtime::external_step(const Frame* f,
                                                                        std::string_view text) {
  std::vector<std::pair<const Frame*, std::size_t>> out;
  for (auto& step : f->node->external->consume(reinterpret_cast<void*>(f->local), text)) {
    if (step.consumed == 0 || step.consumed > text.size()) continue;
    arena_.keep(step.next);
    out.emplace_back(with(f, f->state, reinterpret_cast<std::uintptr_t>(step.next.get()),
                          f->flags | kConsumed, f->hist),
                     step.consumed);
  }
  return out;
}

void Runtime::graph_closure(const Frame* f, Positions& out) {
  const StateMachine& n = *f->node;
  // States reachable by skipping nullable edges.
  StateSet seen(n.states.size() + 1);
  seen.insert(f->state);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    std::int32_t s = seen[i];
    if (s < 0 || static_cast<std::size_t>(s) >= n.states.size()) continue;
    const Frame* fs = s == f->state ? f : with(f, s, f->local, f->flags, f->hist);
    for (const Edge& e : n.states[s].edges) {
      const StateMachine* child = e.machine->resolve();
      closure(push(fs, child, e.target), out);
      if (child->nullable()) seen.insert(e.target);
    }
    if (n.states[s].is_end && fs->consumed()) closure(pop(fs), out);
  }
}

void Runtime::loop_closure(const Frame* f, Positions& out) {
  const StateMachine& n = *f->node;
  std::uint64_t count = f->local;
  if (f->state == 0) {
    if (count < n.max_count) closure(push(f, n.child.get(), 1), out);
    return;
  }
  if (count < n.max_count) {
    if (n.separator) {
      closure(push(f, n.separator.get(), 0), out);
      if (n.separator->resolve()->nullable()) closure(with(f, 0, count, f->flags, f->hist), out);
    } else {
      closure(with(f, 0, count, f->flags, f->hist), out);
    }
  }
  if (count >= n.min_count) closure(pop(f), out);
}

void Runtime::wait_closure(const Frame* f, Positions& out) {
  const StateMachine& n = *f->node;
  switch (f->state) {
    case 0:
      if (n.buffer_length >= 0) closure(make(f, &n, Kind::kBuffer, 0, 1, 0, 0), out);
      if (n.buffer_length <= 0) closure(with(f, 1, 0, f->flags, f->hist), out);
      return;
    case 1: {
      const StateMachine* child = n.child->resolve();
      closure(push(f, child, 2), out);
      if (child->nullable()) closure(with(f, 2, 0, f->flags, f->hist), out);
      return;
    }
    default:
      if (f->consumed()) closure(pop(f), out);
      return;
  }
}

const Frame* Runtime::step(const Frame* f, std::uint8_t b) {
  if (f->done() || !leaf::is_leaf(f->kind)) return nullptr;
  std::int32_t state;
  std::uint64_t local;
  if (!leaf::step_frame(*f, b, state, local)) return nullptr;
  return with(f, state, local, f->flags | kConsumed, f->hist);
}

void Runtime::advance(const Positions& in, std::uint8_t b, Positions& out) {
  std::uint32_t at = offset;
  for (const Frame* f : in) {
    offset = at;
    const Frame* g = step(f, b);
    if (!g) continue;
    offset = at + 1;
    closure(g, out);
  }
  offset = at + 1;
}

}  // namespace pse
