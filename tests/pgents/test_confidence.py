"""The confidence table and combination rules."""

from __future__ import annotations

import pytest
from pgents.confidence import (
    BASE,
    critical_path,
    parallel,
    reflection_confidence,
    repair_factor,
    sequential,
    with_repairs,
)


def test_spec_examples() -> None:
    assert sequential(0.8, 0.6, 0.9) == pytest.approx(0.432)
    assert parallel([0.7, 0.8, 0.6]) == pytest.approx(0.7)
    assert critical_path([0.9, 0.4, 1.0]) == 0.4
    assert parallel([]) == 0.0


def test_repairs_follow_the_table() -> None:
    assert with_repairs(BASE["direct"], 0) == BASE["direct"]
    assert with_repairs(BASE["direct"], 1) == pytest.approx(BASE["single-repair"])
    assert with_repairs(BASE["direct"], 5) == pytest.approx(BASE["multiple-repairs"])
    assert all(repair_factor(n) < 1 for n in range(1, 5))


def test_reflection() -> None:
    assert [reflection_confidence(n) for n in range(5)] == [0.9, 0.7, 0.5, 0.4, 0.4]
