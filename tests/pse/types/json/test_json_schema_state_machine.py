"""schema_to_state_machine: every schema source, errors with pointers, options, the engine."""

from __future__ import annotations

import json

import pytest
from _support.json_schema import accepts, compiled
from pse_core.errors import SchemaError

from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.schema_machine import schema_to_state_machine

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
        compiled({"properties": {"a": {"not": {"type": "array", "uniqueItems": True}}}})
    assert info.value.keyword == "not"
    assert info.value.pointer == "/properties/a/not"
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


DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT6 = "http://json-schema.org/draft-06/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"


def test_keywords_newer_than_the_draft_are_annotations():
    cond = {"if": {"required": ["a"]}, "then": {"required": ["b"]}}
    for uri in (DRAFT4, DRAFT6):
        assert accepts(compiled({"$schema": uri, **cond}), '{"a": 1}'), uri
    assert not accepts(compiled({"$schema": DRAFT7, **cond}), '{"a": 1}')
    assert accepts(compiled({"$schema": DRAFT4, "const": 1}), "2")
    assert not accepts(compiled({"$schema": DRAFT6, "const": 1}), "2")
    # Draft 7: prefixItems is unknown, so items applies to every item.
    tuple_ = {"$schema": DRAFT7, "prefixItems": [{}], "items": {"type": "integer"}}
    assert not accepts(compiled(tuple_), '["a"]')
    assert accepts(compiled(tuple_), "[1]")
    # Draft 7: minContains is unknown, so contains needs one match.
    contains = {"$schema": DRAFT7, "contains": {"type": "integer"}, "minContains": 0}
    assert not accepts(compiled(contains), '["a"]')


def test_draft4_id_is_the_base_uri():
    schema = {
        "$schema": DRAFT4,
        "definitions": {"a": {"id": "#thing", "type": "integer"}},
        "properties": {"x": {"$ref": "#thing"}},
    }
    assert accepts(compiled(schema), '{"x": 1}')
    assert not accepts(compiled(schema), '{"x": "1"}')
    # ... and `$id` is not a keyword of draft 4: no base change under it.
    schema = {
        "$schema": DRAFT4,
        "definitions": {
            "p": {"$id": "p", "type": "string"},
            "q": {"$id": "q", "oneOf": [{"$ref": "#/definitions/p"}, {"type": "null"}]},
        },
        "properties": {"x": {"$ref": "#/definitions/q"}},
    }
    assert accepts(compiled(schema), '{"x": "s"}')


def test_double_negation():
    schema = {"not": {"not": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    sm = compiled(schema)
    assert accepts(sm, '{"a": "x"}')
    assert not accepts(sm, '{"a": 1}')
    assert not accepts(sm, "1")


def test_negating_a_recursive_schema():
    """oneOf negates the recursive branch: the complement recurses as well (it
    used to build new complements forever: RecursionError)."""
    tree = {
        "$defs": {
            "t": {
                "type": "object",
                "properties": {
                    "x": {"type": "string"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}},
                },
            }
        },
        "oneOf": [
            {"$ref": "#/$defs/t"},
            {"type": "object", "properties": {"x": {"type": "string", "maxLength": 3}}},
        ],
    }
    sm = compiled(tree, ordered_properties=False)
    assert accepts(sm, '{"x": "abcd"}')  # the first branch only
    assert not accepts(sm, '{"x": "ab"}')  # both
    assert accepts(sm, '{"x": "ab", "kids": [{"x": 1}]}')  # the second only
    assert not accepts(sm, '{"x": "abcd", "kids": [{"x": 1}]}')  # neither
    assert accepts(sm, '{"kids": [{"kids": [{"x": 5}]}]}')


def test_enum_literals_still_match_pattern_and_format():
    items = {"type": "array", "uniqueItems": True, "items": {"enum": ["a", "b"], "pattern": "^a"}}
    assert accepts(compiled(items), '["a"]')
    assert not accepts(compiled(items), '["b"]')
    names = {"type": "object", "propertyNames": {"enum": ["a", "b"], "pattern": "^a"}}
    assert accepts(compiled(names), '{"a": 1}')
    assert not accepts(compiled(names), '{"b": 1}')
    ips = {"type": "object", "propertyNames": {"enum": ["x", "1.2.3.4"], "format": "ipv4"}}
    assert accepts(compiled(ips), '{"1.2.3.4": 1}')
    assert not accepts(compiled(ips), '{"x": 1}')


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
