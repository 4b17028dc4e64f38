"""WhitespaceStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.character import CharacterStateMachine
from pse.types.whitespace import WhitespaceStateMachine


def test_defaults(harness):
    ws_sm = WhitespaceStateMachine()
    assert isinstance(ws_sm, CharacterStateMachine)
    assert ws_sm.is_optional
    assert ws_sm.min_whitespace == 0
    assert ws_sm.max_whitespace == 20
    assert harness.matches(ws_sm, "")  # empty string, since min_whitespace=0
    assert harness.matches(ws_sm, " ")  # single space
    assert harness.matches(ws_sm, "\t\n  ")  # mixed whitespace
    assert not harness.matches(ws_sm, "a")  # non-whitespace character
    assert harness.value(ws_sm, "\t\n  ") == "\t\n  "


def test_max_whitespace(harness):
    ws_sm = WhitespaceStateMachine()
    assert harness.matches(ws_sm, " " * 20)
    assert not harness.matches(ws_sm, " " * 21)


def test_required_whitespace(harness):
    required_ws_sm = WhitespaceStateMachine(min_whitespace=1)
    assert not required_ws_sm.is_optional
    assert not harness.matches(required_ws_sm, "")  # empty string
    assert harness.matches(required_ws_sm, " ")  # single space
    assert harness.matches(required_ws_sm, "\t\n  ")  # mixed whitespace
    bounded = WhitespaceStateMachine(min_whitespace=1, max_whitespace=10)
    assert harness.matches(bounded, " " * 10)
    assert not harness.matches(bounded, " " * 11)
    at_least_three = WhitespaceStateMachine(min_whitespace=3)
    assert not harness.matches(at_least_three, "  ")
    assert harness.matches(at_least_three, "   ")


@given(
    text=st.text(alphabet=" \t\n\rx", max_size=25),
    cuts=st.lists(st.integers(0, 25), max_size=5),
)
def test_whitespace_property(harness, text, cuts):
    sm = WhitespaceStateMachine()
    expected = "x" not in text and len(text) <= 20
    assert harness.matches(sm, text) == expected
    if text:
        chunked = harness.accepting(harness.run_chunks(sm, harness.chunked(text, cuts)))
        assert bool(chunked) == expected
