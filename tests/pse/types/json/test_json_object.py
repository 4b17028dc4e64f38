"""ObjectSchemaStateMachine: properties, required, additional/pattern properties, order."""

from __future__ import annotations

import json

import pytest
from _support.json_schema import accepts, compiled, valid
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core.errors import SchemaError

from pse.types.json.json_object import ObjectSchemaStateMachine

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer", "minimum": 0},
        "hobbies": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name", "hobbies"],
}


def test_docs_person_example(harness):
    sm = ObjectSchemaStateMachine(PERSON, {})
    assert harness.matches(sm, '{"name": "Ada", "age": 36, "hobbies": ["math"]}')
    assert harness.matches(sm, '{"name":"Ada","hobbies":[]}')
    assert not harness.matches(sm, '{"name": "Ada"}')  # hobbies required
    assert not harness.matches(sm, '{"name": "Ada", "age": -1, "hobbies": []}')


def test_ordered_is_default_for_generation():
    ordered = compiled(PERSON)
    anyorder = compiled(PERSON, ordered_properties=False)
    text = '{"hobbies": [], "name": "Ada"}'
    assert not accepts(ordered, text)
    assert accepts(anyorder, text)


def test_each_key_once_and_required_tracked():
    sm = compiled(PERSON, ordered_properties=False)
    assert not accepts(sm, '{"name": "a", "name": "b", "hobbies": []}')
    assert not accepts(sm, '{"hobbies": [], "hobbies": []}')
    assert accepts(sm, '{"age": 1, "hobbies": [], "name": "x"}')


def test_additional_properties():
    closed = compiled(
        {"properties": {"a": {"type": "integer"}}, "additionalProperties": False},
        ordered_properties=False,
    )
    assert valid(closed, {"a": 1})
    assert not valid(closed, {"a": 1, "b": 2})
    typed = compiled(
        {"properties": {"a": {}}, "additionalProperties": {"type": "boolean"}},
        ordered_properties=False,
    )
    assert valid(typed, {"b": True, "a": "x"})
    assert not valid(typed, {"b": 1})
    # A named key cannot be read as an additional one (escapes included).
    named = compiled(
        {"properties": {"a": {"type": "integer"}}},
        ordered_properties=False,
        strict_properties=False,
    )
    assert not accepts(named, '{"a": "x"}')
    assert not accepts(named, '{"\\u0061": "x"}')
    assert accepts(named, '{"b": "x"}')


def test_undeclared_properties_are_generated_only_when_asked():
    """strict_properties (default): only declared keys; False: JSON Schema's reading."""
    schema = {"properties": {"a": {"type": "integer"}}, "required": ["a"]}
    assert not valid(compiled(schema), {"a": 1, "b": 2})
    assert valid(compiled(schema, strict_properties=False), {"a": 1, "b": 2})
    asked = {**schema, "additionalProperties": {"type": "integer"}}
    assert valid(compiled(asked), {"a": 1, "b": 2})
    # Keys the schema needs but does not declare keep the object open.
    assert valid(compiled({"properties": {"a": {}}, "required": ["a", "c"]}), {"a": 1, "c": 2})
    assert valid(compiled({"type": "object"}), {"x": 1})


def test_whitespace_layouts():
    """standard: compact, json.dumps spacing, bounded indent; compact; free."""
    schema = {"properties": {"a": {"type": "integer"}, "b": {"type": "array"}}}
    value = {"a": 1, "b": [1, 2]}
    standard = compiled(schema)
    for text in (
        json.dumps(value),
        json.dumps(value, separators=(",", ":")),
        json.dumps(value, indent=2),
        json.dumps(value, indent=4),
    ):
        assert accepts(standard, text), text
    for text in ('{\n\n"a": 1}', '{"a" :\n1}', '{\t"a": 1}', '{"a":  1}', "{" + " " * 30 + "}"):
        assert not accepts(standard, text), text
    assert not accepts(compiled(schema, max_indent=2), json.dumps(value, indent=4))
    compact = compiled(schema, whitespace="compact")
    assert accepts(compact, json.dumps(value, separators=(",", ":")))
    assert not accepts(compact, json.dumps(value))
    free = compiled(schema, whitespace="free")
    assert accepts(free, '{\n\n"a" :\t1}')
    with pytest.raises(ValueError, match="whitespace must be one of"):
        compiled(schema, whitespace="pretty")


def test_pattern_properties_and_property_names():
    sm = compiled(
        {
            "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": {"type": "integer"},
        },
        ordered_properties=False,
    )
    assert valid(sm, {"x-a": "s", "b": 1})
    assert not valid(sm, {"x-a": 1})
    assert not valid(sm, {"b": "s"})
    names = compiled({"propertyNames": {"maxLength": 3}}, ordered_properties=False)
    assert valid(names, {"abc": 1})
    assert not valid(names, {"abcd": 1})


def test_property_counts_and_dependencies():
    sm = compiled({"minProperties": 1, "maxProperties": 2}, ordered_properties=False)
    assert not valid(sm, {})
    assert valid(sm, {"a": 1, "b": 2})
    assert not valid(sm, {"a": 1, "b": 2, "c": 3})
    deps = compiled({"dependentRequired": {"a": ["b"]}}, ordered_properties=False)
    assert not valid(deps, {"a": 1})
    assert valid(deps, {"a": 1, "b": 1})
    assert valid(deps, {"b": 1})


def test_not_required_and_whitespace_bound():
    sm = compiled({"type": "object", "not": {"required": ["a"]}}, ordered_properties=False)
    assert valid(sm, {"b": 1})
    assert not valid(sm, {"a": 1})
    tight = compiled({"type": "object"}, max_whitespace=2)
    assert accepts(tight, "{  }")
    assert not accepts(tight, "{   }")


def test_too_many_combinations_fall_back_to_schema_order():
    """Only some undeclared keys allowed (here: none starting with x): the native
    key check does not read key languages, so the object is compiled in schema order."""
    props = {f"p{i}": {"type": "integer"} for i in range(16)}
    schema = {"properties": props, "patternProperties": {"^x": False}}
    sm = compiled(schema, ordered_properties=False, max_object_states=64)
    assert sm.notes  # compiled in schema order
    assert accepts(sm, json.dumps({"p0": 1, "p5": 2}))
    assert not accepts(sm, json.dumps({"p5": 2, "p0": 1}))  # rejects, never wrongly accepts


def test_conditions_on_many_properties_with_patterns_decline():
    props = {f"p{i}": {} for i in range(16)}
    schema = {
        "properties": props,
        "propertyNames": {"maxLength": 3},
        "dependentRequired": {"p0": ["p1"]},
    }
    with pytest.raises(SchemaError) as info:
        compiled(schema, ordered_properties=False, max_object_states=64)
    assert info.value.code == "too-complex"


_TWELVE = {
    "type": "object",
    "properties": {f"p{i}": {"type": "integer"} for i in range(12)},
    "required": ["p4", "p9"],
    "minProperties": 3,
    "maxProperties": 5,
}
_TWELVE_ORDERED = compiled(_TWELVE, strict_properties=False)  # "x": an undeclared key


@given(keys=st.lists(st.sampled_from([f"p{i}" for i in range(12)] + ["x"]), unique=True))
@settings(max_examples=200, deadline=None)
def test_schema_order_skips_optional_properties_exactly(keys):
    """Schema order: named keys in order (any optional ones skipped), other keys last."""
    indices = [int(key[1:]) for key in keys if key != "x"]
    in_order = indices == sorted(indices) and ("x" not in keys or keys[-1] == "x")
    expected = in_order and {"p4", "p9"} <= set(keys) and 3 <= len(keys) <= 5
    assert valid(_TWELVE_ORDERED, dict.fromkeys(keys, 1)) == expected


def test_schema_order_graph_is_linear_in_properties():
    """Each optional property is one chain state, not an edge from every earlier one."""
    n = 400
    sm = compiled(
        {"type": "object", "properties": {f"p{i}": {} for i in range(n)}}, strict_properties=False
    )
    edges = sum(len(out) for out in sm.state_graph.values())
    assert edges < 12 * n
    assert valid(sm, {"p0": 1, "p250": 2, "p399": 3, "extra": 4})
    assert not valid(sm, {"p250": 2, "p0": 1})


def test_schema_dependencies():
    """dependentSchemas / schema-form dependencies: (no key) or (key and the schema)."""
    card = compiled(
        {"type": "object", "dependentSchemas": {"card": {"required": ["billing"]}}},
        ordered_properties=False,
    )
    assert valid(card, {"card": 1, "billing": 2}) and valid(card, {"x": 1})
    assert not valid(card, {"card": 1})
    draft7 = compiled(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": {"properties": {"b": {"type": "integer"}}}, "c": ["d"]},
        },
        ordered_properties=False,
    )
    assert valid(draft7, {"a": 1, "b": 2}) and valid(draft7, {"b": "x"}) and valid(draft7, 3)
    assert not valid(draft7, {"a": 1, "b": "x"}) and not valid(draft7, {"c": 1})
    never = compiled({"dependentSchemas": {"a": False}})
    assert valid(never, {"b": 1}) and not valid(never, {"a": 1})
