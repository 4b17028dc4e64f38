"""IntegerStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.character import CharacterStateMachine
from pse.types.integer import IntegerStateMachine


def test_basic_integer_parsing(harness):
    int_sm = IntegerStateMachine()
    assert isinstance(int_sm, CharacterStateMachine)
    assert harness.value(int_sm, "42") == 42  # "42" -> 42 (int)
    assert harness.value(int_sm, "007") == 7  # leading zeros removed
    assert type(harness.value(int_sm, "007")) is int
    assert not harness.matches(int_sm, "-5")  # negative not supported
    assert not harness.matches(int_sm, "3.14")  # decimals not supported


def test_preserving_leading_zeros(harness):
    raw_int_sm = IntegerStateMachine(drop_leading_zeros=False)
    assert harness.value(raw_int_sm, "42") == "42"  # string
    assert harness.value(raw_int_sm, "007") == "007"  # leading zeros preserved
    assert not harness.matches(raw_int_sm, "-5")
    assert not harness.matches(raw_int_sm, "3.14")


def test_empty_is_rejected(harness):
    assert not harness.matches(IntegerStateMachine(), "")
    assert harness.matches(IntegerStateMachine(is_optional=True), "")


@given(
    digits=st.text(alphabet="0123456789", min_size=1, max_size=25),
    cuts=st.lists(st.integers(0, 25), max_size=5),
)
def test_digits_property(harness, digits, cuts):
    assert harness.value(IntegerStateMachine(), digits) == int(digits)
    raw = IntegerStateMachine(drop_leading_zeros=False)
    assert harness.value(raw, digits) == digits
    steppers = harness.run_chunks(raw, harness.chunked(digits, cuts))
    assert [s.get_current_value() for s in harness.accepting(steppers)][:1] == [digits]
