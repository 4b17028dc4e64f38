// A process-wide count of edits to state machines whose derived facts were
// already in use, so that caches keyed on node identity know when to forget.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pse {

/// Bumped by StateMachine::invalidate() when the node had derived facts (a
/// node already used by an engine); never by building a fresh machine.
inline std::atomic<std::uint64_t> machine_edits{0};

/// Bumped when the last node of a leaf class (StateMachine::leaf_class) dies:
/// caches keyed on classes may then drop the entries of dead ones.
inline std::atomic<std::uint64_t> leaf_class_deaths{0};
/// Whether a live node has leaf class `id`.
bool leaf_class_alive(std::uint64_t id);

/// Erase the entries of `map` (keys with a leaf class `uid`) whose class died,
/// calling `on_drop` with each value erased; a sweep runs only once the map has
/// doubled since the last one (`swept_size`, `swept_deaths`: the caller's
/// record of it), so it costs O(1) per insert.
template <class Map, class OnDrop>
void drop_dead_classes(Map& map, std::size_t& swept_size, std::uint64_t& swept_deaths,
                       OnDrop on_drop) {
  if (map.size() < 2 * swept_size + 256) return;
  const std::uint64_t deaths = leaf_class_deaths.load(std::memory_order_relaxed);
  if (deaths != swept_deaths) {
    swept_deaths = deaths;
    std::erase_if(map, [&](const auto& entry) {
      if (leaf_class_alive(entry.first.uid)) return false;
      on_drop(entry.second);
      return true;
    });
  }
  swept_size = map.size();
}

}  // namespace pse
