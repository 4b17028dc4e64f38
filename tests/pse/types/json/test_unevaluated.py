"""unevaluatedProperties / unevaluatedItems, checked against the `jsonschema` validator."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from _support.json_schema import compiled, valid
from hypothesis import given, settings
from hypothesis import strategies as st

SCHEMAS: list[dict[str, Any]] = [
    # siblings, allOf and $ref contribute; a cousin's annotations do not
    {
        "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"b": True}}, {"$ref": "#/$defs/c"}],
        "$defs": {"c": {"patternProperties": {"^c": {"type": "string"}}}},
        "unevaluatedProperties": False,
    },
    {"allOf": [{"properties": {"a": True}}, {"unevaluatedProperties": False}]},
    # anyOf: every passing branch counts, not only one
    {
        "anyOf": [
            {"properties": {"a": {"const": 1}}, "required": ["a"]},
            {"properties": {"b": {"const": 2}}, "required": ["b"]},
            {"properties": {"c": True}},
        ],
        "unevaluatedProperties": False,
    },
    # oneOf and a failing if: only the passing part annotates
    {
        "oneOf": [{"properties": {"a": True}, "required": ["a"]}, {"required": ["b"]}],
        "unevaluatedProperties": {"type": "integer"},
    },
    {
        "if": {"properties": {"a": {"const": 1}}, "required": ["a"]},
        "then": {"properties": {"b": True}},
        "else": {"properties": {"c": True}},
        "unevaluatedProperties": False,
    },
    # not passes no annotations
    {"not": {"not": {"properties": {"a": True}}}, "unevaluatedProperties": False},
    # dependentSchemas annotate only when their key is present
    {
        "properties": {"a": True},
        "dependentSchemas": {"a": {"properties": {"b": True}}},
        "unevaluatedProperties": False,
    },
    # nested: the inner keyword evaluates everything for the outer one
    {
        "properties": {"a": True},
        "allOf": [{"properties": {"b": True}, "unevaluatedProperties": {"type": "string"}}],
        "unevaluatedProperties": False,
    },
]

ITEM_SCHEMAS: list[dict[str, Any]] = [
    {"prefixItems": [{"type": "integer"}], "unevaluatedItems": {"type": "string"}},
    {
        "allOf": [{"prefixItems": [True, True]}],
        "anyOf": [{"prefixItems": [True, True, True]}, {"items": {"type": "integer"}}],
        "unevaluatedItems": False,
    },
    {"contains": {"type": "string"}, "unevaluatedItems": {"type": "integer"}},
    {"items": {"type": "integer"}, "unevaluatedItems": False},
]

KEYS = st.sampled_from(["a", "b", "c", "ca", "d"])
VALUES = st.one_of(st.integers(0, 2), st.sampled_from(["x", "c"]), st.booleans())


def _agrees(schema: dict[str, Any], value: Any) -> None:
    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert (
        valid(compiled(schema, ordered_properties=False, strict_properties=False), value)
        == expected
    ), (schema, value)


@pytest.mark.parametrize("schema", SCHEMAS)
@settings(max_examples=60, deadline=None)
@given(value=st.dictionaries(KEYS, VALUES, max_size=4))
def test_unevaluated_properties(schema: dict[str, Any], value: dict[str, Any]) -> None:
    _agrees(schema, value)


@pytest.mark.parametrize("schema", ITEM_SCHEMAS)
@settings(max_examples=60, deadline=None)
@given(value=st.lists(VALUES, max_size=5))
def test_unevaluated_items(schema: dict[str, Any], value: list[Any]) -> None:
    _agrees(schema, value)


def test_unevaluated_keyword_is_enforced_in_nested_schemas() -> None:
    machine = compiled({"properties": {"a": {"unevaluatedProperties": False}}})
    assert valid(machine, {"a": {}}) and not valid(machine, {"a": {"x": 1}})
