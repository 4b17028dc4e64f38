"""``format: idn-hostname``: IDNA2008 host names, judged by a stateful check.

No automaton can judge an internationalised host name: whether a code point
may appear depends on its neighbours (CONTEXTJ/CONTEXTO rules of RFC 5892),
on the whole label (the Bidi rule of RFC 5893, Katakana middle dot), on the
other labels (a right-to-left label makes the Bidi rule apply to every label)
and on the Punycode form (labels of at most 63 ASCII characters, names of at
most 253). So the string is a native checked string
(``pse_core._core.idn_hostname_string``) whose rule judges what it can in
C++ and asks the ``idna`` package (IDNA2008, no UTS 46 mapping) the rest:

* natively, with no Python call: a code point IDNA2008 disallows (the tables
  are ``idna``'s, handed over when the machine is built) kills the prefix at
  once; names of ASCII letters, digits, hyphens and dots without an ``xn--``
  label follow the hostname rules (``_ascii_viable``); the length bounds;
* in Python, for other names: a complete name is valid when every label is a
  valid U-label or A-label (``idna.ulabel``: code point classes, context
  rules, hyphens, leading combining marks, canonical Punycode), its A-label
  has at most 63 characters, the name has at most 253, there is no empty
  label (no trailing dot), and, when any label is right-to-left, every label
  satisfies the Bidi rule; labels are separated by any of the four IDNA
  dots; a prefix is kept only while some completion makes it valid: it is
  tried with witness completions (nothing, or one character among letters of
  each script class the rules ask for: Latin, ``l``, Greek, Hebrew,
  Hiragana, Arabic, digits), and a token after which none succeeds is masked.
  Every rule that a later character can still satisfy is satisfied by one
  such witness, except inside an ``xn--`` label, where the Punycode may need
  more characters: such a label is accepted whole, and a token that leaves it
  incomplete only when a witness completes it (never a dead end, possibly a
  valid spelling masked).

So a mask asks no Python about a token that keeps the name plain ASCII or
adds a disallowed code point; every other token the string allows costs one
Python call (cached per name): tens of ms per mask at 49k, hundreds at 128k.
``minLength``/``maxLength`` count the decoded characters; a token that splits
a multi-byte UTF-8 character is judged like an unfinished ``\\u`` escape.
"""

from __future__ import annotations

import functools
from typing import Any

from pse_core._core import StateMachine, StringStateMachine, idn_hostname_string
from pse_core.errors import SchemaError

from pse.types.json.checked_string import in_graph

FORMAT = "idn-hostname"
#: The label separators of IDNA (RFC 3490 section 3.1): full stop, ideographic
#: full stop, fullwidth full stop, halfwidth ideographic full stop.
DOTS = ".\u3002\uff0e\uff61"
MAX_NAME = 253
MAX_LABEL = 63
#: Characters a completion may add: one of each class the rules ask for.
WITNESS_CHARS = ("a", "l", "0", "\u03b1", "\u05d1", "\u3041", "\u0628", "\u0661", "\u06f1")


def _idna() -> Any:
    try:
        import idna  # noqa: PLC0415
    except ImportError as exc:  # pragma: no cover - idna ships with the test environment
        raise SchemaError(
            "format 'idn-hostname' needs the `idna` package (pip install idna)",
            code="unsupported-keyword",
            keyword="format",
        ) from exc
    return idna


def available() -> bool:
    """Whether the ``idna`` package is importable."""
    try:
        _idna()
    except SchemaError:
        return False
    return True


def _split(name: str) -> list[str]:
    labels = [name]
    for dot in DOTS:
        labels = [part for label in labels for part in label.split(dot)]
    return labels


@functools.lru_cache(maxsize=65536)
def _label(label: str) -> tuple[str, int] | None:
    """``(U-label, A-label length)`` of a valid label, else ``None``."""
    idna = _idna()
    if not label:
        return None
    try:
        ulabel = idna.core.ulabel(label)
        length = len(idna.core.alabel(ulabel))
    except (idna.IDNAError, UnicodeError, ValueError):
        return None
    return (ulabel, length) if length <= MAX_LABEL else None


def _rtl(ulabel: str) -> bool:
    import unicodedata  # noqa: PLC0415

    return any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in ulabel)


@functools.lru_cache(maxsize=65536)
def valid(name: str) -> bool:
    """Whether ``name`` is a valid internationalised host name."""
    fast = _ascii_viable(name, 0)
    if fast is not None:
        return fast
    idna = _idna()
    labels = [_label(part) for part in _split(name)]
    if any(label is None for label in labels):
        return False
    checked = [label for label in labels if label is not None]
    if sum(length for _, length in checked) + len(checked) - 1 > MAX_NAME:
        return False
    if any(_rtl(u) for u, _ in checked):
        try:
            return all(idna.core.check_bidi(u, check_ltr=True) for u, _ in checked)
        except idna.IDNAError:
            return False
    return True


_LDH = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")


def _ascii_viable(prefix: str, room: int) -> bool | None:
    """``viable`` for names of ASCII letters, digits, hyphens and dots without an
    ``xn--`` label, by the hostname rules alone (what ``idna`` applies to them);
    ``None`` for other names."""
    if not _LDH.issuperset(prefix):
        return None
    *done, last = prefix.split(".")
    for label in (*done, last):
        if label[2:4] == "--" and label[:2].lower() == "xn":
            return None
        if len(label) > MAX_LABEL or label[:1] == "-" or label[2:4] == "--":
            return False
    if any(not label or label[-1] == "-" for label in done):
        return False
    missing = 1 if not last or last[-1] == "-" else 0  # one letter completes the name
    return missing <= room and len(prefix) + missing <= MAX_NAME and len(last) + missing <= 63


@functools.lru_cache(maxsize=65536)
def allowed_char(char: str) -> bool:
    """Whether ``char`` may appear in a name at all: a dot, an ASCII letter (A-labels
    and ASCII labels are case-insensitive) or a PVALID/CONTEXTJ/CONTEXTO code point."""
    if char in DOTS or ("A" <= char <= "Z"):
        return True
    idna = _idna()
    cp = ord(char)
    return any(
        idna.intranges.intranges_contain(cp, ranges)
        for ranges in idna.idnadata.codepoint_classes.values()
    )


@functools.lru_cache(maxsize=65536)
def viable(prefix: str, room: int = 1) -> bool:
    """Whether a completion of ``prefix`` by at most ``room`` witness characters is a
    valid name (see the module docstring)."""
    fast = _ascii_viable(prefix, room)
    if fast is not None:
        return fast
    if not all(allowed_char(c) for c in prefix):
        return False
    if valid(prefix):
        return True
    if room <= 0 or any(_label(part) is None for part in _split(prefix)[:-1]):
        return False
    return any(viable(prefix + c, room - 1) for c in WITNESS_CHARS)


def viable_escape(prefix: str, escape: str, room: int = 1) -> bool:
    """``viable`` for a prefix followed by an unfinished escape (``\\``, ``\\u``,
    ``\\u`` and 1-3 hex digits): some character the escape can still spell
    (a witness, or one of 16 spread over its range) keeps it viable."""
    if room <= 0:
        return False
    digits = escape[2:]
    if not digits:
        return viable(prefix, room)
    span = 16 ** (4 - len(digits))
    lo = int(digits, 16) * span
    spread = range(lo, lo + span, max(1, span // 16))
    chars = [c for c in WITNESS_CHARS if lo <= ord(c) < lo + span]
    chars += [chr(cp) for cp in spread if not 0xD800 <= cp <= 0xDFFF]
    return any(viable(prefix + c, room - 1) for c in chars)


def prefix_ok(text: str, escape: str, max_length: int | None = None) -> bool:
    """Whether a completion of the decoded prefix ``text`` (followed by the
    unfinished ``escape``, see ``viable_escape``) within ``max_length`` is valid."""
    surrogate = bool(text) and "\ud800" <= text[-1] <= "\udfff"
    if surrogate:
        text = text[:-1]
    room = 1 if max_length is None else min(1, max_length - len(text))
    if escape or surrogate:
        return viable_escape(text, escape or "\\u", room)
    return (max_length is None or len(text) <= max_length) and viable(text, room)


@functools.cache
def allowed_ranges() -> list[tuple[int, int]]:
    """The code points IDNA2008 lets a label hold (PVALID, CONTEXTJ, CONTEXTO) as
    inclusive ranges, from ``idna``'s tables."""
    idna = _idna()
    return [
        (packed >> 32, (packed & 0xFFFFFFFF) - 1)
        for ranges in idna.idnadata.codepoint_classes.values()
        for packed in ranges
    ]


def idn_hostname_machine(min_length: int = 0, max_length: int | None = None) -> StateMachine:
    """A JSON string holding a valid ``idn-hostname`` (with optional length bounds),
    inside a native graph (an external node cannot be a grammar's root)."""

    def prefix(text: str, escape: str) -> bool:
        return prefix_ok(text, escape, max_length)

    string = StringStateMachine(min_length=min_length, max_length=max_length)
    node = idn_hostname_string(string, min_length, max_length, allowed_ranges(), valid, prefix)
    return in_graph(node)


__all__ = [
    "FORMAT",
    "allowed_ranges",
    "available",
    "idn_hostname_machine",
    "prefix_ok",
    "valid",
    "viable",
    "viable_escape",
]
