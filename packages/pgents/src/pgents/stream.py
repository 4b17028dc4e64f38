"""Streaming JSON: parse every prefix of a document as it arrives.

:func:`parse_partial_json` reads a *prefix* of a JSON document and returns the
value seen so far, with containers implicitly closed. Two policies for what is
still being written, matching the two reference libraries in
``../shared/data/partial-json``:

* ``"trailing-strings"`` (the default, jiter's ``partial_mode="trailing-strings"``):
  an unfinished string value is kept as far as it goes (an unfinished escape
  is left out); an unfinished key, number (``37.``, ``1e``), literal (``tru``)
  or a key still waiting for its value is left out.
* ``"on"`` (jiter's ``partial_mode="on"``): unfinished strings are left out too.

The parser is strict about everything else; text that is not a JSON prefix
returns ``None`` so callers can fall back on :func:`pgents.repair.repair_json`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["PartialPolicy", "PartialValue", "parse_partial_json"]

PartialPolicy = Literal["trailing-strings", "on"]

_WS: Final = re.compile(r"[ \t\r\n]*")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_NUMBER_PREFIX: Final = re.compile(r"-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][-+]?\d*)?")
_STRING_CHUNK: Final = re.compile(r'[^"\\\x00-\x1f]*')
_ESC: Final = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_LIT: Final = {"true": True, "false": False, "null": None}
_MAX_DEPTH: Final = 512


class _Invalid(Exception):
    pass


class _Missing:
    pass


_MISSING: Final = _Missing()


@dataclass(frozen=True)
class PartialValue:
    """The value of a prefix; ``complete`` when the prefix is a whole document."""

    value: Any
    complete: bool


def parse_partial_json(
    text: str, policy: PartialPolicy = "trailing-strings"
) -> PartialValue | None:
    """The value of the JSON prefix ``text``, or None when ``text`` is not a
    JSON prefix or holds no value yet. Never raises."""
    try:
        p = _Parser(text, policy == "trailing-strings")
        p.i = p.ws(0)
        if p.i >= p.n:
            return None
        value = p.value(0)
        if value is _MISSING:
            return None
        end = p.ws(p.i)
        if end < p.n:
            return None
        return PartialValue(value, p.complete)
    except (_Invalid, RecursionError):
        return None


class _Parser:
    __slots__ = ("s", "n", "i", "trailing", "complete")

    def __init__(self, s: str, trailing: bool) -> None:
        self.s, self.n, self.i, self.trailing, self.complete = s, len(s), 0, trailing, True

    def ws(self, pos: int) -> int:
        m = _WS.match(self.s, pos)
        return m.end() if m else pos

    def cut(self) -> _Missing:
        self.complete = False
        return _MISSING

    def value(self, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise _Invalid
        s, i = self.s, self.i
        if i >= self.n:
            return self.cut()
        c = s[i]
        if c == "{":
            return self.obj(depth)
        if c == "[":
            return self.arr(depth)
        if c == '"':
            text, done = self.string()
            if done:
                return text
            self.complete = False
            return text if self.trailing else _MISSING
        if c == "-" or c.isdigit():
            return self.number()
        for word, val in _LIT.items():
            if s.startswith(word, i):
                self.i = i + len(word)
                return val
            if word.startswith(s[i:]):
                self.i = self.n
                return self.cut()
        raise _Invalid

    def number(self) -> Any:
        s, i = self.s, self.i
        m = _NUMBER.match(s, i)
        p = _NUMBER_PREFIX.match(s, i)
        end_full = m.end() if m else i
        end_pre = p.end() if p else i
        if end_pre == self.n and end_pre > end_full:
            self.i = self.n
            return self.cut()
        if m is None:
            raise _Invalid
        self.i = end_full
        tok = m.group()
        return float(tok) if any(ch in tok for ch in ".eE") else int(tok)

    def string(self) -> tuple[str, bool]:
        s, n = self.s, self.n
        pos = self.i + 1
        parts: list[str] = []
        while True:
            m = _STRING_CHUNK.match(s, pos)
            end = m.end() if m else pos
            parts.append(s[pos:end])
            if end >= n:
                self.i = n
                return "".join(parts), False
            c = s[end]
            if c == '"':
                self.i = end + 1
                return "".join(parts), True
            if c != "\\":
                raise _Invalid
            if end + 1 >= n:
                self.i = n
                return "".join(parts), False
            x = s[end + 1]
            if x in _ESC:
                parts.append(_ESC[x])
                pos = end + 2
            elif x == "u":
                hexd = s[end + 2 : end + 6]
                if len(hexd) < 4 and all(h in "0123456789abcdefABCDEF" for h in hexd):
                    self.i = n
                    return "".join(parts), False
                if len(hexd) < 4 or not all(h in "0123456789abcdefABCDEF" for h in hexd):
                    raise _Invalid
                parts.append(chr(int(hexd, 16)))
                pos = end + 6
            else:
                raise _Invalid

    def obj(self, depth: int) -> Any:
        s, n = self.s, self.n
        out: dict[str, Any] = {}
        self.i = self.ws(self.i + 1)
        if self.i < n and s[self.i] == "}":
            self.i += 1
            return out
        while True:
            if self.i >= n:
                self.cut()
                return out
            if s[self.i] != '"':
                raise _Invalid
            key, done = self.string()
            if not done:
                self.complete = False
                return out
            self.i = self.ws(self.i)
            if self.i >= n:
                self.cut()
                return out
            if s[self.i] != ":":
                raise _Invalid
            self.i = self.ws(self.i + 1)
            value = self.value(depth + 1)
            if value is _MISSING:
                self.i = n
                return out
            out[key] = value
            self.i = self.ws(self.i)
            if self.i >= n:
                self.cut()
                return out
            c = s[self.i]
            if c == "}":
                self.i += 1
                return out
            if c != ",":
                raise _Invalid
            self.i = self.ws(self.i + 1)

    def arr(self, depth: int) -> Any:
        s, n = self.s, self.n
        out: list[Any] = []
        self.i = self.ws(self.i + 1)
        if self.i < n and s[self.i] == "]":
            self.i += 1
            return out
        while True:
            value = self.value(depth + 1)
            if value is _MISSING:
                self.i = n
                return out
            out.append(value)
            self.i = self.ws(self.i)
            if self.i >= n:
                self.cut()
                return out
            c = s[self.i]
            if c == "]":
                self.i += 1
                return out
            if c != ",":
                raise _Invalid
            self.i = self.ws(self.i + 1)
