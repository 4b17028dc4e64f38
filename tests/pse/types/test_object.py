"""ObjectStateMachine: docs examples (datatypes page) and properties."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pse.types.object import ObjectStateMachine
from pse.types.string import StringStateMachine

NESTED = """{
  "user": {
    "name": "Alice",
    "address": {
      "city": "New York",
      "zip": "10001"
    }
  }
}"""


def test_basic_object_parsing(harness):
    object_sm = ObjectStateMachine()
    # The docs say "{}" matches "only if is_optional=True"; JSON requires "{}" to
    # be an object, so it is always accepted and is_optional means "skippable".
    assert harness.value(object_sm, "{}") == {}
    assert harness.value(ObjectStateMachine(is_optional=True), "{}") == {}
    assert harness.value(object_sm, '{"a": 1}') == {"a": 1}
    assert harness.value(object_sm, '{"name": "Alice", "age": 30}') == {"name": "Alice", "age": 30}


def test_optional_object(harness):
    optional_object_sm = ObjectStateMachine(is_optional=True)
    assert optional_object_sm.is_optional
    assert harness.matches(optional_object_sm, "")
    assert not harness.matches(ObjectStateMachine(), "")


def test_nested_object_parsing(harness):
    object_sm = ObjectStateMachine()
    assert harness.value(object_sm, NESTED) == json.loads(NESTED)


def test_working_with_object_values():
    object_sm = ObjectStateMachine()
    input_str = '{"a": 1, "b": true, "c": "hello"}'

    steppers = object_sm.get_steppers()
    for char in input_str:
        steppers = object_sm.advance_all_steppers(steppers, char)

    assert steppers
    parsed_object = steppers[0].value
    assert parsed_object == {"a": 1, "b": True, "c": "hello"}
    assert parsed_object["a"] == 1


def test_key_values_in_objects():
    object_sm = ObjectStateMachine()
    input_str = '{"name": "Alice", "age": 30}'
    steppers = object_sm.get_steppers()
    for char in input_str:
        steppers = object_sm.advance_all_steppers(steppers, char)
    result = steppers[0].value
    assert result == {"name": "Alice", "age": 30}


def test_structure_rules(harness):
    object_sm = ObjectStateMachine()
    for text in ("{ }", '{"a":1,"b":2}', '{\n\t"a" : [1, {"b": null}]\n}', '{"a": 1, "a": 2}'):
        assert harness.value(object_sm, text) == json.loads(text), text
    for text in ('{"a": 1,}', '{"a"}', "{a: 1}", '{"a": 1 "b": 2}', "{", '{"a": 1}}', "[]", "{,}"):
        assert not harness.matches(object_sm, text), text


def test_custom_value_machine(harness):
    sm = ObjectStateMachine(value_state_machine=StringStateMachine())
    assert harness.value(sm, '{"a": "x"}') == {"a": "x"}
    assert not harness.matches(sm, '{"a": 1}')


def test_partial_values(harness):
    sm = ObjectStateMachine()
    values = [s.get_current_value() for s in harness.alive(harness.run(sm, '{"a": 1, "b": "te'))]
    assert {"a": 1, "b": "te"} in values
    values = [s.get_current_value() for s in harness.alive(harness.run(sm, '{"a": 1, "b'))]
    assert {"a": 1} in values


keys = st.text(max_size=6)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)


@given(
    value=st.dictionaries(keys, st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=5),
    indent=st.sampled_from([None, 0, 2, 4]),
    cuts=st.lists(st.integers(0, 300), max_size=6),
)
def test_json_dumps_property(harness, value, indent, cuts):
    sm = ObjectStateMachine()
    text = json.dumps(value, indent=indent)
    assert harness.value(sm, text) == json.loads(text)
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert harness.values(steppers) == [json.loads(text)]
