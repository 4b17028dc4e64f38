"""Where does a string end? Lookahead on an unescaped quote.

LLMs leave quotes unescaped inside strings (``"an "example" package"``), so a
quote ends a string only where the text after it can continue the structure
around the string:

* the end of the input;
* in a key, a ``:`` (or ``,``/``}``: a key without a value; or the start
  of a value: a colon left out);
* after a value, a closer of an open container, or a ``,`` (doubled commas
  and comments skipped) followed by what may come next: in an object a key
  (quoted, or a bare word followed by ``:``), in an array any value, a bare
  word included when it runs cleanly to the next ``,`` or closer;
* another quoted string followed by structure (a missing comma).

``inner`` counts the quotes already kept inside this string and ``opener``
says whether the last of them opened a quotation (a word follows it): a
closer right after such a quote more likely belongs to the text.
"""

from __future__ import annotations

import re
from typing import Final

from pgents.repair.cursor import Cursor

__all__ = ["QUOTES", "closes"]

QUOTES: Final = "\"'\u201c\u201d"
_CLOSERS: Final = "}])"
_VALUE_START: Final = "{[\"'\u201c0123456789-+.tfnTFN"
_BARE_KEY_RE: Final = re.compile(r"[A-Za-z_$][\w\-$ ]*\s*:")
_BARE_VALUE_END_RE: Final = re.compile(r"[,\]}\n\"'{\[:]")
_VALUE_AHEAD_RE: Final = re.compile(r"[{\[]|-?\d|(?:true|false|null|True|False|None)\b")
_QUOTED_KEY_AHEAD_RE: Final = re.compile(r",[^\"\n]{0,80}\"[^\"\n]*\"\s*:")


def _after_comma(cur: Cursor, j: int) -> int:
    """The first significant position after the comma at ``j`` (further
    commas, whitespace and comments skipped)."""
    s, n = cur.s, cur.n
    k = cur.ws_comments(j + 1)
    while k < n and s[k] == ",":
        k = cur.ws_comments(k + 1)
    return k


def _bare_value_ends_cleanly(cur: Cursor, k: int) -> bool:
    m = _BARE_VALUE_END_RE.search(cur.s, k)
    return m is None or cur.s[m.start()] in ",]}\n"


def closes(cur: Cursor, q: int, ctx: str, inner: int, opener: bool) -> bool:
    """Does the quote at ``q`` end the string read in context ``ctx``
    (``key``, ``object`` for a value in an object, ``array``)?"""
    s, n = cur.s, cur.n
    j = cur.ws(q + 1)
    if j >= n:
        return True
    c = s[j]
    if ctx == "key":
        # a colon, or (the colon missing, after a space) the start of a value
        if c in ":,}" or c in QUOTES:
            return True
        return j > q + 1 and _VALUE_AHEAD_RE.match(s, j) is not None
    if c == ",":
        k = _after_comma(cur, j)
        if k >= n:
            return True
        d = s[k]
        if d in QUOTES or d in "}][{":
            return True
        if ctx == "array":
            return d in _VALUE_START or (d.isalpha() and _bare_value_ends_cleanly(cur, k))
        return _BARE_KEY_RE.match(s, k) is not None or _QUOTED_KEY_AHEAD_RE.match(s, j) is not None
    if c in _CLOSERS:
        top = cur.stack[-1] if cur.stack else ""
        k = cur.ws(j + 1)
        if c != top:
            return c in cur.stack and (k >= n or s[k] in ",}]")
        if inner % 2 == 0 or not opener:
            return True
        if k >= n or len(cur.stack) < 2:
            return False
        return s[k] in ",}]"
    if c == ":":
        return ctx == "array"
    if c in QUOTES:
        if j == q + 1:
            return True
        q2 = s.find(s[j], j + 1)
        if q2 < 0:
            return True
        k = cur.ws(q2 + 1)
        return k >= n or s[k] in ",:]}" or s[k] in QUOTES
    if j == q + 1:
        return False
    if ctx == "array":
        return inner % 2 == 0
    if inner % 2:
        return False
    q2 = s.find('"', j)
    if q2 < 0:
        return True
    k = cur.ws(q2 + 1)
    return not (k >= n or s[k] in ",}")
