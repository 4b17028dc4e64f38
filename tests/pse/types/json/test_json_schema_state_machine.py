"""schema_to_state_machine: every schema source, errors with pointers, options, the engine."""

from __future__ import annotations

import json

import pytest
from _support.json_schema import accepts, compiled
from pse_core.errors import SchemaError

from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_schema_state_machine import schema_to_state_machine

SCHEMA = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}


def test_sources():
    for source in (SCHEMA, json.dumps(SCHEMA), {"name": "x", "schema": SCHEMA}, [SCHEMA]):
        assert accepts(compiled(source), '{"id": 1}'), source
    phrase = PhraseStateMachine("hi")
    assert schema_to_state_machine(phrase) is phrase
    mixed = compiled([SCHEMA, phrase])
    assert accepts(mixed, "hi")
    with pytest.raises(SchemaError):
        compiled(42)


def test_recursion_via_defs():
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "v": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
                "required": ["v"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    }
    sm = compiled(tree, ordered_properties=False)
    assert accepts(sm, '{"kids": [{"v": 2, "kids": []}], "v": 1}')
    assert not accepts(sm, '{"v": 1, "kids": [{"w": 2}]}')


def test_declined_keyword_names_keyword_and_pointer():
    with pytest.raises(SchemaError) as info:
        compiled({"properties": {"a": {"unevaluatedProperties": False}}})
    assert info.value.keyword == "unevaluatedProperties"
    assert info.value.pointer == "/properties/a/unevaluatedProperties"
    with pytest.raises(SchemaError) as info:
        compiled({"$ref": "http://example.com/other.json"})
    assert info.value.code == "unresolved-ref"


def test_draft7_ref_overrides_siblings():
    schema = {
        "definitions": {"a": {"type": "integer"}},
        "properties": {"x": {"$ref": "#/definitions/a", "maximum": 1}},
    }
    assert accepts(compiled(schema, draft="7"), '{"x": 5}')
    assert not accepts(compiled(schema), '{"x": 5}')


def test_unknown_option():
    with pytest.raises(TypeError):
        compiled(SCHEMA, bogus=1)


def test_engine_configure(smollm2):
    from pydantic import BaseModel

    from pse.structuring_engine import StructuringEngine

    class Item(BaseModel):
        id: int
        name: str

    engine = StructuringEngine(smollm2)
    engine.configure(Item)
    assert engine.consume_text('{"id": 7, "name": "x"}')
    assert engine.has_reached_accept_state
    assert engine.get_structured_output(Item) == Item(id=7, name="x")
