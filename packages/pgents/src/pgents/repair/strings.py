r"""Quoted strings: quote styles, escapes, unescaped inner quotes, unterminated strings.

* single and curly quotes open strings too (recorded as a repair);
* a run of the same quote (``""``) can only end the string at its last
  quote; a string whose whole text is wrapped in a doubled quote
  (``""word""``) loses the extra pair;
* an unescaped quote ends the string only where :func:`closes` says the
  structure can go on; otherwise it is kept as text;
* an unterminated string runs to the next ``, key:`` in an object, or to the
  end of the input less the closers that belong to open containers; its
  characters are all kept;
* with ``stream_stable`` the input is a stream cut anywhere: an unterminated
  string is the last thing written and takes everything to the end, and an
  escape cut off by the end (``\``, ``\u00``) is left out until the next
  chunk decides it, so each string of a longer prefix extends the string
  of a shorter one.
"""

from __future__ import annotations

import re
from typing import Any, Final

from pgents.repair.cursor import Cursor
from pgents.repair.termination import closes

__all__ = ["DROP", "read_string"]


class _Drop:
    __slots__ = ()


DROP: Final = _Drop()
"""An unterminated key: the object ends there."""

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
_HEX4_RE: Final = re.compile(r"[0-9a-fA-F]{4}")
_HEX_TAIL_RE: Final = re.compile(r"[0-9a-fA-F]{0,3}")
_LOW_SURROGATE_RE: Final = re.compile(r"[dD][c-fC-F][0-9a-fA-F]{2}")
_CONTROL_RE: Final = re.compile(r"[\x00-\x1f]")
_KEY_AFTER_COMMA_RE: Final = re.compile(r",\s*[A-Za-z_][\w\- ]*:")


def read_string(cur: Cursor, ctx: str) -> Any:
    """The string opened by the quote at ``cur.i``; ``ctx`` is ``key``,
    ``object`` (a value in an object) or ``array``. Returns ``DROP`` for an
    unterminated key."""
    s, n = cur.s, cur.n
    open_q = s[cur.i]
    close_q = _CLOSE_FOR[open_q]
    if open_q != '"':
        cur.repair("normalised quotes")
    start = cur.i + 1
    if ctx == "key":
        key = _key_cut_at_colon(cur, start, close_q)
        if key is not None:
            return key
    search = _SEARCH_FOR[close_q]
    doubled_open = start < n and s[start] == close_q
    parts: list[str] = []
    pos = start
    inner = 0
    opener = False
    while True:
        m = search.search(s, pos)
        if m is None:
            return _unterminated(cur, parts, pos, ctx)
        q = m.start()
        ch = s[q]
        if ch == "\\":
            parts.append(s[pos:q])
            pos = _escape(cur, q, parts)
            if pos >= n and q + 1 >= n:
                return "".join(parts)
            continue
        last = q
        while last + 1 < n and s[last + 1] == ch:
            last += 1
        parts.append(s[pos:last])
        if ch == close_q or close_q == "\u201d":
            if closes(cur, last, ctx, inner + last - q, opener):
                cur.i = last + 1
                return _finish(cur, "".join(parts), ch, (last > q) if doubled_open else None, last)
            if last > q and _string_follows(cur, q + 1):
                cur.i = q + 1
                return _finish(cur, "".join(parts)[: q - last], ch, None, q)
            cur.repair("kept an unescaped quote inside a string")
            inner += 1
            opener = last + 1 < n and (s[last + 1].isalnum() or s[last + 1] == "_")
        parts.append(ch)
        pos = last + 1


def _string_follows(cur: Cursor, j: int) -> bool:
    """Does a quoted string followed by structure start at ``j`` (``"a""b": 1``)?"""
    s = cur.s
    q2 = s.find(s[j], j + 1)
    if q2 < 0 or "\n" in s[j:q2]:
        return False
    k = cur.ws(q2 + 1)
    return k >= cur.n or s[k] in ",:]}"


def _finish(cur: Cursor, text: str, quote: str, doubled: bool | None, q: int) -> str:
    """The string's text once its closing quote at ``q`` is known.

    When the string opened with a doubled quote, that quote is dropped if it
    wraps the whole text (``""word""``: ``doubled`` says the close was doubled
    too) or has no match in it (``"" key"``): both are quoting slips.
    ``doubled`` is None when the string did not open with a doubled quote.
    """
    if doubled is not None and text[:1] == quote:
        if doubled and len(text) >= 2 and text[-1] == quote and quote not in text[1:-1]:
            cur.repair("dropped doubled quotes")
            text = text[1:-1]
        elif text.count(quote) % 2:
            cur.repair("dropped a doubled opening quote")
            text = text[1:]
    if q > 0 and cur.s[q - 1] == "\n":
        cur.repair("trimmed trailing whitespace in a string")
        return text.rstrip()
    if _CONTROL_RE.search(text):
        cur.repair("kept raw control characters in a string")
    return text


def _key_cut_at_colon(cur: Cursor, start: int, close_q: str) -> str | None:
    """A key whose closing quote is missing before its colon (``{"a: 1}``)."""
    s, n = cur.s, cur.n
    end_q = _unescaped(s, close_q, start)
    colon = s.find(":", start, n if end_q < 0 else end_q)
    if colon < 0 or (end_q < 0 and cur.stream_stable):
        return None
    after = cur.ws(end_q + 1) if end_q >= 0 else n
    if end_q >= 0 and (after >= n or s[after] == ":"):
        return None
    cur.repair("closed key before ':'")
    cur.i = colon
    return s[start:colon].replace('\\"', '"').replace("\\\\", "\\").strip()


def _unescaped(s: str, quote: str, start: int) -> int:
    """Index of the first ``quote`` at or after ``start`` that no backslash escapes."""
    q = s.find(quote, start)
    while q > 0:
        b = q
        while b > start and s[b - 1] == "\\":
            b -= 1
        if (q - b) % 2 == 0:
            return q
        q = s.find(quote, q + 1)
    return q


def _escape(cur: Cursor, q: int, parts: list[str]) -> int:
    """Decode the escape at ``q`` into ``parts``; the position after it."""
    s, n = cur.s, cur.n
    if q + 1 >= n:
        if not cur.stream_stable:
            parts.append("\\")
        cur.i = n
        cur.repair("closed string after a lone backslash")
        return n
    x = s[q + 1]
    if x == "u" and cur.stream_stable and _HEX_TAIL_RE.fullmatch(s, q + 2):
        cur.i = n
        cur.repair("left out an escape cut off by the end")
        return n
    if x == "u" and _HEX4_RE.match(s, q + 2):
        code = int(s[q + 2 : q + 6], 16)
        pos = q + 6
        if 0xD800 <= code < 0xDC00 and s.startswith("\\u", pos):
            low = _LOW_SURROGATE_RE.match(s, pos + 2)
            if low is not None:
                code = 0x10000 + ((code - 0xD800) << 10) + (int(low.group(), 16) - 0xDC00)
                pos += 6
        parts.append(chr(code))
        return pos
    if x in _ESCAPES:
        parts.append(_ESCAPES[x])
    elif x in _QUOTE_LIKE:
        cur.repair(f"dropped a needless escape before {x!r}")
        parts.append(x)
    else:
        cur.repair(f"kept an invalid escape \\{x}")
        parts.append("\\" + x)
    return q + 2


def _unterminated(cur: Cursor, parts: list[str], pos: int, ctx: str) -> Any:
    s, n = cur.s, cur.n
    rest = s[pos:]
    if ctx == "key":
        cur.repair("dropped an unterminated key")
        cur.i = n
        return DROP
    stop = n
    if cur.stream_stable:
        parts.append(s[pos:])
        cur.i = n
        cur.repair("closed an unterminated string")
        return "".join(parts)
    if ctx == "object":
        m = _KEY_AFTER_COMMA_RE.search(rest)
        if m is not None:
            stop = pos + m.start()
    if stop == n:
        stop = pos + len(_without_closers(cur, rest))
    tail = s[pos:stop]
    if stop < n:
        tail = tail.rstrip()
    parts.append(tail)
    cur.i = stop
    cur.repair("closed an unterminated string")
    return "".join(parts)


def _without_closers(cur: Cursor, rest: str) -> str:
    """``rest`` less the closers at its end that close open containers; a
    closer balanced by an opener inside the string (``{{path}}``) stays."""
    stripped = rest.rstrip()
    depth = len(cur.stack) - 1
    while stripped and depth >= 0 and stripped[-1] == cur.stack[depth]:
        closer = stripped[-1]
        opener = "{" if closer == "}" else "["
        if stripped.count(opener) >= stripped.count(closer):
            break
        stripped = stripped[:-1].rstrip()
        depth -= 1
    return rest if stripped == rest.rstrip() else stripped
