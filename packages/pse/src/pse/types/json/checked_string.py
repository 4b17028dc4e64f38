"""Where a checked string stands in a grammar.

``format: regex``, ``idn-hostname`` and draft 7 content are native checked
strings (``pse_core._core.checked_string`` and ``idn_hostname_string``): the
core decodes the JSON string as tokens arrive and asks a rule whether the text
can still be completed and, at the closing quote, whether it is valid. Such a
node is stepped by the core as an external node, which cannot be the root of a
grammar: ``in_graph`` places it inside a graph.
"""

from __future__ import annotations

from pse_core._core import StateMachine


def in_graph(machine: StateMachine) -> StateMachine:
    """``machine`` inside a native graph (an external node cannot be a grammar's root)."""
    return StateMachine({0: [(machine, "$")]}, start_state=0, end_states=["$"])


__all__ = ["in_graph"]
