"""Number spellings: what programming languages and truncation make of JSON numbers.

Read as numbers: JSON numbers; a leading ``+``; ``.5`` and ``5.``; digit
group underscores (``1_000_000``); ``0x``/``0o``/``0b`` integers; a truncated
exponent (``1e``, ``1e-``). ``NaN`` and infinities are not numbers here (JSON
cannot carry them), so they stay text.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["number", "is_json_number"]

_NUM_RE: Final = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_JSON_NUM_RE: Final = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_TRUNC_EXP_RE: Final = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+))[eE][-+]?")
_GROUPED_RE: Final = re.compile(r"[-+]?\d+(?:_\d+)+(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+)?")
_RADIX_RE: Final = re.compile(r"([-+]?)0([xXoObB])([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)")
_RADIX: Final = {"x": 16, "o": 8, "b": 2}


def is_json_number(word: str) -> bool:
    """Is ``word`` spelled as JSON spells numbers?"""
    return _JSON_NUM_RE.fullmatch(word) is not None


def number(word: str) -> int | float | None:
    """The number ``word`` spells, or None when it spells none."""
    if _NUM_RE.fullmatch(word):
        if any(ch in word for ch in ".eE"):
            value = float(word)
            return value if abs(value) != float("inf") else None
        return int(word)
    if _GROUPED_RE.fullmatch(word):
        return number(word.replace("_", ""))
    m = _RADIX_RE.fullmatch(word)
    if m is not None:
        try:
            value = int(m.group(3).replace("_", ""), _RADIX[m.group(2).lower()])
        except ValueError:
            return None
        return -value if m.group(1) == "-" else value
    m = _TRUNC_EXP_RE.fullmatch(word)
    if m is not None:
        return number(m.group(1))
    return None
