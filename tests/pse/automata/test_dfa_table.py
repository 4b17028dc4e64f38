"""DfaStateMachine from a byte table: dead states pruned, bytes grouped in classes.

The reference is computed here in Python: a state is live when an accepting
state is reachable from it; two bytes share a class when every row sends
them to the same live target (or both nowhere). The native construction
must give the same number of classes, and the machine must accept exactly
what the table accepts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import DfaStateMachine

from .conftest import accepts

ALPHABET = "abcdefxyz019-"


def live_states(rows: list[list[int]], accepting: list[bool]) -> set[int]:
    live = {s for s, a in enumerate(accepting) if a}
    changed = True
    while changed:
        changed = False
        for s, row in enumerate(rows):
            if s not in live and any(t in live for t in row if t >= 0):
                live.add(s)
                changed = True
    return live


def table_accepts(rows: list[list[int]], accepting: list[bool], text: str) -> bool:
    state = 0
    for byte in text.encode():
        state = rows[state][byte]
        if state < 0:
            return False
    return accepting[state]


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[int]], list[bool]]:
    """Rows over a few byte groups (some groups behave alike, non-adjacent)."""
    n = draw(st.integers(1, 7))
    groups = draw(st.lists(st.integers(0, 3), min_size=len(ALPHABET), max_size=len(ALPHABET)))
    moves = draw(
        st.lists(st.lists(st.integers(-1, n - 1), min_size=4, max_size=4), min_size=n, max_size=n)
    )
    rows = [[-1] * 256 for _ in range(n)]
    for s in range(n):
        for char, group in zip(ALPHABET, groups, strict=True):
            rows[s][ord(char)] = moves[s][group]
    accepting = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return rows, accepting


@settings(max_examples=300, deadline=None)
@given(tables(), st.lists(st.text(alphabet=ALPHABET + "q", min_size=1, max_size=6), max_size=8))
def test_classes_and_language_match_the_table(
    table: tuple[list[list[int]], list[bool]], texts: list[str]
) -> None:
    rows, accepting = table
    machine = DfaStateMachine(rows, accepting)
    live = live_states(rows, accepting)
    columns = {tuple(t if t in live else -1 for t in (row[b] for row in rows)) for b in range(256)}
    assert machine.state_count == len(rows)
    assert machine.byte_classes == len(columns)
    for text in texts:
        assert accepts(machine, text) == table_accepts(rows, accepting, text)
