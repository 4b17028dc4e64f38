// A process-wide count of edits to state machines whose derived facts were
// already in use, so that caches keyed on node identity know when to forget.
#pragma once

#include <atomic>
#include <cstdint>

namespace pse {

/// Bumped by StateMachine::invalidate() when the node had derived facts (a
/// node already used by an engine); never by building a fresh machine.
inline std::atomic<std::uint64_t> machine_edits{0};

}  // namespace pse
