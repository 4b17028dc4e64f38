"""FreeformStateMachine."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.misc.freeform import FreeformStateMachine


def test_any_text(harness):
    sm = FreeformStateMachine()
    assert harness.value(sm, "any text 42 {} 世界\n") == "any text 42 {} 世界\n"
    # The value is the text, never parsed as JSON.
    assert harness.value(sm, "42") == "42"
    assert not harness.matches(sm, "")
    assert harness.matches(FreeformStateMachine(is_optional=True), "")


def test_bounds(harness):
    sm = FreeformStateMachine(char_min=3, char_max=5)
    assert not harness.matches(sm, "ab")
    assert harness.matches(sm, "abc")
    assert harness.matches(sm, "abcde")
    assert not harness.matches(sm, "abcdef")


@given(text=st.text(min_size=1, max_size=30), cuts=st.lists(st.integers(0, 30), max_size=6))
def test_chunking_property(harness, text, cuts):
    sm = FreeformStateMachine()
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert harness.values(steppers) == [text]
