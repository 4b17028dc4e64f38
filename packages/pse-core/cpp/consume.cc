#include "consume.h"

namespace pse {

void close_path(Runtime& rt, const Path& path, Positions& out) {
  rt.offset = static_cast<std::uint32_t>(path.text->size());
  rt.closure(path.top, out);
}

PathPtr extend(const Path& base, const Frame* top, std::shared_ptr<Arena> arena,
               std::shared_ptr<const std::string> text,
               std::shared_ptr<const std::vector<std::int32_t>> ids,
               std::optional<std::string> remaining) {
  auto p = std::make_shared<Path>();
  p->top = top;
  p->root_depth = base.root_depth;
  p->machine = base.machine;
  p->arena = std::move(arena);
  p->text = std::move(text);
  p->token_ids = std::move(ids);
  p->remaining = std::move(remaining);
  return p;
}

ConsumeResult consume(const PathPtr& path, std::string_view bytes, std::int32_t token_id) {
  ConsumeResult result;
  if (path->remaining) return result;  // a finished path takes no more input
  auto arena = std::make_shared<Arena>();
  arena->keep(path->arena);
  Runtime rt(*arena, true, path->root_depth);
  const std::uint32_t base = static_cast<std::uint32_t>(path->text->size());

  Positions now, next;
  close_path(rt, *path, now);
  const Frame* finished = nullptr;  // root finished before byte `finished_at`
  std::size_t finished_at = 0;
  for (std::size_t k = 0; k < bytes.size() && !now.empty(); ++k) {
    for (const Frame* f : now)
      if (f->done()) {
        finished = f;
        finished_at = k;
      }
    next.clear();
    rt.offset = base + static_cast<std::uint32_t>(k);
    const bool last = k + 1 == bytes.size();
    for (const Frame* f : now) {
      rt.offset = base + static_cast<std::uint32_t>(k);
      const Frame* g = rt.step(f, static_cast<std::uint8_t>(bytes[k]));
      if (!g) continue;
      if (last) {
        add_unique(next, g);
      } else {
        rt.offset = base + static_cast<std::uint32_t>(k) + 1;
        rt.closure(g, next);
      }
    }
    now.swap(next);
  }
  if (bytes.empty()) return result;

  auto ids = path->token_ids;
  if (token_id >= 0) {
    auto grown = std::make_shared<std::vector<std::int32_t>>(*ids);
    grown->push_back(token_id);
    ids = grown;
  }
  if (!now.empty()) {
    auto text = std::make_shared<const std::string>(*path->text + std::string(bytes));
    for (const Frame* f : now) result.full.push_back(extend(*path, f, arena, text, ids, std::nullopt));
  } else if (finished) {
    auto text =
        std::make_shared<const std::string>(*path->text + std::string(bytes.substr(0, finished_at)));
    result.partial.push_back(
        extend(*path, finished, arena, text, ids, std::string(bytes.substr(finished_at))));
  }
  return result;
}

}  // namespace pse
