"""Unquoted values: numbers in any spelling, Python/any-case literals, bare text.

``True``, ``None``, ``NULL`` become JSON literals; a word that reads as a
number (see :mod:`.numbers`) becomes that number; anything else up to the
next separator becomes a string. A word cut off by the end of the input is
left out in an array, and in an object when it is the start of a literal or
a lone sign (``tr``, ``-``), as a streaming parser would.
"""

from __future__ import annotations

import re
from typing import Any, Final

from pgents.repair.cursor import Cursor
from pgents.repair.numbers import is_json_number, number
from pgents.repair.strings import DROP
from pgents.repair.termination import QUOTES

__all__ = ["LITERALS", "MISSING", "read_word"]

_WORD_RE: Final = re.compile(r"[^\s,\]\}\)\"':]+")
_UNQUOTED_VALUE_RE: Final = re.compile(r"[^,\}\]\)\"\n]*")

LITERALS: Final[dict[str, Any]] = {
    "true": True,
    "false": False,
    "null": None,
    "none": None,
}


class _Missing:
    """No value here (a separator or closer where a value was expected)."""

    __slots__ = ()


MISSING: Final = _Missing()


def _incomplete_at_end(word: str) -> bool:
    """A literal or a sign cut off by the end of the input (``tr``, ``nu``, ``-``)."""
    low = word.lower()
    return low in ("-", "+") or any(
        full.startswith(low) and low != full for full in ("true", "false", "null")
    )


def read_word(cur: Cursor, ctx: str) -> Any:
    """An unquoted value at ``cur.i``: a number, a literal or bare text.

    ``MISSING`` when there is none; ``DROP`` for a value cut off by the end
    of the input (the container ends there).
    """
    s, n = cur.s, cur.n
    c = s[cur.i]
    if c.isdigit() or c in "-+.":
        m = _WORD_RE.match(s, cur.i)
        word = m.group() if m else c
        num = number(word)
        if num is not None:
            if not is_json_number(word):
                cur.repair(f"completed number {word!r}")
            cur.i += len(word)
            return num
    m = _UNQUOTED_VALUE_RE.match(s, cur.i)
    raw = m.group() if m else ""
    if not raw:
        return MISSING
    end = cur.i + len(raw)
    word = raw.strip()
    if word.lower() in LITERALS:
        if word not in ("true", "false", "null"):
            cur.repair(f"normalised literal {word!r}")
        cur.i = end
        return LITERALS[word.lower()]
    if end >= n and (ctx == "array" or _incomplete_at_end(word)):
        cur.repair(f"dropped truncated word {word!r}")
        cur.i = n
        return DROP
    cur.i = end
    if end < n and s[end] in QUOTES and end > 0 and not s[end - 1].isspace():
        cur.repair("dropped a stray closing quote")
        cur.i = end + 1
    if not word:
        return MISSING
    cur.repair(f"quoted value {word!r}")
    return word
