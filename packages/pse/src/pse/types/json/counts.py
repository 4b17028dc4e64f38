"""Count bounds (``minItems``/``maxItems``, ``minProperties``/``maxProperties``):
their intersection and their complement, shared by the arrays and objects families."""

from __future__ import annotations

#: A closed range of counts; ``None`` above: unbounded.
Counts = tuple[int, int | None]


def intersect_counts(a: Counts, b: Counts) -> Counts | None:
    """The counts both ranges allow; ``None`` when there is none."""
    lo = max(a[0], b[0])
    hi = a[1] if b[1] is None else b[1] if a[1] is None else min(a[1], b[1])
    if hi is not None and lo > hi:
        return None
    return lo, hi


def outside_counts(bounds: Counts) -> list[Counts]:
    """The ranges of counts that ``bounds`` rejects (below, above)."""
    lo, hi = bounds
    out: list[Counts] = []
    if lo > 0:
        out.append((0, lo - 1))
    if hi is not None:
        out.append((hi + 1, None))
    return out


__all__ = ["Counts", "intersect_counts", "outside_counts"]
