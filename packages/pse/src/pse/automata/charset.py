"""Sets of Unicode code points as sorted, disjoint, inclusive ranges.

Surrogates (U+D800..U+DFFF) are never members: a JSON string that decodes to
Unicode scalar values cannot hold one unpaired, and UTF-8 cannot encode one.
"""

from __future__ import annotations

from collections.abc import Iterable

CharSet = tuple[tuple[int, int], ...]
"""Sorted, disjoint, non-adjacent inclusive ranges ``(lo, hi)``."""

MAX_CODE_POINT = 0x10FFFF
SURROGATES: CharSet = ((0xD800, 0xDFFF),)
EMPTY: CharSet = ()
ANY: CharSet = ((0, 0xD7FF), (0xE000, MAX_CODE_POINT))


def normalize(ranges: Iterable[tuple[int, int]]) -> CharSet:
    """Sort and merge ranges; drop surrogates."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if lo > hi:
            continue
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1][1] = hi
        else:
            out.append([lo, hi])
    merged = tuple((lo, hi) for lo, hi in out)
    return _minus_surrogates(merged)


def _minus_surrogates(cs: CharSet) -> CharSet:
    if not any(lo <= 0xDFFF and hi >= 0xD800 for lo, hi in cs):
        return cs
    out: list[tuple[int, int]] = []
    for lo, hi in cs:
        if hi < 0xD800 or lo > 0xDFFF:
            out.append((lo, hi))
            continue
        if lo < 0xD800:
            out.append((lo, 0xD7FF))
        if hi > 0xDFFF:
            out.append((0xE000, hi))
    return tuple(out)


def of(chars: str) -> CharSet:
    """The set of the characters of ``chars``."""
    return normalize((ord(c), ord(c)) for c in chars)


def rng(lo: str | int, hi: str | int) -> CharSet:
    """The range ``lo..hi`` (characters or code points)."""
    a = lo if isinstance(lo, int) else ord(lo)
    b = hi if isinstance(hi, int) else ord(hi)
    return normalize([(a, b)])


def union(*sets: CharSet) -> CharSet:
    return normalize(r for s in sets for r in s)


def complement(cs: CharSet) -> CharSet:
    """Every scalar value not in ``cs``."""
    out: list[tuple[int, int]] = []
    prev = 0
    for lo, hi in cs:
        if lo > prev:
            out.append((prev, lo - 1))
        prev = hi + 1
    if prev <= MAX_CODE_POINT:
        out.append((prev, MAX_CODE_POINT))
    return _minus_surrogates(tuple(out))


def intersect(a: CharSet, b: CharSet) -> CharSet:
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def difference(a: CharSet, b: CharSet) -> CharSet:
    return intersect(a, complement(b))


def contains(cs: CharSet, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in cs)
