"""Work a compilation does once: equal leaf schemas, a ``$ref`` and its target.

Leaf schemas (keywords holding scalars or lists of scalars) are interned by
content, and a ``Sub`` whose alternatives equal those of one compiled before
shares its machine, so a schema that repeats a subschema builds it once.
"""

from __future__ import annotations

from typing import Any

import pytest
from _support.json_schema import accepts
from pse_core import StateMachine

from pse.types.json.context import leaf_key
from pse.types.json.object_graph import ObjectGraphStateMachine, PairStateMachine
from pse.types.json.schema_machine import schema_to_state_machine


def value_machines(schema: dict[str, Any]) -> dict[str, StateMachine]:
    """The value machine of each named property of a compiled object schema."""
    root = schema_to_state_machine(schema)
    graph = root.machine  # type: ignore[attr-defined]
    assert isinstance(graph, ObjectGraphStateMachine)
    out: dict[str, StateMachine] = {}
    for edges in graph.state_graph.values():
        for machine, _ in edges:
            if isinstance(machine, PairStateMachine) and machine.prop_name is not None:
                out[machine.prop_name] = machine.state_machines[-1]
    return out


def test_equal_leaf_schemas_share_one_machine() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "maxLength": 5},
            "b": {"type": "string", "maxLength": 5},
            "c": {"type": "string", "maxLength": 6},
        },
        "required": ["a", "b", "c"],
    }
    values = value_machines(schema)
    assert values["a"] is values["b"]
    assert values["a"] is not values["c"]
    machine = schema_to_state_machine(schema)
    assert accepts(machine, '{"a": "abcde", "b": "", "c": "abcdef"}')
    assert not accepts(machine, '{"a": "abcde", "b": "abcdef", "c": ""}')


def test_a_reference_and_its_target_share_one_machine() -> None:
    point = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    schema = {
        "$defs": {"point": point},
        "type": "object",
        "properties": {
            "p": {"$ref": "#/$defs/point"},
            "q": {"$ref": "#/$defs/point"},
            "r": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
        },
    }
    values = value_machines(schema)
    assert values["p"] is values["q"] is values["r"]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"type": "string"}, {"type": "string"}),
        ({"enum": ["x", 1, None]}, {"enum": ["x", 1, None]}),
        ({"type": "array", "items": False}, {"type": "array", "items": False}),
    ],
)
def test_equal_leaves_have_one_key(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a is not b
    assert leaf_key(a) is not None and leaf_key(a) == leaf_key(b)


def test_values_are_keyed_with_their_types() -> None:
    keys = {leaf_key({"const": v}) for v in (1, 1.0, True)}
    assert len(keys) == 3
    assert leaf_key({"enum": [1]}) != leaf_key({"enum": [True]})


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/$defs/a"},  # resolved where it stands
        {"$anchor": "here", "type": "string"},
        {"$id": "https://example.com/s", "type": "string"},
        {"properties": {"a": {}}},  # holds a subschema
        {"enum": [[1], {"a": 1}]},
        {"format": "no-such-format"},  # an annotation listed with its pointer
        True,
    ],
)
def test_schemas_whose_place_matters_have_no_key(schema: Any) -> None:
    assert leaf_key(schema) is None
