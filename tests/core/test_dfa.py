"""DfaStateMachine: byte automata (the target of regex patterns and formats)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pse_core._core import DfaStateMachine, Engine, PhraseStateMachine, StateMachine, Vocabulary
from pse_core.errors import GrammarError

from .conftest import SYNTHETIC_TOKENS, accepts, prefix_ok

PATTERN = re.compile(r"[0-9]{2}-[a-c]+")


def pattern_dfa() -> DfaStateMachine:
    """Hand-built automaton for [0-9]{2}-[a-c]+, plus a dead-end branch via 'x'."""
    rows = [[-1] * 256 for _ in range(6)]
    for d in b"0123456789":
        rows[0][d] = 1
        rows[1][d] = 2
    rows[2][ord("-")] = 3
    for c in b"abc":
        rows[3][c] = 4
        rows[4][c] = 4
    rows[0][ord("x")] = 5  # state 5 never accepts: must be pruned
    return DfaStateMachine(rows, [False, False, False, False, True, False])


@given(st.text(alphabet="0123456789-abcx", max_size=8))
def test_dfa_matches_python_re(text: str) -> None:
    assert accepts(pattern_dfa(), text) == bool(PATTERN.fullmatch(text))


def test_dead_states_are_pruned() -> None:
    dfa = pattern_dfa()
    assert not prefix_ok(dfa, "x")
    assert dfa.state_count == 6 and dfa.byte_classes <= 5


def test_dfa_inside_a_graph_and_mask(synthetic_vocab: Vocabulary) -> None:
    quoted = StateMachine(
        {
            0: [(PhraseStateMachine('"'), 1)],
            1: [(pattern_dfa(), 2)],
            2: [(PhraseStateMachine('"'), "$")],
        }
    )
    assert accepts(quoted, '"12-ab"') and not accepts(quoted, '"12-"')
    engine = Engine(synthetic_vocab)
    engine.state_machine = quoted
    engine.consume_token(SYNTHETIC_TOKENS.index(b'"'))
    engine.consume_token(SYNTHETIC_TOKENS.index(b"12"))
    allowed = {SYNTHETIC_TOKENS[i] for i in engine.allowed_token_ids()}
    assert allowed == {b"-"}


def test_bad_tables() -> None:
    with pytest.raises(GrammarError, match="256"):
        DfaStateMachine([[0] * 3], [True])
    with pytest.raises(GrammarError, match="out of range"):
        DfaStateMachine([[7] * 256], [True])
    with pytest.raises(GrammarError):
        DfaStateMachine([], [])
