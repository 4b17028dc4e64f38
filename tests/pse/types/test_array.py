"""ArrayStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pse.types.array import ArrayStateMachine
from pse.types.integer import IntegerStateMachine


def test_basic_array_parsing(harness):
    array_sm = ArrayStateMachine()
    assert harness.value(array_sm, "[]") == []  # empty array
    assert harness.value(array_sm, "[1, 2, 3]") == [1, 2, 3]  # array of numbers
    assert harness.value(array_sm, '["a", "b", "c"]') == ["a", "b", "c"]  # strings
    assert harness.value(array_sm, "[true, false]") == [True, False]  # booleans


def test_nested_array_parsing(harness):
    array_sm = ArrayStateMachine()
    assert harness.value(array_sm, "[[1, 2], [3, 4]]") == [[1, 2], [3, 4]]
    assert harness.value(array_sm, '[{"a": 1}, {"b": 2}]') == [{"a": 1}, {"b": 2}]


def test_structure_rules(harness):
    array_sm = ArrayStateMachine()
    for text in ("[ ]", "[\n  1,\n  2\n]", "[1,2]", "[ null ]", '[[], {}, "", 0]'):
        assert harness.value(array_sm, text) == json.loads(text), text
    for text in ("[1,]", "[,1]", "[1 2]", "[", "1", "[1]]", "[1] ", " [1]", "[1,,2]"):
        assert not harness.matches(array_sm, text), text


def test_custom_value_machine(harness):
    sm = ArrayStateMachine(value_state_machine=IntegerStateMachine(drop_leading_zeros=False))
    assert harness.value(sm, "[007, 1]") == ["007", "1"]
    assert not harness.matches(sm, '["a"]')


def test_partial_values(harness):
    sm = ArrayStateMachine()
    assert {repr(s.get_current_value()) for s in harness.alive(harness.run(sm, "["))} == {"[]"}
    values = [s.get_current_value() for s in harness.alive(harness.run(sm, '[1, "ab'))]
    assert [1, "ab"] in values


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)


@given(
    value=st.lists(json_scalars, max_size=6),
    indent=st.sampled_from([None, 0, 1, 2]),
    cuts=st.lists(st.integers(0, 200), max_size=6),
)
def test_json_dumps_property(harness, value, indent, cuts):
    sm = ArrayStateMachine()
    text = json.dumps(value, indent=indent)
    assert harness.value(sm, text) == json.loads(text)
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert harness.values(steppers) == [json.loads(text)]
