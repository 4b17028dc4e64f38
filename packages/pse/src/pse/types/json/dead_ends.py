"""A compiled graph without its dead ends.

The array and object builders enumerate states (items counted, values used,
properties seen) and can reach one from which no closing bracket is reachable:
two distinct items over a one-value domain, ``required`` beyond
``maxProperties``, ``contains`` that no item can match. Kept, such a state lets
generation enter a value it can never finish. Pruning every state from which
the end is unreachable leaves only paths that finish; a graph whose start is
pruned matches nothing and compiles to ``NeverStateMachine``, which the
alternatives, properties and items using it drop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pse_core._core import StateGraph, StateId

#: The end state of the compiled graphs (``GraphStateMachine``).
END: StateId = "$"


def without_dead_ends(graph: StateGraph, start: StateId = 0) -> StateGraph | None:
    """``graph`` keeping only the states from which ``END`` is reachable (and the
    edges into them); ``None`` when ``start`` is not one of them. The builders
    leave out edges of machines that match nothing (``NeverStateMachine``)."""
    into: dict[StateId, list[StateId]] = {}
    for state, edges in graph.items():
        for _, target in edges:
            sources = into.get(target)
            if sources is None:
                into[target] = [state]
            else:
                sources.append(state)
    live: set[StateId] = {END}
    todo: list[StateId] = [END]
    while todo:
        for state in into.get(todo.pop(), ()):
            if state not in live:
                live.add(state)
                todo.append(state)
    if start not in live:
        return None
    if all(state in live for state in graph) and all(target in live for target in into):
        return graph  # every state can finish
    return {
        state: [(m, t) for m, t in edges if t in live]
        for state, edges in graph.items()
        if state in live
    }


__all__ = ["without_dead_ends"]
