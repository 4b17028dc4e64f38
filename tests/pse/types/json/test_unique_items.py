"""uniqueItems for any item schema, checked against the `jsonschema` validator; the
duplicate is masked at the token that completes it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from _support.json_schema import compiled, valid
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import StateMachine

SCHEMAS: list[dict[str, Any]] = [
    {"uniqueItems": True},
    {"items": {"type": "integer"}, "uniqueItems": True, "maxItems": 4},
    {"prefixItems": [{"type": "boolean"}], "items": {"type": "string"}, "uniqueItems": True},
    {"items": {"enum": list(range(8))}, "uniqueItems": True},
    {"contains": {"type": "string"}, "uniqueItems": True},
]

JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-2, 2),
        st.sampled_from([1.0, 0.5, 2.0]),
        st.sampled_from(["a", "b"]),
    ),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from("xy"), inner),
    max_leaves=4,
)


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(max_examples=80, deadline=None)
@given(value=st.lists(JSON, max_size=4))
def test_unique_items_agree_with_jsonschema(schema: dict[str, Any], value: list[Any]) -> None:
    full = {"type": "array", **schema}
    expected = jsonschema.Draft202012Validator(full).is_valid(value)
    machine = compiled(full, ordered_properties=False, strict_properties=False, whitespace="free")
    assert valid(machine, value) == expected, (schema, value)


def _alive(machine: StateMachine, text: str) -> bool:
    return bool(StateMachine.advance_all_basic(machine.get_steppers(), text))


def test_the_completing_token_is_masked() -> None:
    machine = compiled({"type": "array", "uniqueItems": True}, whitespace="free")
    assert _alive(machine, '["a", "a')
    assert not _alive(machine, '["a", "a"')  # the closing quote completes a duplicate
    assert not _alive(machine, "[true, true")
    assert _alive(machine, "[1, 1")  # may still become 12
    assert not _alive(machine, "[1, 1.0]")
    assert not _alive(machine, '[{"x": [1]}, {"x": [1.0]}')
    assert _alive(machine, '[{"x": 1, "y": 2}, {"y": 2, "x": 3}]')
    assert not _alive(machine, '[{"x": 1, "y": 2}, {"y": 2, "x": 1}')


def test_large_finite_domain_caps_the_length() -> None:
    machine = compiled({"type": "array", "items": {"enum": list(range(8))}, "uniqueItems": True})
    full = json.dumps(list(range(8)))
    assert valid(machine, list(range(8)))
    assert not _alive(machine, full[:-1] + ", ")


def test_array_followed_by_more_text_in_one_token() -> None:
    """The stepper hands back the rest of a token that closes the array."""
    schema = {"properties": {"a": {"type": "array", "uniqueItems": True}, "b": {}}}
    machine = compiled(schema, ordered_properties=False, strict_properties=False)
    assert valid(machine, {"a": ["x", "y"], "b": 1})
    assert not valid(machine, {"a": ["x", "x"], "b": 1})
