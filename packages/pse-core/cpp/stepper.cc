#include "pse_core/stepper.h"

#include <algorithm>

#include "consume.h"
#include "nodes/leaf.h"
#include "pse_core/engine.h"
#include "pse_core/errors.h"
#include "pse_core/stepper_delta.h"
#include "runtime.h"
#include "support/utf8.h"

namespace pse {

Stepper Stepper::start(const SMPtr& machine, std::int32_t state, bool raw) {
  PathPtr p = start_path(machine, state, raw);
  return Stepper(p, p->top);
}

Stepper root_view(const PathPtr& q) {
  const Frame* f = q->top;
  while (f->depth > q->root_depth) f = f->parent;
  return Stepper(q, f);
}

void Stepper::closed(Runtime& rt, Positions& out) const {
  rt.offset = static_cast<std::uint32_t>(path->text.size());
  rt.closure(path->top, out);
}

std::vector<Stepper> Stepper::consume(std::string_view token, std::int32_t token_id) const {
  if (completed()) throw PseError("a completed stepper from a history cannot consume input");
  PathPtr p = path;
  if (frame->depth != path->root_depth) {  // a sub-stepper: this frame acts as the root
    auto q = std::make_shared<Path>(*path);
    q->root_depth = frame->depth;
    p = q;
  }
  ConsumeResult r = pse::consume(p, token, token_id);
  std::vector<Stepper> out;
  for (const PathPtr& q : r.full.empty() ? r.partial : r.full) out.push_back(root_view(q));
  return out;
}

std::string Stepper::raw_value() const {
  std::uint32_t stop = end ? *end : static_cast<std::uint32_t>(path->text.size());
  if (frame->start >= stop) return {};
  return std::string(path->text.data() + frame->start, stop - frame->start);
}

std::vector<std::int32_t> Stepper::token_ids() const {
  if (is_root()) return path->token_ids.copy();
  std::uint32_t stop = end ? *end : static_cast<std::uint32_t>(path->text.size());
  std::vector<std::int32_t> out;
  std::uint32_t begin = 0;
  for (std::size_t i = 0; i < path->token_ids.size(); ++i) {
    std::uint32_t finish = path->token_ends[i];
    if (finish > frame->start && begin < stop) out.push_back(path->token_ids[i]);
    begin = finish;
  }
  return out;
}

std::size_t Stepper::consumed_character_count() const {
  std::string raw = raw_value();
  return utf8::count_chars(raw.data(), raw.size());
}

bool Stepper::has_reached_accept_state() const {
  if (completed()) return true;
  Arena arena;
  Runtime rt(arena, false, frame->depth);
  Positions out;
  closed(rt, out);
  return std::any_of(out.begin(), out.end(), [](const Frame* f) { return f->done(); });
}

bool Stepper::can_accept_more_input() const {
  if (completed() || path->remaining) return false;
  Arena arena;
  Runtime rt(arena, false, frame->depth);
  Positions out;
  closed(rt, out);
  for (const Frame* f : out) {
    if (f->done()) continue;
    if (f->kind == Kind::kExternal) return true;
    for (int b = 0; b < 256; ++b)
      if (rt.step(f, static_cast<std::uint8_t>(b))) return true;
  }
  return false;
}

bool Stepper::is_within_value() const {
  const Frame* top = completed() ? frame : path->top;
  if (!leaf::is_leaf(top->kind) || !top->consumed()) return false;
  switch (top->kind) {
    case Kind::kPhrase:
      return !leaf::accepting(top->kind, *top->node, top->state, top->local);
    case Kind::kString:
      return top->state != json_string::kClosed;
    default:
      return true;
  }
}

bool Stepper::accepts_any_token() const {
  if (completed()) return false;
  Arena arena;
  Runtime rt(arena, false, frame->depth);
  Positions out;
  closed(rt, out);
  for (const Frame* f : out)
    if (f->kind == Kind::kBuffer ||
        (f->kind == Kind::kCharacter && f->node->whitelist.empty()))
      return true;
  return false;
}

std::vector<std::string> Stepper::valid_continuations() const {
  std::vector<std::string> result;
  if (completed()) return result;
  auto add = [&](std::string s) {
    if (std::find(result.begin(), result.end(), s) == result.end()) result.push_back(std::move(s));
  };
  Arena arena;
  Runtime rt(arena, false, frame->depth);
  Positions out;
  closed(rt, out);
  for (const Frame* f : out) {
    const StateMachine& n = *f->node;
    switch (f->kind) {
      case Kind::kPhrase:
        add(n.phrase.substr(f->local));
        break;
      case Kind::kCharacter:
        if (character::pending(f->local) == 0 && n.whitelist.points.size() <= 1024)
          for (std::uint32_t cp : n.whitelist.points) {
            std::string s;
            utf8::append(s, cp);
            if (rt.step(f, static_cast<std::uint8_t>(s[0]))) add(s);
          }
        break;
      case Kind::kString:
        if (f->state == json_string::kOpen ||
            (f->state == json_string::kContent && json_string::count(f->local) >= n.min_length))
          add("\"");
        break;
      case Kind::kNumber:
        for (char c : std::string("-0123456789.eE+"))
          if (rt.step(f, static_cast<std::uint8_t>(c))) add(std::string(1, c));
        break;
      default:
        break;
    }
  }
  return result;
}

std::vector<std::string> Stepper::invalid_continuations() const {
  std::vector<std::string> result;
  const Frame* top = completed() ? frame : path->top;
  if (top->kind == Kind::kCharacter)
    for (std::uint32_t cp : top->node->blacklist.points) {
      std::string s;
      utf8::append(s, cp);
      result.push_back(s);
    }
  return result;
}

std::optional<std::string> Stepper::identifier() const {
  if (frame->node->identifier) return frame->node->identifier;
  if (auto sub = sub_stepper()) return sub->identifier();
  return std::nullopt;
}

std::optional<Stepper> Stepper::sub_stepper() const {
  if (completed()) return std::nullopt;
  for (const Frame* f = path->top; f; f = f->parent)
    if (f->parent == frame) return Stepper(path, f);
  return std::nullopt;
}

std::vector<Stepper> Stepper::history() const {
  std::vector<Stepper> out;
  for (const Hist* h = frame->hist; h; h = h->next) out.emplace_back(path, h->child, h->end);
  std::reverse(out.begin(), out.end());
  return out;
}

StateKey Stepper::current_state() const {
  const StateMachine& n = *frame->node;
  if (frame->kind == Kind::kGraph) return n.state_keys.at(frame->state);
  if (leaf::is_leaf(frame->kind) &&
      leaf::accepting(frame->kind, n, frame->state, frame->local))
    return StateKey{std::string("$")};
  return StateKey{std::int64_t{frame->kind == Kind::kLoop || frame->kind == Kind::kWaitFor
                                   ? frame->state
                                   : 0}};
}

std::optional<StateKey> Stepper::target_state() const {
  auto sub = sub_stepper();
  if (!sub) return std::nullopt;
  if (frame->kind == Kind::kGraph) return frame->node->state_keys.at(sub->frame->target);
  return StateKey{std::int64_t{sub->frame->target}};
}

std::vector<Stepper> Stepper::branch(std::optional<std::uint8_t> first) const {
  if (completed()) return {};
  auto arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  arena->keep(path->arena);
  Runtime rt(*arena, true, frame->depth);
  Positions out;
  closed(rt, out);
  std::vector<Stepper> result;
  for (const Frame* f : out) {
    if (first && !rt.step(f, *first)) continue;
    auto q = std::make_shared<Path>(*path);
    q->arena = arena;
    q->top = f;
    q->root_depth = frame->depth;
    result.push_back(root_view(q));
  }
  return result;
}

Stepper Stepper::with_state(std::int32_t state) const {
  if (completed()) throw PseError("a completed stepper cannot change state");
  auto arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  arena->keep(path->arena);
  Runtime rt(*arena, true);
  std::vector<const Frame*> above;
  for (const Frame* f = path->top; f != frame; f = f->parent) above.push_back(f);
  const Frame* moved = rt.with(frame, state, frame->local, frame->flags, frame->hist);
  const Frame* top = moved;
  for (auto it = above.rbegin(); it != above.rend(); ++it) top = rt.reparent(*it, top);
  auto q = std::make_shared<Path>(*path);
  q->arena = arena;
  q->top = top;
  return Stepper(q, moved);
}

std::vector<StepperDelta> advance_path(const PathPtr& path, std::string_view token,
                                       const TrieMap* vocab) {
  std::vector<StepperDelta> deltas;
  ConsumeResult r = consume(path, token, -1);
  auto root_of = [](const PathPtr& q) { return root_view(q); };
  for (const PathPtr& q : r.full) deltas.emplace_back(root_of(q), std::string(token), false);
  if (!r.full.empty()) return deltas;
  for (const PathPtr& q : r.partial) {
    std::size_t used = token.size() - q->remaining->size();
    const std::vector<std::int32_t>* ids = vocab ? vocab->get(token.substr(0, used)) : nullptr;
    if (ids && used > 0) {  // heal: the consumed prefix is itself a token
      auto healed = std::make_shared<Path>(*q);
      healed->remaining.reset();
      PathPtr p = with_token(healed, ids->front());
      deltas.emplace_back(root_of(p), std::string(token.substr(0, used)), true, ids->front());
    } else {
      deltas.emplace_back(root_of(q), std::string(token), false);
    }
  }
  return deltas;
}

std::pair<std::string, std::vector<Stepper>> StepperDelta::choose_best_path(
    const std::vector<StepperDelta>& deltas) {
  if (deltas.empty()) return {};
  auto score = [](const StepperDelta& d) {
    return std::make_tuple(!d.was_healed, !d.stepper.path->remaining, d.is_attractive_path(),
                           d.token.size());
  };
  const StepperDelta* best = &deltas.front();
  for (const StepperDelta& d : deltas)
    if (score(d) > score(*best)) best = &d;
  std::vector<Stepper> chosen;
  for (const StepperDelta& d : deltas)
    if (d.token == best->token && d.was_healed == best->was_healed &&
        !d.stepper.path->remaining == !best->stepper.path->remaining)
      chosen.push_back(d.stepper);
  return {best->token, chosen};
}

}  // namespace pse
