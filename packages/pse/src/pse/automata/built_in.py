"""Automata of built-in types, kept for the process.

``type: integer`` alone and each ``format`` alone are fixed languages that no
schema changes: their automata are built on first use and kept (one per
format at most, so the memory is bounded). They are not ``functools`` caches,
so clearing the compile caches (``cache_clear`` in ``pse.automata`` and
``pse.types``, as the benchmarks do before a cold compile) leaves them: a
process pays for each once, as for a built-in rule of the engine. They are
released at exit, before the native module goes, so nanobind's report of native
objects alive at exit stays meaningful.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from pse.process_caches import on_exit

T = TypeVar("T")

_KEPT: dict[tuple[str, str], object] = {}
on_exit(_KEPT.clear)


def built_in(kind: str, name: str, build: Callable[[], T]) -> T:
    """The automaton ``(kind, name)``: ``build()`` on first use, then the same object."""
    found = _KEPT.get((kind, name))
    if found is None:
        found = _KEPT[(kind, name)] = build()
    return cast(T, found)


__all__ = ["built_in"]
