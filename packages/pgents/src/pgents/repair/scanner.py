"""A tokenizer-free, single-pass scanner that repairs LLM-shaped JSON.

The scanner is a recursive-descent parser that never rejects input: where the
text departs from JSON it makes the least surprising guess, records what it
did in ``repairs`` and carries on. It is written for speed in pure Python:
strings are cut with ``str.find``/compiled regexes rather than walked one
character at a time, and valid documents never reach it (``repair_json``
tries ``json.loads`` first).

The guesses, in the order the scanner meets them:

* prose before, between and after values is skipped (only ``{``, ``[`` and a
  leading ``(`` start a top-level value); fenced blocks (```` ```json ````) are
  preferred when the text does not itself start with a container;
* unclosed strings, arrays and objects are closed at the end of input;
  a closer of the wrong kind closes the inner containers up to its match;
* trailing, leading and doubled commas are dropped, missing commas and colons
  inserted; ``//``, ``/* */`` and ``#`` comments are removed;
* single, curly and unbalanced quotes are normalised: an unescaped quote
  inside a string closes it only when what follows looks like JSON
  structure (a comma and a key, a matching closer, a colon after a key);
* unquoted keys and values become strings, Python/any-case literals
  (``True``, ``None``, ``NULL``) become JSON literals, truncated numbers
  (``1.``, ``1e``, ``.5``) become numbers, tuples ``(1, 2)`` become arrays.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["MAX_DEPTH", "Scanner", "SpanScanner", "TooDeep"]

MAX_DEPTH: Final = 512
"""Nesting beyond this depth stops the scan (it would exhaust Python's stack)."""

_WS_RE: Final = re.compile(r"[ \t\r\n\ufeff]*")
_NUM_RE: Final = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRUNC_EXP_RE: Final = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+))[eE][-+]?")
_WORD_RE: Final = re.compile(r"[^\s,\]\}\)\"':]+")
_UNQUOTED_VALUE_RE: Final = re.compile(r"[^,\}\]\)\"\n]*")
_KEY_STOP_RE: Final = re.compile(r"[:\"'\u201c{}\[\],]")
_CONTAINER_START_RE: Final = re.compile(r"[\[{]")
_KEY_AFTER_COMMA_RE: Final = re.compile(r",\s*[A-Za-z_][\w\- ]*:")
_QUOTED_KEY_AHEAD_RE: Final = re.compile(r",[^\"\n]{0,80}\"[^\"\n]*\"\s*:")
_ROOT_REOPEN_RE: Final = re.compile(r"\s*,\s*\"[^\"\n]*\"\s*:")
_CONTROL_RE: Final = re.compile(r"[\x00-\x1f]")
_LITERALS: Final[dict[str, Any]] = {
    "true": True,
    "false": False,
    "null": None,
    "none": None,
}
_QUOTES: Final = "\"'\u201c\u201d"
_CLOSE_FOR: Final = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201d": "\u201d"}
_SEARCH_FOR: Final = {
    '"': re.compile(r'["\\]'),
    "'": re.compile(r"['\\]"),
    "\u201d": re.compile('[\u201d\u201c"\\\\]'),
}
_ESCAPES: Final = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_QUOTE_LIKE: Final = "'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb"
_CLOSERS: Final = "}])"
_VALUE_START_IN_ARRAY: Final = "{[\"'\u201c0123456789-.tfnTFN"


class TooDeep(Exception):
    """Raised internally when nesting exceeds MAX_DEPTH; callers turn it into a failure."""


class _Missing:
    __slots__ = ()


_MISSING: Final = _Missing()
_DROP: Final = _Missing()


class Scanner:
    """Scans one text; ``parse_top`` returns the values found, ``repairs`` says how."""

    __slots__ = ("s", "n", "i", "repairs", "stack", "stream_stable")

    def __init__(self, text: str, *, stream_stable: bool = False) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.repairs: list[str] = []
        self.stack: list[str] = []
        self.stream_stable = stream_stable

    # ------------------------------------------------------------------ helpers

    def _repair(self, what: str) -> None:
        self.repairs.append(f"{what} at {self.i}")

    def _ws(self, pos: int) -> int:
        """Index of the first non-whitespace character at or after ``pos``."""
        m = _WS_RE.match(self.s, pos)
        return m.end() if m else pos

    def _ws_comments(self, pos: int, record: bool = False) -> int:
        """Skip whitespace and comments (``//``, ``/* */``, ``#``)."""
        s, n = self.s, self.n
        while True:
            pos = self._ws(pos)
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
                m = re.compile(r"[\n}\]]").search(s, pos)
                new = n if m is None else m.start()
            else:
                return pos
            if record:
                self.repairs.append(f"removed comment at {pos}")
            pos = new

    def _skip(self) -> None:
        self.i = self._ws_comments(self.i, record=True)

    # -------------------------------------------------------------------- top

    def parse_top(self) -> list[Any]:
        """Every top-level value in the text, in order (prose is skipped)."""
        s, n = self.s, self.n
        values: list[Any] = []
        start = self._ws(0)
        stripped = s[start:].rstrip()
        if stripped.lower() in _LITERALS:
            if stripped not in ("true", "false", "null"):
                self._repair(f"normalised literal {stripped!r}")
            return [_LITERALS[stripped.lower()]]
        if start < n and s[start] == "(":
            self.i = start
            values.append(self._tuple())
        while self.i < n:
            m = _CONTAINER_START_RE.search(s, self.i)
            if m is None:
                if s[self.i :].strip():
                    self._repair("dropped trailing text")
                break
            if s[self.i : m.start()].strip():
                self._repair("dropped text before value")
            self.i = m.start()
            if s[self.i] == "{":
                value: Any = self._object()
                while _ROOT_REOPEN_RE.match(s, self.i) is not None:
                    self._repair("merged keys after a premature '}'")
                    self.i = s.index(",", self.i) + 1
                    self._object_body(value, "}")
            else:
                value = self._array()
            values.append(value)
        return values

    # ------------------------------------------------------------- containers

    def _push(self, closer: str) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise TooDeep
        self.stack.append(closer)

    def _close_mismatch(self, c: str) -> bool:
        """At a closer that is not ours: True to close ours (it matches an
        ancestor), False after dropping it as stray."""
        if c in self.stack:
            self._repair(f"closed {self.stack[-1]!r} before {c!r}")
            return True
        self._repair(f"dropped stray {c!r}")
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
        self._push("}")
        try:
            while True:
                self._skip()
                if self.i >= n:
                    self._repair("closed object")
                    return obj
                c = s[self.i]
                if pending_key is not None:
                    key: Any = pending_key
                    pending_key = None
                    c = ":"
                elif c == "}":
                    self.i += 1
                    return obj
                elif c in "])":
                    if closer == "]" and c == "]":
                        self._repair("closed object inside array")
                        return obj
                    if self._close_mismatch(c):
                        return obj
                    continue
                if c == ",":
                    self._repair("dropped extra comma")
                    self.i += 1
                    continue
                # ---- key
                if c == ":":
                    pass
                elif c in _QUOTES:
                    key = self._string("key")
                    if key is _DROP:
                        return obj
                elif c == "[":
                    arr = self._array()
                    key = str(arr[0]) if arr else ""
                    self._repair("used an array as a key")
                elif c == "{":
                    self._object()
                    self._repair("dropped an object in key position")
                    continue
                elif not obj and (c.isdigit() or c == "-"):
                    # {5} or {1, 2}: a set, read as an array.
                    self._repair("read a set as an array")
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
                        self._repair(f"quoted key {key!r}")
                        self.i = j
                    else:
                        self._repair("dropped text in key position")
                        self.i = j
                        continue
                # ---- colon
                self._skip()
                if self.i >= n:
                    self._repair(f"dropped key {key!r} without value")
                    return obj
                c = s[self.i]
                if c == ":":
                    self.i += 1
                elif c in ",}":
                    self._repair(f"gave key {key!r} an empty value")
                    obj[key] = ""
                    continue
                else:
                    self._repair("inserted missing ':'")
                # ---- value
                self._skip()
                if self.i >= n:
                    self._repair(f"dropped key {key!r} without value")
                    return obj
                value = self._value("object")
                if value is _MISSING or value is _DROP:
                    self._repair(f"gave key {key!r} an empty value")
                    value = ""
                obj[key] = value
                # ---- separator
                self._skip()
                if self.i >= n:
                    continue
                c = s[self.i]
                if c == ",":
                    self.i += 1
                    j = self._ws_comments(self.i)
                    if j >= n or s[j] == "}":
                        self._repair("removed trailing comma")
                elif c in "}])":
                    continue
                elif c in _QUOTES:
                    self._repair("inserted missing ','")
                else:
                    m = re.compile(r"[,}\]\"]").search(s, self.i)
                    self._repair("dropped text after value")
                    self.i = n if m is None else m.start()
        finally:
            self.stack.pop()

    def _array(self) -> list[Any]:
        self.i += 1
        return self._array_body("]")

    def _array_body(self, closer: str) -> list[Any]:
        s, n = self.s, self.n
        arr: list[Any] = []
        self._push(closer)
        try:
            while True:
                self._skip()
                if self.i >= n:
                    self._repair(f"closed {closer!r}")
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
                    self._repair("dropped extra comma")
                    self.i += 1
                    continue
                if c == "." and s.startswith("...", self.i) or c == "\u2026":
                    self._repair("dropped ellipsis")
                    self.i += 3 if c == "." else 1
                    continue
                value = self._value("array")
                if value is _DROP:
                    return arr
                if value is _MISSING:
                    self._repair("dropped unexpected character")
                    self.i += 1
                    continue
                self._skip()
                if self.i < n and s[self.i] == ":" and isinstance(value, str):
                    self._repair("inserted missing '{'")
                    obj: dict[str, Any] = {}
                    self._object_body(obj, "]", pending_key=value)
                    value = obj
                    self._skip()
                arr.append(value)
                if self.i >= n:
                    continue
                c = s[self.i]
                if c == ",":
                    self.i += 1
                    j = self._ws_comments(self.i)
                    if j >= n or s[j] == closer:
                        self._repair("removed trailing comma")
                elif c not in _CLOSERS:
                    self._repair("inserted missing ','")
        finally:
            self.stack.pop()

    def _tuple(self) -> Any:
        self._repair("read a tuple as an array")
        self.i += 1
        saw_comma = re.compile(r"\s*\)").match(self.s, self.i) is not None
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
        if c in _QUOTES:
            return self._string(ctx)
        if c in ",}])":
            return _MISSING
        return self._word(ctx)

    def _word(self, ctx: str) -> Any:
        s, n = self.s, self.n
        c = s[self.i]
        if c.isdigit() or c in "-+.":
            m = _WORD_RE.match(s, self.i)
            word = m.group() if m else c
            num = _number(word)
            if num is not None:
                if _NUM_RE.fullmatch(word) is None or word[0] in "+." or word[-1] == ".":
                    self._repair(f"completed number {word!r}")
                self.i += len(word)
                return num
        m = _UNQUOTED_VALUE_RE.match(s, self.i)
        raw = m.group() if m else ""
        if not raw:
            return _MISSING
        end = self.i + len(raw)
        word = raw.strip()
        if word.lower() in _LITERALS:
            if word not in ("true", "false", "null"):
                self._repair(f"normalised literal {word!r}")
            self.i = end
            return _LITERALS[word.lower()]
        if end >= n and ctx == "array":
            self._repair(f"dropped truncated word {word!r}")
            self.i = n
            return _DROP
        self.i = end
        if end < n and s[end] in _QUOTES and end > 0 and not s[end - 1].isspace():
            self._repair("dropped a stray closing quote")
            self.i = end + 1
        if not word:
            return _MISSING
        self._repair(f"quoted value {word!r}")
        return word

    # ---------------------------------------------------------------- strings

    def _string(self, ctx: str) -> Any:
        """A quoted string; ``ctx`` is ``key``, ``object`` (a value) or ``array``."""
        s, n = self.s, self.n
        open_q = s[self.i]
        close_q = _CLOSE_FOR[open_q]
        if open_q != '"':
            self._repair("normalised quotes")
        start = self.i + 1
        if ctx == "key" and start < n and s[start] == close_q:
            j = self._ws(start + 1)
            if j < n and s[j] not in ":,}" and s[j] not in _QUOTES:
                self._repair("dropped a doubled quote")
                start += 1
        if ctx == "key":
            end_q = s.find(close_q, start)
            colon = s.find(":", start, n if end_q < 0 else end_q)
            if colon >= 0:
                after = self._ws(end_q + 1) if end_q >= 0 else n
                if end_q < 0 or after >= n or s[after] != ":":
                    self._repair("closed key before ':'")
                    self.i = colon
                    return _unescape_simple(s[start:colon]).strip()
        search = _SEARCH_FOR[close_q]
        parts: list[str] = []
        pos = start
        inner = 0
        opener = False
        while True:
            m = search.search(s, pos)
            if m is None:
                return self._unterminated(parts, pos, ctx)
            q = m.start()
            ch = s[q]
            if ch == "\\":
                parts.append(s[pos:q])
                if q + 1 >= n:
                    if not self.stream_stable:
                        parts.append("\\")
                    self.i = n
                    self._repair("closed string after a lone backslash")
                    return "".join(parts)
                x = s[q + 1]
                if x == "u" and re.compile(r"[0-9a-fA-F]{4}").match(s, q + 2):
                    code = int(s[q + 2 : q + 6], 16)
                    pos = q + 6
                    if 0xD800 <= code < 0xDC00 and s.startswith("\\u", pos):
                        low = re.compile(r"[dD][c-fC-F][0-9a-fA-F]{2}").match(s, pos + 2)
                        if low is not None:
                            code = (
                                0x10000 + ((code - 0xD800) << 10) + (int(low.group(), 16) - 0xDC00)
                            )
                            pos += 6
                    parts.append(chr(code))
                    continue
                if x in _ESCAPES:
                    parts.append(_ESCAPES[x])
                elif x in _QUOTE_LIKE:
                    self._repair(f"dropped a needless escape before {x!r}")
                    parts.append(x)
                else:
                    self._repair(f"kept an invalid escape \\{x}")
                    parts.append("\\" + x)
                pos = q + 2
                continue
            parts.append(s[pos:q])
            if ch == close_q or close_q == "\u201d":
                if self._closes(q, ctx, inner, opener):
                    self.i = q + 1
                    text = "".join(parts)
                    if q > 0 and s[q - 1] == "\n":
                        text = text.rstrip()
                        self._repair("trimmed trailing whitespace in a string")
                    elif _CONTROL_RE.search(text):
                        self._repair("kept raw control characters in a string")
                    if ctx != "key" and text.startswith("```") and text.endswith("```"):
                        return self._fenced_in_string(text)
                    return text
                self._repair("kept an unescaped quote inside a string")
                inner += 1
                opener = q + 1 < n and (s[q + 1].isalnum() or s[q + 1] == "_")
            parts.append(ch)
            pos = q + 1

    def _unterminated(self, parts: list[str], pos: int, ctx: str) -> Any:
        s, n = self.s, self.n
        rest = s[pos:]
        if ctx == "key":
            self._repair("dropped an unterminated key")
            self.i = n
            return _DROP
        stop = n
        if ctx == "object":
            m = _KEY_AFTER_COMMA_RE.search(rest)
            if m is not None:
                stop = pos + m.start()
        if stop == n:
            stripped = rest.rstrip()
            depth = len(self.stack) - 1
            while stripped and depth >= 0 and stripped[-1] == self.stack[depth]:
                stripped = stripped[:-1].rstrip()
                depth -= 1
            stop = pos + len(stripped)
        parts.append(s[pos:stop])
        self.i = stop
        self._repair("closed an unterminated string")
        return "".join(parts).rstrip()

    def _closes(self, q: int, ctx: str, inner: int, opener: bool) -> bool:
        """Does the quote at ``q`` end the string (or is it part of the text)?"""
        s, n = self.s, self.n
        j = self._ws(q + 1)
        if j >= n:
            return True
        c = s[j]
        if ctx == "key":
            return c in ":,}" or c in _QUOTES
        if c == ",":
            k = self._ws_comments(j + 1)
            if k >= n:
                return True
            d = s[k]
            if d in _QUOTES or d in "}][{":
                return True
            if ctx == "array":
                return d in _VALUE_START_IN_ARRAY
            return (
                _KEY_AFTER_COMMA_RE.match(s, j) is not None
                or _QUOTED_KEY_AHEAD_RE.match(s, j) is not None
            )
        if c in _CLOSERS:
            top = self.stack[-1] if self.stack else ""
            k = self._ws(j + 1)
            if c != top:
                return c in self.stack and (k >= n or s[k] in ",}]")
            if inner % 2 == 0 or not opener:
                return True
            if k >= n or len(self.stack) < 2:
                return False
            return s[k] in ",}]"
        if c == ":":
            return ctx == "array"
        if c in _QUOTES:
            if j == q + 1:
                return True
            q2 = s.find(s[j], j + 1)
            if q2 < 0:
                return True
            k = self._ws(q2 + 1)
            return k >= n or s[k] in ",:]}" or s[k] in _QUOTES
        if j == q + 1:
            return False
        if ctx == "array":
            return inner % 2 == 0
        if inner % 2:
            return False
        q2 = s.find('"', j)
        if q2 < 0:
            return True
        k = self._ws(q2 + 1)
        return not (k >= n or s[k] in ",}")

    def _fenced_in_string(self, text: str) -> Any:
        body = re.sub(r"^`{3,}[\w+-]*", "", text)[:-3]
        inner = Scanner(body)
        try:
            found = inner.parse_top()
        except TooDeep:
            return text
        if len(found) == 1 and isinstance(found[0], (dict, list)):
            self._repair("parsed a fenced JSON block inside a string")
            return found[0]
        return text


def _number(word: str) -> int | float | None:
    """The number ``word`` spells, completing truncations (``1.``, ``1e``)."""
    if _NUM_RE.fullmatch(word):
        if any(ch in word for ch in ".eE"):
            value = float(word)
            return value if value == value and abs(value) != float("inf") else None
        return int(word)
    m = _TRUNC_EXP_RE.fullmatch(word)
    if m is not None:
        return _number(m.group(1))
    return None


def _unescape_simple(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


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
        if not isinstance(value, _Missing):
            self.spans.append((start, self.i))
        return value

    def parse_top(self) -> list[Any]:
        values = super().parse_top()
        return values
