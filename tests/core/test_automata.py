"""The native automaton helpers of the schema compiler: minimize_dfa, number_dfa."""

from __future__ import annotations

import pytest
from pse_core._core import minimize_dfa, number_dfa


def run(rows: list[list[tuple[int, int, int]]], accepting: list[bool], text: str) -> bool:
    s = 0
    for ch in text:
        for lo, hi, t in rows[s]:
            if lo <= ord(ch) <= hi:
                s = t
                break
        else:
            return False
    return accepting[s]


def test_minimize_merges_equivalent_states_and_joins_ranges() -> None:
    # "a" or "b", each through its own copy of the same final state; state 4 is
    # unreachable and state 3 cannot reach acceptance.
    rows = [[(97, 97, 1), (98, 98, 2), (99, 99, 3)], [], [], [(97, 122, 3)], [(97, 97, 0)]]
    accepting = [False, True, True, False, True]
    out_rows, out_acc = minimize_dfa(rows, accepting)
    assert out_rows == [[(97, 98, 1)], []] and out_acc == [False, True]
    for text in ["a", "b", "c", "", "ab", "ca"]:
        assert run(out_rows, out_acc, text) == run(rows, accepting, text), text


def test_minimize_empty_language() -> None:
    assert minimize_dfa([[(97, 97, 1)], [(97, 97, 1)]], [False, False]) == ([[]], [False])


def test_minimize_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        minimize_dfa([[(97, 97, 5)]], [True])
    with pytest.raises(ValueError):
        minimize_dfa([[]], [True, False])


def test_number_dfa_bounds_and_state_limit() -> None:
    built = number_dfa([("0", 2 | 4), ("150", 1 | 2)], 1, 1, 4, 100, 20_000)
    assert built is not None
    rows, accepting = built
    for text, ok in [
        ("0", True),
        ("150", True),
        ("151", False),
        ("-1", False),
        ("1.5e2", True),
        ("1.5", False),
        ("15e1", True),
        ("1500e-1", True),
        ("149.0", True),
    ]:
        assert run(rows, accepting, text) == ok, text
    assert number_dfa([], 1, 1, 4, 100, 10) is None
