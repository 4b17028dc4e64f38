"""DfaStateMachine construction (pruning, byte classes) and accepts_nothing on leaves,
against a plain walk of the table given and a reachability search written here."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import DfaStateMachine, StateMachine, StringStateMachine

from .conftest import accepts

ALPHABET = "abc-"


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[int]], list[bool]]:
    """Small DFAs over ``ALPHABET`` (every other byte rejects), dead states likely."""
    n = draw(st.integers(1, 6))
    rows = [[-1] * 256 for _ in range(n)]
    for row in rows:
        for ch in ALPHABET:
            row[ord(ch)] = draw(st.integers(-1, n - 1))
    accepting = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return rows, accepting


def walk(rows: list[list[int]], accepting: list[bool], text: str) -> bool:
    state = 0
    for ch in text:
        state = rows[state][ord(ch)]
        if state < 0:
            return False
    return accepting[state]


def reaches_acceptance(rows: list[list[int]], accepting: list[bool]) -> bool:
    """Whether some string of at least one byte is accepted from state 0."""
    seen: set[int] = set()
    todo = [t for t in rows[0] if t >= 0]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        if accepting[state]:
            return True
        todo.extend(t for t in rows[state] if t >= 0)
    return False


@settings(max_examples=200, deadline=None)
@given(tables())
def test_byte_classes_keep_the_language(table: tuple[list[list[int]], list[bool]]) -> None:
    rows, accepting = table
    dfa = DfaStateMachine(rows, accepting)
    for length in range(4):
        for chars in itertools.product(ALPHABET, repeat=length):
            text = "".join(chars)
            if text:  # a machine is walked by at least one byte
                assert accepts(dfa, text) == walk(rows, accepting, text), text
    # Bytes outside the alphabet all reject: one class between them.
    assert dfa.byte_classes <= len(ALPHABET) + 1


@settings(max_examples=200, deadline=None)
@given(tables())
def test_accepts_nothing_on_a_dfa_leaf(table: tuple[list[list[int]], list[bool]]) -> None:
    rows, accepting = table
    dfa = DfaStateMachine(rows, accepting)
    empty = not accepting[0] and not reaches_acceptance(rows, accepting)
    assert dfa.accepts_nothing() == empty


@pytest.mark.parametrize("max_extra", [0, 3, None])
def test_accepts_nothing_on_string_lengths(max_extra: int | None) -> None:
    # The search finds a literal of min_length characters along one path of ASCII
    # bytes (a breadth-first search visited every \\uXXXX partial below it).
    for min_length in (0, 1, 4, 5, 16, 60, 500):
        max_length = None if max_extra is None else min_length + max_extra
        machine = StringStateMachine(min_length=min_length, max_length=max_length)
        assert not machine.accepts_nothing()
        quoted = StateMachine({0: [(machine, "$")]}, start_state=0, end_states=["$"])
        assert not quoted.accepts_nothing()
