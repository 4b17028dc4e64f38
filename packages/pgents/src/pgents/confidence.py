"""Confidence scoring: base confidence per strategy and the combination rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

__all__ = [
    "BASE",
    "critical_path",
    "parallel",
    "reflection_confidence",
    "repair_factor",
    "sequential",
    "with_repairs",
]

BASE: Final[dict[str, float]] = {
    "cfg": 1.0,
    "fim": 0.95,
    "pydantic": 0.9,
    "direct": 0.85,
    "stack-balancing": 0.75,
    "anchor": 0.7,
    "reflection-1": 0.7,
    "single-repair": 0.6,
    "reflection-2": 0.5,
    "multiple-repairs": 0.4,
}
"""The spec's table ("Base Confidence by Strategy")."""

_REFLECTION: Final = (0.9, 0.7, 0.5, 0.4)


def sequential(*confidences: float) -> float:
    """Operations in sequence multiply (0.8 x 0.6 x 0.9 = 0.432)."""
    out = 1.0
    for c in confidences:
        out *= c
    return out


def parallel(confidences: Iterable[float]) -> float:
    """Results fused in parallel average ((0.7 + 0.8 + 0.6) / 3 = 0.7); 0 when empty."""
    values = list(confidences)
    return sum(values) / len(values) if values else 0.0


def critical_path(confidences: Iterable[float]) -> float:
    """A probabilistic AST is as trustworthy as its weakest critical node."""
    return min(confidences, default=1.0)


def repair_factor(n_repairs: int) -> float:
    """The penalty for ``n_repairs``: a direct parse (0.85) becomes 0.6 with one
    repair and 0.4 with several, as in the base table; always < 1 when n > 0."""
    if n_repairs <= 0:
        return 1.0
    return (BASE["single-repair"] if n_repairs == 1 else BASE["multiple-repairs"]) / BASE["direct"]


def with_repairs(base: float, n_repairs: int) -> float:
    """``base`` with the repair penalty applied (sequential rule)."""
    return sequential(base, repair_factor(n_repairs))


def reflection_confidence(retries: int) -> float:
    """0.9 with no retry, 0.7 after one, 0.5 after two, 0.4 after three or more."""
    return _REFLECTION[min(max(retries, 0), len(_REFLECTION) - 1)]
