"""Process-wide caches of compiled machines, emptied before the interpreter exits.

Compiled automata and machines are cached per process (by content) so that schemas
share them. At shutdown CPython clears module globals but does not collect every
cycle afterwards, so a native machine still held by a cache could outlive the
interpreter, and nanobind's leak report (``PSE_LEAK_WARNINGS=1``) would name it. Each
such cache is made with :func:`process_cache` (or registers its ``clear`` with
:func:`on_exit`); at exit they are all emptied and the cycle collector runs once.
"""

from __future__ import annotations

import atexit
import functools
import gc
from collections.abc import Callable
from typing import TypeVar

_R = TypeVar("_R")
_CLEARS: list[Callable[[], None]] = []


def on_exit(clear: Callable[[], None]) -> None:
    """Call ``clear`` (a cache's emptying function) before the interpreter exits."""
    _CLEARS.append(clear)


def process_cache(
    maxsize: int | None = None, *, typed: bool = False
) -> Callable[[Callable[..., _R]], functools._lru_cache_wrapper[_R]]:
    """``functools.lru_cache(maxsize, typed)``, emptied before the interpreter exits."""

    def decorate(function: Callable[..., _R]) -> functools._lru_cache_wrapper[_R]:
        cached = functools.lru_cache(maxsize=maxsize, typed=typed)(function)
        on_exit(cached.cache_clear)
        return cached

    return decorate


def release() -> None:
    """Empty every registered cache, then collect the cycles they held."""
    for clear in _CLEARS:
        clear()
    gc.collect()


atexit.register(release)
