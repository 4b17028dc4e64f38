"""`not` over objects and arrays (De Morgan over their constraints), against `jsonschema`."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from _support.json_schema import compiled, valid
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core.errors import SchemaError

SCHEMAS: list[dict[str, Any]] = [
    {"not": {"required": ["a"], "properties": {"a": {"type": "integer"}}, "minProperties": 2}},
    {"not": {"dependentRequired": {"a": ["b", "c"]}}},
    {"not": {"required": ["a"], "not": {"required": ["b"]}}},
    {"not": {"prefixItems": [{"const": 1}, {"type": "string"}], "minItems": 1}},
    {"not": {"items": {"type": "integer"}, "maxItems": 2}},
    {"oneOf": [{"required": ["a"]}, {"required": ["b"], "not": {"required": ["c"]}}]},
    # a key beyond the named ones of a closed object
    {"not": {"properties": {"a": {"type": "integer"}, "b": {}}, "additionalProperties": False}},
    {"not": {"enum": [{"a": 1}, {"b": "x", "c": 2}]}},
    {
        "oneOf": [
            {"properties": {"a": {}}, "additionalProperties": False},
            {"properties": {"b": {}}, "additionalProperties": False},
        ]
    },
]

VALUES = st.one_of(st.integers(0, 2), st.sampled_from(["x"]))
OBJECTS = st.dictionaries(st.sampled_from("abc"), VALUES, max_size=3)
ARRAYS = st.lists(VALUES, max_size=3)


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(max_examples=80, deadline=None)
@given(value=st.one_of(OBJECTS, ARRAYS, VALUES))
def test_negation_agrees_with_jsonschema(schema: dict[str, Any], value: Any) -> None:
    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert (
        valid(compiled(schema, ordered_properties=False, strict_properties=False), value)
        == expected
    ), (schema, value)


def test_closed_objects_with_many_names_are_declined() -> None:
    """A key beyond n named ones takes 2**n alternatives: declined past MAX_NEGATED_NAMES."""
    names = {k: {} for k in "abcdefgh"}
    with pytest.raises(SchemaError) as info:
        compiled({"not": {"properties": names, "additionalProperties": False}})
    assert info.value.keyword == "not" and info.value.pointer == "/not"
