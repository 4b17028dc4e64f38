"""The scan state shared by the repair modules: text, position, repairs, open containers."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_DEPTH", "Cursor", "TooDeep"]

MAX_DEPTH: Final = 512
"""Nesting beyond this depth stops the scan (it would exhaust Python's stack)."""

_WS_RE: Final = re.compile(r"[ \t\r\n\ufeff]*")
_HASH_COMMENT_END_RE: Final = re.compile(r"[\n}\]]")


class TooDeep(Exception):
    """Raised when nesting exceeds MAX_DEPTH; callers turn it into a failure."""


class Cursor:
    """A position in ``s`` plus what the scan has done so far.

    ``stack`` holds the closers of the open containers (innermost last);
    ``repairs`` every change, each with its text offset.
    """

    __slots__ = ("s", "n", "i", "repairs", "stack", "stream_stable")

    def __init__(self, text: str, *, stream_stable: bool = False) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.repairs: list[str] = []
        self.stack: list[str] = []
        self.stream_stable = stream_stable

    def repair(self, what: str) -> None:
        self.repairs.append(f"{what} at {self.i}")

    def ws(self, pos: int) -> int:
        """Index of the first non-whitespace character at or after ``pos``."""
        m = _WS_RE.match(self.s, pos)
        return m.end() if m else pos

    def ws_comments(self, pos: int, record: bool = False) -> int:
        """Skip whitespace and comments (``//``, ``/* */``, ``#``) from ``pos``."""
        s, n = self.s, self.n
        while True:
            pos = self.ws(pos)
            if pos >= n:
                return pos
            c = s[pos]
            if c == "/" and pos + 1 < n and s[pos + 1] == "/":
                end = s.find("\n", pos)
                new = n if end < 0 else end
            elif c == "/" and pos + 1 < n and s[pos + 1] == "*":
                end = s.find("*/", pos + 2)
                new = n if end < 0 else end + 2
            elif c == "#":
                m = _HASH_COMMENT_END_RE.search(s, pos)
                new = n if m is None else m.start()
            else:
                return pos
            if record:
                self.repairs.append(f"removed comment at {pos}")
            pos = new

    def skip(self) -> None:
        """Move past whitespace and comments, recording removed comments."""
        self.i = self.ws_comments(self.i, record=True)

    def push(self, closer: str) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise TooDeep
        self.stack.append(closer)
