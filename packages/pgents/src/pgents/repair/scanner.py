"""A tokenizer-free, single-pass scanner that repairs LLM-shaped JSON: containers and values.

The scanner is a recursive-descent parser that never rejects input: where the
text departs from JSON it makes the least surprising guess, records what it
did in ``repairs`` and carries on. Strings are read by :mod:`.strings` (with
the quote lookahead of :mod:`.termination`), unquoted numbers, literals and
text by :mod:`.words`; the position and comment skipping live in
:mod:`.cursor`. Valid documents never reach it (``repair_json`` tries
``json.loads`` first).

The guesses made here:

* prose before, between and after values is skipped (only ``{``, ``[`` and a
  leading ``(`` start a top-level value);
* unclosed arrays and objects are closed at the end of input; a closer of the
  wrong kind closes the inner containers up to its match, unless the right
  closer follows it (then it is a stray duplicate and is dropped);
* trailing, leading and doubled commas are dropped, missing commas and colons
  inserted; comments are removed;
* unquoted keys become strings, tuples ``(1, 2)`` become arrays, sets
  ``{1, 2}`` arrays too; a value cut off by the end of the input is left out
  with its key;
* a string value that is a fenced JSON block is read as that JSON.
"""

from __future__ import annotations

import re
from typing import Any, Final

from pgents.repair.cursor import MAX_DEPTH, Cursor, TooDeep
from pgents.repair.strings import DROP, read_string
from pgents.repair.termination import QUOTES
from pgents.repair.words import LITERALS, MISSING, read_word

__all__ = ["MAX_DEPTH", "Scanner", "SpanScanner", "TooDeep"]

_KEY_STOP_RE: Final = re.compile(r"[:\"'\u201c{}\[\],]")
_CONTAINER_START_RE: Final = re.compile(r"[\[{]")
_ROOT_REOPEN_RE: Final = re.compile(r"\s*,\s*\"[^\"\n]*\"\s*:")
_TUPLE_END_RE: Final = re.compile(r"\s*\)")
_SEPARATOR_RE: Final = re.compile(r"[,}\]\"]")
_FENCE_OPEN_RE: Final = re.compile(r"^`{3,}[\w+-]*")
_CLOSERS: Final = "}])"


class Scanner(Cursor):
    """Scans one text; ``parse_top`` returns the values found, ``repairs`` says how."""

    __slots__ = ()

    # -------------------------------------------------------------------- top

    def parse_top(self) -> list[Any]:
        """Every top-level value in the text, in order (prose is skipped)."""
        s, n = self.s, self.n
        values: list[Any] = []
        start = self.ws(0)
        stripped = s[start:].rstrip()
        if stripped.lower() in LITERALS:
            if stripped not in ("true", "false", "null"):
                self.repair(f"normalised literal {stripped!r}")
            return [LITERALS[stripped.lower()]]
        if start < n and s[start] == "(":
            self.i = start
            values.append(self._tuple())
        while self.i < n:
            m = _CONTAINER_START_RE.search(s, self.i)
            if m is None:
                if s[self.i :].strip():
                    self.repair("dropped trailing text")
                break
            if s[self.i : m.start()].strip():
                self.repair("dropped text before value")
            self.i = m.start()
            if s[self.i] == "{":
                value: Any = self._object()
                while _ROOT_REOPEN_RE.match(s, self.i) is not None:
                    self.repair("merged keys after a premature '}'")
                    self.i = s.index(",", self.i) + 1
                    self._object_body(value, "}")
            else:
                value = self._array()
            values.append(value)
        return values

    # ------------------------------------------------------------- containers

    def _close_mismatch(self, c: str) -> bool:
        """At a closer that is not ours: True to close ours (it matches an
        ancestor), False after dropping it as stray."""
        if c in self.stack:
            j = self.ws_comments(self.i + 1)
            if j < self.n and self.s[j] == self.stack[-1]:
                self.repair(f"dropped a duplicated {c!r}")
                self.i += 1
                return False
            self.repair(f"closed {self.stack[-1]!r} before {c!r}")
            return True
        self.repair(f"dropped stray {c!r}")
        self.i += 1
        return False

    def _object(self) -> Any:
        self.i += 1
        obj: dict[str, Any] = {}
        return self._object_body(obj, "}")

    def _object_body(self, obj: dict[str, Any], closer: str, pending_key: str | None = None) -> Any:
        """Parse ``key: value`` pairs into ``obj`` up to ``closer``.

        ``closer`` is ``"}"`` for a real object; ``"]"`` when an array element
        turned out to be a key (``["a": 1]``), in which case ``]`` ends the
        object without being consumed.
        """
        s, n = self.s, self.n
        self.push("}")
        try:
            while True:
                self.skip()
                if self.i >= n:
                    self.repair("closed object")
                    return obj
                c = s[self.i]
                if pending_key is not None:
                    key: Any = pending_key
                    pending_key = None
                    c = ":"
                elif c == "}":
                    self.i += 1
                    return obj
                elif c == ":":
                    self.repair("dropped ':' without a key")
                    self.i += 1
                    continue
                elif c in "])":
                    if closer == "]" and c == "]":
                        self.repair("closed object inside array")
                        return obj
                    if self._close_mismatch(c):
                        return obj
                    continue
                if c == ",":
                    self.repair("dropped extra comma")
                    self.i += 1
                    continue
                # ---- key
                if c == ":":
                    pass
                elif c in QUOTES:
                    key = read_string(self, "key")
                    if key is DROP:
                        return obj
                elif c == "[":
                    arr = self._array()
                    key = str(arr[0]) if arr else ""
                    self.repair("used an array as a key")
                elif c == "{":
                    self._object()
                    self.repair("dropped an object in key position")
                    continue
                elif not obj and (c.isdigit() or c == "-"):
                    # {5} or {1, 2}: a set, read as an array.
                    self.repair("read a set as an array")
                    self.stack.pop()
                    try:
                        return self._array_body("}")
                    finally:
                        self.stack.append("}")
                else:
                    m = _KEY_STOP_RE.search(s, self.i)
                    j = n if m is None else m.start()
                    if j < n and s[j] == ":":
                        key = s[self.i : j].strip()
                        self.repair(f"quoted key {key!r}")
                        self.i = j
                    else:
                        self.repair("dropped text in key position")
                        self.i = j
                        continue
                # ---- colon
                self.skip()
                if self.i >= n:
                    self.repair(f"dropped key {key!r} without value")
                    return obj
                c = s[self.i]
                if c == ":":
                    self.i += 1
                elif c in ",}":
                    self.repair(f"gave key {key!r} an empty value")
                    obj[key] = ""
                    continue
                else:
                    self.repair("inserted missing ':'")
                # ---- value
                self.skip()
                if self.i >= n:
                    self.repair(f"dropped key {key!r} without value")
                    return obj
                value = self._value("object")
                if value is DROP:
                    self.repair(f"dropped key {key!r} without value")
                    return obj
                if value is MISSING:
                    self.repair(f"gave key {key!r} an empty value")
                    value = ""
                obj[key] = value
                # ---- separator
                self.skip()
                if self.i >= n:
                    continue
                c = s[self.i]
                if c == ",":
                    self.i += 1
                    j = self.ws_comments(self.i)
                    if j >= n or s[j] == "}":
                        self.repair("removed trailing comma")
                elif c in "}])":
                    continue
                elif c in QUOTES:
                    self.repair("inserted missing ','")
                else:
                    m = _SEPARATOR_RE.search(s, self.i)
                    self.repair("dropped text after value")
                    self.i = n if m is None else m.start()
        finally:
            self.stack.pop()

    def _array(self) -> list[Any]:
        self.i += 1
        return self._array_body("]")

    def _array_body(self, closer: str) -> list[Any]:
        s, n = self.s, self.n
        arr: list[Any] = []
        self.push(closer)
        try:
            while True:
                self.skip()
                if self.i >= n:
                    self.repair(f"closed {closer!r}")
                    return arr
                c = s[self.i]
                if c == closer:
                    self.i += 1
                    return arr
                if c in _CLOSERS:
                    if self._close_mismatch(c):
                        return arr
                    continue
                if c == ",":
                    self.repair("dropped extra comma")
                    self.i += 1
                    continue
                if c == "." and s.startswith("...", self.i) or c == "\u2026":
                    self.repair("dropped ellipsis")
                    self.i += 3 if c == "." else 1
                    continue
                value = self._value("array")
                if value is DROP:
                    return arr
                if value is MISSING:
                    self.repair("dropped unexpected character")
                    self.i += 1
                    continue
                self.skip()
                if self.i < n and s[self.i] == ":" and isinstance(value, str):
                    self.repair("inserted missing '{'")
                    obj: dict[str, Any] = {}
                    self._object_body(obj, "]", pending_key=value)
                    value = obj
                    self.skip()
                arr.append(value)
                if self.i >= n:
                    continue
                c = s[self.i]
                if c == ",":
                    self.i += 1
                    j = self.ws_comments(self.i)
                    if j >= n or s[j] == closer:
                        self.repair("removed trailing comma")
                elif c not in _CLOSERS:
                    self.repair("inserted missing ','")
        finally:
            self.stack.pop()

    def _tuple(self) -> Any:
        self.repair("read a tuple as an array")
        self.i += 1
        saw_comma = _TUPLE_END_RE.match(self.s, self.i) is not None
        start = self.i
        arr = self._array_body(")")
        if len(arr) == 1 and "," not in self.s[start : self.i]:
            return arr[0]
        return [] if saw_comma else arr

    # ----------------------------------------------------------------- values

    def _value(self, ctx: str) -> Any:
        s = self.s
        c = s[self.i]
        if c == "{":
            return self._object()
        if c == "[":
            return self._array()
        if c == "(":
            return self._tuple()
        if c in QUOTES:
            text = read_string(self, ctx)
            if isinstance(text, str) and text.startswith("```") and text.endswith("```"):
                return self._fenced_in_string(text)
            return text
        if c in ",}])":
            return MISSING
        return read_word(self, ctx)

    def _fenced_in_string(self, text: str) -> Any:
        inner = Scanner(_FENCE_OPEN_RE.sub("", text)[:-3])
        try:
            found = inner.parse_top()
        except TooDeep:
            return text
        if len(found) == 1 and isinstance(found[0], (dict, list)):
            self.repair("parsed a fenced JSON block inside a string")
            return found[0]
        return text


class SpanScanner(Scanner):
    """A Scanner that also records the ``(start, end)`` span of every value it
    returns, in post-order (children before their container)."""

    __slots__ = ("spans",)

    def __init__(self, text: str, *, stream_stable: bool = False) -> None:
        super().__init__(text, stream_stable=stream_stable)
        self.spans: list[tuple[int, int]] = []

    def _value(self, ctx: str) -> Any:
        start = self.i
        value = super()._value(ctx)
        if value is not MISSING and value is not DROP:
            self.spans.append((start, self.i))
        return value

    def parse_top(self) -> list[Any]:
        values = super().parse_top()
        return values
