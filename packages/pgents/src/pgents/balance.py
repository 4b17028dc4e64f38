"""Bracket/quote stack tracking for JSON text, shared by stack balancing and
CFG completion. Incremental: ``feed`` only looks at new characters."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["BracketTracker", "complete_json"]

_PAIRS: Final = {"{": "}", "[": "]"}
_LITERALS: Final = ("true", "false", "null")


@dataclass
class BracketTracker:
    """Tracks open brackets and strings over a growing text."""

    stack: list[str] = field(default_factory=list)
    in_string: bool = False
    escaped: bool = False
    size: int = 0
    safe_index: int = 0

    @property
    def safe_stack(self) -> tuple[str, ...]:
        """The open brackets at ``safe_index``: only brackets change the stack
        and each bracket moves ``safe_index``, so it is the current stack."""
        return tuple(self.stack)

    def feed(self, chunk: str) -> None:
        stack = self.stack
        base = self.size
        for k, ch in enumerate(chunk):
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                elif ch == "\\":
                    self.escaped = True
                elif ch == '"':
                    self.in_string = False
                continue
            if ch == '"':
                self.in_string = True
            elif ch in _PAIRS:
                stack.append(_PAIRS[ch])
                self.safe_index = base + k + 1
            elif ch in "}]":
                if stack and stack[-1] == ch:
                    stack.pop()
                self.safe_index = base + k + 1
            elif ch == "," and stack:
                self.safe_index = base + k
        self.size += len(chunk)

    def closers(self) -> str:
        return ('"' if self.in_string else "") + "".join(reversed(self.stack))


def _loads(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def _closers(text: str) -> str:
    t = BracketTracker()
    t.feed(text)
    return t.closers()


def complete_json(prefix: str) -> str | None:
    """A short suffix that makes the JSON prefix ``prefix`` a valid document
    (``None`` when no candidate works)."""
    mids = ["", "0", '""', ":0", '":0', '"', '"":0', "]", "}"]
    tail = re.search(r"[a-z]+$", prefix)
    if tail is not None:
        mids[:0] = [lit[len(tail.group()) :] for lit in _LITERALS if lit.startswith(tail.group())]
    if prefix.rstrip().endswith((".", "e", "E", "-", "+")):
        mids.insert(0, "0")
    for mid in mids:
        candidate = prefix + mid
        suffix = mid + _closers(candidate)
        if _loads(prefix + suffix)[0]:
            return suffix
    return None
