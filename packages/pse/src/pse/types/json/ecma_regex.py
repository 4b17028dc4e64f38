"""``format: regex``: ECMA-262 pattern syntax (Unicode mode), judged as the string grows.

A recursive-descent reader of the ECMA-262 ``Pattern`` grammar with the ``u``
flag (the strict grammar: no Annex B leniency, so lone ``]``, ``{`` and ``}``
and identity escapes of ordinary letters are errors): alternatives, groups
(capturing, named ``(?<name>``, non-capturing, lookahead, lookbehind),
quantifiers (``*``, ``+``, ``?``, ``{n}``, ``{n,}``, ``{n,m}`` with ``n <= m``,
lazy ``?``; not on lookarounds or other assertions), character classes with
ordered ranges, and the escapes (``\\d\\D\\s\\S\\w\\W``, ``\\b\\B``, control
escapes, ``\\cX``, ``\\0``, ``\\xHH``, ``\\uHHHH``, ``\\u{H...}``,
``\\p{...}``/``\\P{...}``, decimal back-references no larger than the number
of groups, ``\\k<name>`` naming a group; group names unique).

The reader tells an error apart from running out of text: a prefix that ends
inside a construct can always be completed (close the group or class, finish
the escape or quantifier, add the group a reference names), so a prefix is
viable exactly when the reader meets no error before its end.
"""

from __future__ import annotations

import functools

from pse.types.json.checked_string import CheckedStringStateMachine, JsonText

FORMAT = "regex"
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_CONTROL = frozenset("fnrtv")
_CLASSES = frozenset("dDsSwW")
_HEXDIGITS = frozenset("0123456789abcdefABCDEF")


class _End(Exception):
    """The text ended inside a construct (a completion may exist)."""


class _Bad(Exception):
    """A syntax error (no completion is valid)."""


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.groups = 0
        self.names: set[str] = set()
        self.refs: list[str] = []
        self.max_backref = 0

    # ---- characters
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        if j >= len(self.text):
            raise _End
        return self.text[j]

    def more(self) -> bool:
        return self.i < len(self.text)

    def take(self) -> str:
        c = self.peek()
        self.i += 1
        return c

    def expect(self, c: str) -> None:
        if self.take() != c:
            raise _Bad

    # ---- grammar
    def pattern(self) -> None:
        self.disjunction()
        if self.more():  # a ")" with no group open
            raise _Bad

    def disjunction(self) -> None:
        self.alternative()
        while self.more() and self.text[self.i] == "|":
            self.i += 1
            self.alternative()

    def alternative(self) -> None:
        while self.more() and self.text[self.i] not in "|)":
            self.term()

    def term(self) -> None:
        c = self.peek()
        if c in "^$":
            self.i += 1
            self.no_quantifier()
            return
        if c == "\\" and self.peek(1) in "bB":
            self.i += 2
            self.no_quantifier()
            return
        if c == "(" and self.text.startswith(("(?=", "(?!", "(?<=", "(?<!"), self.i):
            self.i += 4 if self.text[self.i + 2] == "<" else 3
            self.disjunction()
            self.expect(")")
            self.no_quantifier()
            return
        self.atom()
        self.quantifier()

    def no_quantifier(self) -> None:
        if self.more() and self.text[self.i] in "*+?{":
            raise _Bad

    def quantifier(self) -> None:
        if not self.more():
            return
        c = self.text[self.i]
        if c in "*+?":
            self.i += 1
        elif c == "{":
            self.i += 1
            low = self.digits()
            high: int | None = low
            if self.peek() == ",":
                self.i += 1
                high = self.digits() if self.peek() != "}" else None
            self.expect("}")
            if high is not None and high < low:
                raise _Bad
        else:
            return
        if self.more() and self.text[self.i] == "?":
            self.i += 1

    def digits(self) -> int:
        start = self.i
        while self.more() and self.text[self.i].isdigit() and self.text[self.i].isascii():
            self.i += 1
        if self.i == start:
            raise _End if not self.more() else _Bad
        return int(self.text[start : self.i])

    def atom(self) -> None:
        c = self.take()
        if c == ".":
            return
        if c == "\\":
            self.atom_escape()
        elif c == "[":
            self.char_class()
        elif c == "(":
            if self.peek() == "?":
                self.i += 1
                d = self.take()
                if d == "<":
                    self.group_name(define=True)
                elif d != ":":
                    raise _Bad
            else:
                self.groups += 1
            self.disjunction()
            self.expect(")")
        elif c in _SYNTAX and c != "/":
            raise _Bad

    def group_name(self, define: bool) -> None:
        start = self.i
        while self.peek() != ">":
            ch = self.take()
            ok = ch.isalpha() or ch in "_$" or (self.i - 1 > start and ch.isdigit())
            if not ok:
                raise _Bad
        name = self.text[start : self.i]
        self.i += 1
        if not name:
            raise _Bad
        if define:
            if name in self.names:
                raise _Bad
            self.names.add(name)
            self.groups += 1
        else:
            self.refs.append(name)

    def atom_escape(self) -> None:
        c = self.peek()
        if c == "k":
            self.i += 1
            self.expect("<")
            self.group_name(define=False)
        elif c.isdigit() and c != "0":
            self.max_backref = max(self.max_backref, self.digits())
        else:
            self.char_escape(in_class=False)

    def char_escape(self, in_class: bool) -> str | None:
        """One escaped character (``None`` for a class escape such as ``\\d``)."""
        c = self.take()
        if c in _CLASSES:
            return None
        if c in "pP":
            self.expect("{")
            start = self.i
            while self.peek() != "}":
                ch = self.take()
                if not (ch.isascii() and (ch.isalnum() or ch in "_=")):
                    raise _Bad
            if self.i == start:
                raise _Bad
            self.i += 1
            return None
        if c in _CONTROL:
            return {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}[c]
        if c == "c":
            ch = self.take()
            if not (ch.isascii() and ch.isalpha()):
                raise _Bad
            return chr(ord(ch) % 32)
        if c == "0":
            if self.more() and self.text[self.i].isdigit():
                raise _Bad
            return "\0"
        if c == "x":
            return chr(self.hex(2))
        if c == "u":
            if self.peek() == "{":
                self.i += 1
                start = self.i
                while self.peek() != "}":
                    if self.take() not in _HEXDIGITS:
                        raise _Bad
                if self.i == start or int(self.text[start : self.i], 16) > 0x10FFFF:
                    raise _Bad
                self.i += 1
                return chr(int(self.text[start : self.i - 1], 16))
            return chr(self.hex(4))
        if c == "b" and in_class:
            return "\b"
        if c == "-" and in_class:
            return "-"
        if c in _SYNTAX:
            return c
        raise _Bad

    def hex(self, n: int) -> int:
        start = self.i
        for _ in range(n):
            if self.take() not in _HEXDIGITS:
                raise _Bad
        return int(self.text[start : self.i], 16)

    def char_class(self) -> None:
        if self.peek() == "^":
            self.i += 1
        while self.peek() != "]":
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) != "]":
                self.i += 1
                high = self.class_atom()
                if low is None or high is None or ord(low) > ord(high):
                    raise _Bad
        self.i += 1

    def class_atom(self) -> str | None:
        c = self.take()
        if c == "\\":
            return self.char_escape(in_class=True)
        return c


def _read(text: str) -> _Reader:
    reader = _Reader(text)
    reader.pattern()
    return reader


@functools.lru_cache(maxsize=4096)
def valid(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 pattern (Unicode mode)."""
    try:
        reader = _read(text)
    except (_Bad, _End):
        return False
    return reader.max_backref <= reader.groups and all(n in reader.names for n in reader.refs)


@functools.lru_cache(maxsize=4096)
def viable(text: str) -> bool:
    """Whether some completion of ``text`` is a valid pattern."""
    try:
        _read(text)
    except _Bad:
        return False
    except _End:
        return True
    return True


class RegexStateMachine(CheckedStringStateMachine):
    """A JSON string holding an ECMA-262 pattern (with optional length bounds)."""

    def __init__(self, min_length: int = 0, max_length: int | None = None) -> None:
        super().__init__()
        self.min_length = min_length
        self.max_length = max_length

    def complete(self, text: str) -> bool:
        fits = self.max_length is None or len(text) <= self.max_length
        return self.min_length <= len(text) and fits and valid(text)

    def prefix_ok(self, content: JsonText) -> bool:
        """Viable, and short enough that a completion still fits ``maxLength``."""
        text = content.text
        if self.max_length is None:
            return viable(text)
        if len(text) > self.max_length:
            return False
        return any(
            self.complete(text + tail) for tail in _completions(text, self.max_length - len(text))
        ) or (not content.pending() and valid(text))


def _completions(text: str, room: int) -> list[str]:
    """Short completions to try under ``maxLength``: closers, then nothing."""
    tails = ["", ")", "]", "))", "])", "}", "0}", "a", "d", "0"]
    return [t for t in tails if len(t) <= room]


__all__ = ["FORMAT", "RegexStateMachine", "valid", "viable"]
