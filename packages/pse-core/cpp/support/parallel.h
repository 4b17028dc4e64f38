// A small process-wide pool of worker threads for data-parallel loops.
#pragma once

#include <cstddef>
#include <functional>

namespace pse {

/// Run `task(i)` for every i in [0, n) on up to `threads` threads (the
/// caller's included; 0: one per hardware thread) and return when all are
/// done. Tasks must not throw; each index runs exactly once.
void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& task);

}  // namespace pse
