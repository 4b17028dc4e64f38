"""ECMA-262 patterns (``u`` flag semantics) compiled natively to code-point DFAs.

Supported: literals; escapes ``\\t \\n \\v \\f \\r \\0 \\cX \\xHH \\uHHHH \\u{H..}``
(a ``\\uHHHH\\uHHHH`` surrogate pair is one code point), identity escapes of
punctuation; classes ``\\d \\D \\w \\W \\s \\S``, ``\\p{..}``/``\\P{..}`` for
General_Category values, ``[...]`` with ranges and negation, ``.``; groups
(capturing, ``(?:)``, ``(?<name>)``); alternation; quantifiers ``* + ? {m}
{m,} {m,n}`` and their lazy forms (same language); anchors ``^``/``$``
anywhere (no multiline flag: they assert the start/end of the whole string).
Lookaheads ``(?=...)``/``(?!...)`` are supported right after a leading ``^``.

Unsupported, raised as ``SchemaError(code="unsupported-pattern")``: lookbehind,
lookaheads elsewhere, backreferences (numbered and named), word boundaries
``\\b \\B``, inline flags, unknown letter escapes, and malformed patterns.

The parser, Thompson NFA, subset construction and minimisation are native
(``pse_core._core.regex_dfas``); this module supplies the Unicode
General_Category tables for ``\\p{..}`` and turns failures into SchemaErrors.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pse_core._core import DfaStateMachine, pattern_json_string, regex_dfas
from pse_core.errors import SchemaError

from . import charset as cs
from .charset import CharSet
from .dfa import MAX_BYTE_STATES, MAX_LENGTH_STATES, CpDfa

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


def _digit_positions(pattern: str) -> list[int]:
    """Offsets of the non-ASCII characters ``str.isdigit`` accepts (what ``\\d`` reads)."""
    return [] if pattern.isascii() else [i for i, ch in enumerate(pattern) if ch.isdigit()]


def compile_pattern(pattern: str, anchored: bool, keyword: str) -> list[tuple[CpDfa, bool]]:
    """The minimal DFA of ``pattern`` (unanchored unless ``anchored``), then one
    ``(dfa, negative)`` per leading lookahead: the strings that start with a
    match (``negative``: whose complement is meant), for the caller to intersect.
    """
    digits = _digit_positions(pattern)
    parts, kind, what, offset = regex_dfas(pattern, anchored, digits, unicode_property)
    if parts is not None:
        return [(CpDfa(trans, accepting), negative) for trans, accepting, negative in parts]
    if kind == "syntax":
        raise _unsupported(f"{what} at offset {offset} in pattern {pattern!r}")
    if kind == "lookahead":
        raise _unsupported("lookahead is supported only right after a leading ^")
    failed = "pattern" if kind == "nfa" else keyword
    raise SchemaError(
        f"{failed} is too large to compile", code="automaton-too-large", keyword=failed
    )


def pattern_string_machine(
    pattern: str, min_length: int, max_length: int | None
) -> DfaStateMachine | None:
    """The JSON string literals whose value ``pattern`` matches, of
    ``min_length..max_length`` code points, built in one native call
    (``pse_core._core.pattern_json_string``); ``None`` where ``string_dfa``'s
    general path decides (lookaheads, errors, sizes, no string at all)."""
    return pattern_json_string(
        pattern,
        _digit_positions(pattern),
        unicode_property,
        max(min_length, 0),
        -1 if max_length is None else max_length,
        MAX_LENGTH_STATES,
        MAX_BYTE_STATES,
    )


def _unsupported(message: str) -> SchemaError:
    return SchemaError(message, code="unsupported-pattern", keyword="pattern")
