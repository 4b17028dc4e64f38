"""JsonStateMachine: docs examples (formats page) and json-module properties."""

from __future__ import annotations

import json
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pse.types.json.json_value import JsonStateMachine


def test_any_json_value(harness):
    json_sm = JsonStateMachine()
    for text in (
        '{"a": [1, 2.5, "x", true, false, null]}',
        "[]",
        "{}",
        '"s"',
        "-1e3",
        "true",
        "null",
    ):
        assert harness.value(json_sm, text) == json.loads(text), text
    assert harness.value(json_sm, "null") is None
    for text in ("", "nul", "undefined", "{'a': 1}", "[1,]", "01", "tru", '"x" "y"'):
        assert not harness.matches(json_sm, text), text


def test_graph_shape():
    json_sm = JsonStateMachine()
    assert json_sm.start_state == 0
    assert json_sm.end_states == ["$"]
    assert len(json_sm.state_graph[0]) == 6
    assert all(target == "$" for _, target in json_sm.state_graph[0])


def test_deep_nesting_uses_one_machine(harness):
    json_sm = JsonStateMachine()
    text = "[" * 30 + "1" + "]" * 30
    assert harness.value(json_sm, text) == json.loads(text)
    text = '{"a": ' * 15 + "null" + "}" * 15
    assert harness.value(json_sm, text) == json.loads(text)


def test_many_instances_build_quickly():
    machines = [JsonStateMachine() for _ in range(200)]
    assert len(machines) == 200


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=6), children, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=60)
@given(
    value=json_values,
    indent=st.sampled_from([None, 0, 1, 2]),
    ensure_ascii=st.booleans(),
    cuts=st.lists(st.integers(0, 400), max_size=8),
)
def test_json_dumps_property(harness, value, indent, ensure_ascii, cuts):
    json_sm = JsonStateMachine()
    text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)
    # WhitespaceStateMachine allows at most 20 characters per run (documented default).
    assume(all(len(run) <= 20 for run in re.findall(r"[ \t\n\r]+", text)))
    expected = json.loads(text)
    assert harness.value(json_sm, text) == expected
    steppers = harness.run_chunks(json_sm, harness.chunked(text, cuts))
    assert harness.values(steppers) == [expected]


@settings(max_examples=150)
@given(text=st.text(alphabet='{}[]",:0 1-.etrufalsn', max_size=12))
def test_validity_matches_json_module_property(harness, text):
    try:
        json.loads(text)
        valid = text == text.strip()  # surrounding whitespace is not part of a value
    except ValueError:
        valid = False
    assert harness.matches(JsonStateMachine(), text) == valid


@settings(max_examples=60)
@given(value=json_values, indent=st.sampled_from([None, 1]))
def test_every_prefix_has_a_value_property(value, indent):
    """Streaming: after each character every live stepper yields a value without error."""
    json_sm = JsonStateMachine()
    text = json.dumps(value, indent=indent)
    steppers = json_sm.get_steppers()
    for char in text:
        steppers = json_sm.advance_all_steppers(steppers, char)
        assert steppers
        for stepper in steppers:
            stepper.get_current_value()
