"""ArraySchemaStateMachine: items, prefixItems, counts, contains, uniqueItems."""

from __future__ import annotations

from _support.json_schema import compiled, valid

from pse.types.json.json_array import ArraySchemaStateMachine


def test_docs_examples(harness):
    strings = ArraySchemaStateMachine(
        schema={"type": "array", "items": {"type": "string"}}, context={}
    )
    assert harness.matches(strings, '["a", "b"]')
    assert not harness.matches(strings, '["a", 1]')
    bounded = ArraySchemaStateMachine(
        schema={"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 5},
        context={},
    )
    assert harness.matches(bounded, "[1, 2.5]")
    assert not harness.matches(bounded, "[]")
    assert not harness.matches(bounded, "[1,2,3,4,5,6]")


def test_prefix_items_and_items_false():
    sm = compiled({"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False})
    assert valid(sm, [])
    assert valid(sm, [1])
    assert valid(sm, [1, "a"])
    assert not valid(sm, [1, "a", 2])
    assert not valid(sm, ["a"])
    draft7 = compiled({"items": [{"type": "integer"}], "additionalItems": {"type": "boolean"}})
    assert valid(draft7, [1, True, False])
    assert not valid(draft7, [1, 2])


def test_contains():
    sm = compiled({"contains": {"const": 1}, "minContains": 2, "maxContains": 3})
    assert not valid(sm, [1])
    assert valid(sm, [1, 2, 1])
    assert not valid(sm, [1, 1, 1, 1])


def test_unique_items_on_finite_domains():
    sm = compiled({"items": {"enum": ["a", "b", 1]}, "uniqueItems": True})
    assert valid(sm, ["a", 1, "b"])
    assert not valid(sm, ["a", "a"])
    assert not valid(sm, [1, 1.0])
    strings = compiled({"items": {"type": "string"}, "uniqueItems": True})  # the stepper
    assert valid(strings, ["a", "b"]) and not valid(strings, ["a", "b", "a"])
