"""ECMA-262 regular expressions (``u`` flag semantics) parsed into a small AST.

Supported: literals; escapes ``\\t \\n \\v \\f \\r \\0 \\cX \\xHH \\uHHHH \\u{H..}``
(a ``\\uHHHH\\uHHHH`` surrogate pair is one code point), identity escapes of
punctuation; classes ``\\d \\D \\w \\W \\s \\S``, ``\\p{..}``/``\\P{..}`` for
General_Category values, ``[...]`` with ranges and negation, ``.``; groups
(capturing, ``(?:)``, ``(?<name>)``); alternation; quantifiers ``* + ? {m}
{m,} {m,n}`` and their lazy forms (same language); anchors ``^``/``$``
anywhere (no multiline flag: they assert the start/end of the whole string).

Lookaheads ``(?=...)``/``(?!...)`` parse to ``Look`` nodes; the automata
support them right after a leading ``^`` (``pse.automata.pattern_dfa``).

Unsupported, raised as ``SchemaError(code="unsupported-pattern")``: lookbehind,
lookaheads elsewhere, backreferences (numbered and named), word boundaries
``\\b \\B``, inline flags, unknown letter escapes, and malformed patterns.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from pse_core.errors import SchemaError

from . import charset as cs
from .charset import CharSet


@dataclass(frozen=True)
class Chars:
    """One code point from ``chars``."""

    chars: CharSet


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True)
class Repeat:
    item: Node
    min: int
    max: int | None


@dataclass(frozen=True)
class Assert:
    """``^`` (start of input) or ``$`` (end of input)."""

    kind: str


@dataclass(frozen=True)
class Look:
    """A lookahead: ``(?=node)`` (``negative=False``) or ``(?!node)``."""

    node: Node
    negative: bool


Node = Chars | Seq | Alt | Repeat | Assert | Look

EMPTY_NODE: Node = Seq(())

DIGIT = cs.rng("0", "9")
WORD = cs.union(DIGIT, cs.rng("A", "Z"), cs.rng("a", "z"), cs.of("_"))
SPACE = cs.normalize(
    [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A)]
    + [(0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
)
LINE_TERMINATORS = cs.of("\n\r\u2028\u2029")
DOT = cs.difference(cs.ANY, LINE_TERMINATORS)

_SIMPLE_ESCAPES = {"t": 0x09, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D}
_CLASS_ESCAPES = {
    "d": DIGIT,
    "D": cs.complement(DIGIT),
    "w": WORD,
    "W": cs.complement(WORD),
    "s": SPACE,
    "S": cs.complement(SPACE),
}

# General_Category values and their aliases (PropertyValueAliases.txt).
_GC_GROUPS: dict[str, tuple[str, ...]] = {
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"),
    "LC": ("Lu", "Ll", "Lt"),
    "M": ("Mn", "Mc", "Me"),
    "N": ("Nd", "Nl", "No"),
    "P": ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"),
    "S": ("Sm", "Sc", "Sk", "So"),
    "Z": ("Zs", "Zl", "Zp"),
    "C": ("Cc", "Cf", "Cs", "Co", "Cn"),
}
_GC_ALIASES: dict[str, str] = {
    "Letter": "L",
    "Cased_Letter": "LC",
    "Uppercase_Letter": "Lu",
    "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm",
    "Other_Letter": "Lo",
    "Mark": "M",
    "Combining_Mark": "M",
    "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me",
    "Number": "N",
    "Decimal_Number": "Nd",
    "digit": "Nd",
    "Letter_Number": "Nl",
    "Other_Number": "No",
    "Punctuation": "P",
    "punct": "P",
    "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps",
    "Close_Punctuation": "Pe",
    "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf",
    "Other_Punctuation": "Po",
    "Symbol": "S",
    "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc",
    "Modifier_Symbol": "Sk",
    "Other_Symbol": "So",
    "Separator": "Z",
    "Space_Separator": "Zs",
    "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp",
    "Other": "C",
    "Control": "Cc",
    "cntrl": "Cc",
    "Format": "Cf",
    "Surrogate": "Cs",
    "Private_Use": "Co",
    "Unassigned": "Cn",
}


@lru_cache(maxsize=1)
def _category_table() -> dict[str, CharSet]:
    """Code point ranges per two-letter General_Category (built once, ~0.3 s)."""
    ranges: dict[str, list[tuple[int, int]]] = {}
    prev_cat = ""
    start = 0
    category = unicodedata.category
    for cp in range(cs.MAX_CODE_POINT + 2):
        cat = category(chr(cp)) if cp <= cs.MAX_CODE_POINT else ""
        if cat != prev_cat:
            if prev_cat:
                ranges.setdefault(prev_cat, []).append((start, cp - 1))
            prev_cat, start = cat, cp
    return {k: cs.normalize(v) for k, v in ranges.items()}


def unicode_property(name: str) -> CharSet:
    """The code points of a General_Category value (``Letter``, ``Lu``, ``digit``...)."""
    for prefix in ("General_Category=", "gc="):
        if name.startswith(prefix):
            name = name[len(prefix) :]
    if name == "Any":
        return cs.ANY
    if name == "ASCII":
        return cs.rng(0, 0x7F)
    short = _GC_ALIASES.get(name, name)
    table = _category_table()
    if short in _GC_GROUPS:
        return cs.union(*(table.get(c, cs.EMPTY) for c in _GC_GROUPS[short]))
    if short in table or (len(short) == 2 and short[0] in _GC_GROUPS):
        return table.get(short, cs.EMPTY)
    raise _unsupported(f"unsupported Unicode property \\p{{{name}}}")


def _unsupported(message: str) -> SchemaError:
    return SchemaError(message, code="unsupported-pattern", keyword="pattern")


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0

    def error(self, what: str) -> SchemaError:
        return _unsupported(f"{what} at offset {self.i} in pattern {self.p!r}")

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    def parse(self) -> Node:
        node = self.alternation()
        if self.i != len(self.p):
            raise self.error("unbalanced ')'")
        return node

    def alternation(self) -> Node:
        options = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.i < len(self.p) and self.peek() not in "|)":
            atom = self.atom()
            items.append(self.quantified(atom))
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def quantified(self, atom: Node) -> Node:
        while True:
            c = self.peek()
            if c in ("*", "+", "?") and c:
                lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
                self.i += 1
            elif c == "{":
                bounds = self.braces()
                if bounds is None:
                    return atom
                lo, hi = bounds
            else:
                return atom
            if isinstance(atom, (Assert, Look)):
                raise self.error("quantified assertion")
            if self.peek() == "?":
                self.i += 1  # lazy: the same language
            if hi is not None and hi < lo:
                raise self.error("quantifier range out of order")
            atom = Repeat(atom, lo, hi)
            if self.peek() in ("*", "+", "?") and self.peek():
                raise self.error("nothing to repeat")

    def braces(self) -> tuple[int, int | None] | None:
        j = self.i + 1
        k = j
        while k < len(self.p) and self.p[k].isdigit() and self.p[k].isascii():
            k += 1
        if k == j:
            return None
        lo = int(self.p[j:k])
        hi: int | None = lo
        if k < len(self.p) and self.p[k] == ",":
            m = k + 1
            while m < len(self.p) and self.p[m].isdigit() and self.p[m].isascii():
                m += 1
            hi = int(self.p[k + 1 : m]) if m > k + 1 else None
            k = m
        if k >= len(self.p) or self.p[k] != "}":
            return None
        self.i = k + 1
        return lo, hi

    def atom(self) -> Node:
        c = self.peek()
        if c == "(":
            return self.group()
        if c == "[":
            return Chars(self.char_class())
        if c == ".":
            self.i += 1
            return Chars(DOT)
        if c in ("^", "$"):
            self.i += 1
            return Assert(c)
        if c in ("*", "+", "?"):
            raise self.error("nothing to repeat")
        if c == "{" and self.braces_ahead():
            raise self.error("nothing to repeat")
        if c == "\\":
            return Chars(self.escape(in_class=False))
        self.i += 1
        return Chars(cs.of(c))

    def braces_ahead(self) -> bool:
        save = self.i
        ok = self.braces() is not None
        self.i = save
        return ok

    def group(self) -> Node:
        self.i += 1
        if self.peek() == "?":
            nxt = self.peek(1)
            if nxt == ":":
                self.i += 2
            elif nxt == "<" and self.peek(2) not in ("=", "!"):
                end = self.p.find(">", self.i)
                if end < 0:
                    raise self.error("unterminated group name")
                self.i = end + 1
            elif nxt in ("=", "!"):
                self.i += 2
                inner = self.alternation()
                if self.peek() != ")":
                    raise self.error("missing ')'")
                self.i += 1
                return Look(inner, negative=nxt == "!")
            elif nxt == "<" and self.peek(2) in ("=", "!"):
                raise self.error("lookbehind is not supported")
            else:
                raise self.error("unsupported group syntax")
        node = self.alternation()
        if self.peek() != ")":
            raise self.error("missing ')'")
        self.i += 1
        return node

    def char_class(self) -> CharSet:
        self.i += 1
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        parts: list[CharSet] = []
        while True:
            c = self.peek()
            if c == "":
                raise self.error("unterminated character class")
            if c == "]":
                self.i += 1
                break
            lo_set, lo_cp = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                save = self.i
                self.i += 1
                hi_set, hi_cp = self.class_atom()
                if lo_cp is None or hi_cp is None:
                    # Annex B: a class escape next to '-' makes the '-' literal.
                    parts.extend([lo_set, cs.of("-"), hi_set])
                    continue
                if hi_cp < lo_cp:
                    self.i = save
                    raise self.error("class range out of order")
                parts.append(cs.rng(lo_cp, hi_cp))
            else:
                parts.append(lo_set)
        result = cs.union(*parts) if parts else cs.EMPTY
        return cs.complement(result) if negate else result

    def class_atom(self) -> tuple[CharSet, int | None]:
        """A class member: its set, and its code point when it is a single one."""
        c = self.peek()
        if c == "\\":
            if self.peek(1) == "b":
                self.i += 2
                return cs.of("\b"), 8
            if self.peek(1) == "-":
                self.i += 2
                return cs.of("-"), ord("-")
            chars = self.escape(in_class=True)
            if len(chars) == 1 and chars[0][0] == chars[0][1] and self._last_was_single:
                return chars, chars[0][0]
            return chars, None
        self.i += 1
        return cs.of(c), ord(c)

    _last_was_single = True

    def escape(self, *, in_class: bool) -> CharSet:
        """Parse ``\\...`` at self.i; sets ``_last_was_single`` for class ranges."""
        self.i += 1
        c = self.peek()
        if c == "":
            raise self.error("trailing backslash")
        self.i += 1
        self._last_was_single = True
        if c in _CLASS_ESCAPES:
            self._last_was_single = False
            return _CLASS_ESCAPES[c]
        if c in ("p", "P"):
            if self.peek() != "{":
                raise self.error("\\p needs {name}")
            end = self.p.find("}", self.i)
            if end < 0:
                raise self.error("unterminated \\p{")
            name = self.p[self.i + 1 : end]
            self.i = end + 1
            self._last_was_single = False
            prop = unicode_property(name)
            return cs.complement(prop) if c == "P" else prop
        if c in _SIMPLE_ESCAPES:
            return cs.rng(_SIMPLE_ESCAPES[c], _SIMPLE_ESCAPES[c])
        if c == "0" and not self.peek().isdigit():
            return cs.rng(0, 0)
        if c.isdigit():
            raise self.error("backreferences are not supported")
        if c in ("b", "B"):
            raise self.error("word boundaries are not supported")
        if c == "k":
            raise self.error("named backreferences are not supported")
        if c == "c":
            letter = self.peek()
            if letter.isascii() and letter.isalpha():
                self.i += 1
                return cs.rng(ord(letter) % 32, ord(letter) % 32)
            raise self.error("bad \\c escape")
        if c == "x":
            return self.single(self.hex_digits(2))
        if c == "u":
            if self.peek() == "{":
                end = self.p.find("}", self.i)
                digits = self.p[self.i + 1 : end] if end > 0 else ""
                if not digits or any(d not in "0123456789abcdefABCDEF" for d in digits):
                    raise self.error("bad \\u{...} escape")
                self.i = end + 1
                cp = int(digits, 16)
                if cp > cs.MAX_CODE_POINT:
                    raise self.error("code point out of range")
                return self.single(cp)
            cp = self.hex_digits(4)
            if 0xD800 <= cp <= 0xDBFF and self.p.startswith("\\u", self.i):
                save = self.i
                self.i += 2
                try:
                    low = self.hex_digits(4)
                except SchemaError:
                    low = -1
                if 0xDC00 <= low <= 0xDFFF:
                    return self.single(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00))
                self.i = save
            return self.single(cp)
        if c.isascii() and c.isalnum():
            raise self.error(f"unknown escape \\{c}")
        return cs.of(c)

    def single(self, cp: int) -> CharSet:
        if 0xD800 <= cp <= 0xDFFF:
            raise self.error("lone surrogates are not supported")
        return cs.rng(cp, cp)

    def hex_digits(self, n: int) -> int:
        digits = self.p[self.i : self.i + n]
        if len(digits) != n or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise self.error("bad hex escape")
        self.i += n
        return int(digits, 16)


def parse(pattern: str) -> Node:
    """Parse an ECMA-262 pattern; raises ``SchemaError(code="unsupported-pattern")``."""
    return _Parser(pattern).parse()
