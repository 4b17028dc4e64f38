#include "consume.h"

#include <algorithm>

#include "pse_core/external.h"

namespace pse {

void close_path(Runtime& rt, const Path& path, Positions& out) {
  rt.offset = static_cast<std::uint32_t>(path.text.size());
  rt.closure(path.top, out);
}

PathPtr extend(const Path& base, const Frame* top, std::shared_ptr<Arena> arena,
               SharedLog<std::string> text, std::optional<std::string> remaining) {
  auto p = std::make_shared<Path>(base);
  p->top = top;
  p->arena = std::move(arena);
  p->text = std::move(text);
  p->remaining = std::move(remaining);
  return p;
}

PathPtr with_token(const PathPtr& path, std::int32_t token_id) {
  auto p = std::make_shared<Path>(*path);
  const auto end = static_cast<std::uint32_t>(path->text.size());
  p->token_ids = path->token_ids.extended(&token_id, &token_id + 1);
  p->token_ends = path->token_ends.extended(&end, &end + 1);
  return p;
}

void feed(Runtime& rt, Positions start, std::string_view bytes, std::uint32_t base,
          FeedResult& result) {
  // levels[k]: canonical positions before byte k. External steppers consume
  // several bytes at once and rejoin at a later level.
  std::vector<Positions> levels(bytes.size() + 1);
  levels[0] = std::move(start);
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    for (const Frame* f : levels[k]) {
      rt.offset = base + static_cast<std::uint32_t>(k);
      if (f->done()) {
        result.finished = f;
        result.finished_at = k;
        continue;
      }
      if (f->kind == Kind::kExternal) {
        for (auto [g, used] : rt.external_step(f, bytes.substr(k))) {
          rt.offset = base + static_cast<std::uint32_t>(k + used);
          if (k + used == bytes.size()) add_unique(result.full, g);
          // It left the rest of the text: a step only when it completed.
          else if (g->node->external->accepting(reinterpret_cast<void*>(g->local)))
            rt.closure(rt.pop(g), levels[k + used]);
        }
        continue;
      }
      const Frame* g = rt.step(f, static_cast<std::uint8_t>(bytes[k]));
      if (!g) continue;
      rt.offset = base + static_cast<std::uint32_t>(k) + 1;
      if (k + 1 == bytes.size()) add_unique(result.full, g);
      else rt.closure(g, levels[k + 1]);
    }
  }
}

ConsumeResult consume(const PathPtr& path, std::string_view bytes, std::int32_t token_id) {
  ConsumeResult result;
  if (path->remaining || bytes.empty()) return result;  // a finished path takes no more input
  auto arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  arena->keep(path->arena);
  Runtime rt(*arena, true, path->root_depth);
  const std::uint32_t base = static_cast<std::uint32_t>(path->text.size());
  Positions start;
  close_path(rt, *path, start);
  FeedResult fed;
  feed(rt, std::move(start), bytes, base, fed);

  if (!fed.full.empty()) {
    auto text = path->text.extended(bytes.begin(), bytes.end());
    for (const Frame* f : fed.full) {
      PathPtr p = extend(*path, f, arena, text, std::nullopt);
      result.full.push_back(token_id >= 0 ? with_token(p, token_id) : p);
    }
  } else if (fed.finished) {
    auto text = path->text.extended(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(fed.finished_at));
    PathPtr p = extend(*path, fed.finished, arena, text, std::string(bytes.substr(fed.finished_at)));
    result.partial.push_back(token_id >= 0 ? with_token(p, token_id) : p);
  }
  return result;
}

void merge_paths(std::vector<PathPtr>& into, const std::vector<PathPtr>& more) {
  auto same = [](const Path& a, const Path& b) {
    return a.root_depth == b.root_depth && a.remaining == b.remaining &&
           (a.top == b.top || (a.top && b.top && a.top->hash == b.top->hash && same_stack(a.top, b.top)));
  };
  for (const PathPtr& p : more) {
    const bool known = std::any_of(into.begin(), into.end(), [&](const PathPtr& q) { return same(*q, *p); });
    if (!known) into.push_back(p);
  }
}

bool can_consume(const PathPtr& path, std::string_view bytes) {
  if (path->remaining || bytes.empty()) return false;
  Arena arena(limits::kPathArenaBlockBytes);
  Runtime rt(arena, true, path->root_depth);
  Positions start;
  close_path(rt, *path, start);
  FeedResult fed;
  feed(rt, std::move(start), bytes, static_cast<std::uint32_t>(path->text.size()), fed);
  return !fed.full.empty();
}

}  // namespace pse
