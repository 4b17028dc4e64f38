"""``$dynamicRef``/``$dynamicAnchor`` (2020-12), checked against the ``jsonschema`` validator."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
import referencing
from _support.json_schema import compiled, valid

DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"

#: A generic list whose items are whatever the outermost `items` anchor says.
LIST: dict[str, Any] = {
    "$id": "https://example.com/list",
    "type": "array",
    "items": {"$dynamicRef": "#items"},
    "$defs": {"items": {"$dynamicAnchor": "items"}},
}
#: The list specialised to strings: its own `items` anchor binds first.
STRINGS: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/strings",
    "$ref": "list",
    "$defs": {"items": {"$dynamicAnchor": "items", "type": "string"}, "list": LIST},
}
#: A tree whose node type is extended by the root (a recursive dynamic scope).
TREE: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/strict-tree",
    "$dynamicAnchor": "node",
    "$ref": "tree",
    "unevaluatedProperties": False,
    "$defs": {
        "tree": {
            "$id": "tree",
            "$dynamicAnchor": "node",
            "type": "object",
            "properties": {
                "data": True,
                "children": {"type": "array", "items": {"$dynamicRef": "#node"}},
            },
        }
    },
}
#: The anchor the static target declares is another one: a plain $ref.
UNMATCHED: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/root",
    "$ref": "list",
    "$defs": {
        "foo": {"$dynamicAnchor": "items", "type": "string"},
        "list": {
            "$id": "list",
            "type": "array",
            "items": {"$dynamicRef": "#items"},
            "$defs": {"items": {"$anchor": "items", "$dynamicAnchor": "foo", "type": "number"}},
        },
    },
}

CASES = [
    (STRINGS, ["a", "b"]),
    (STRINGS, ["a", 1]),
    (STRINGS, []),
    (TREE, {"data": 1, "children": [{"data": 2, "children": []}]}),
    (TREE, {"data": 1, "children": [{"data": 2, "extra": 3}]}),
    (TREE, {"data": 1, "extra": 3}),
    (UNMATCHED, [1, 2]),
    (UNMATCHED, ["a"]),
]


@pytest.mark.parametrize(("schema", "value"), CASES)
def test_agrees_with_jsonschema(schema: dict[str, Any], value: Any) -> None:
    machine = compiled(schema, ordered_properties=False, strict_properties=False)
    assert valid(machine, value) == jsonschema.Draft202012Validator(schema).is_valid(value)


def test_the_generic_list_alone_takes_anything() -> None:
    machine = compiled(
        {"$schema": DRAFT2020, **LIST}, ordered_properties=False, strict_properties=False
    )
    assert valid(machine, [1, "a", None])


def test_draft7_ignores_the_dynamic_keywords() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.com/d7",
        "type": "array",
        "items": {"$dynamicRef": "#items"},
        "definitions": {"items": {"$dynamicAnchor": "items", "type": "string"}},
    }
    machine = compiled(schema, ordered_properties=False, strict_properties=False)
    assert valid(machine, [1, "a"])  # an unknown keyword in draft 7
    assert jsonschema.Draft7Validator(schema).is_valid([1, "a"])


DRAFT2019 = "https://json-schema.org/draft/2019-09/schema"
#: The 2019-09 specification's example: a tree, and a strict tree extending it.
TREE_2019: dict[str, Any] = {
    "$schema": DRAFT2019,
    "$id": "https://example.com/tree",
    "$recursiveAnchor": True,
    "type": "object",
    "properties": {"data": True, "children": {"type": "array", "items": {"$recursiveRef": "#"}}},
}
STRICT_2019: dict[str, Any] = {
    "$schema": DRAFT2019,
    "$id": "https://example.com/strict-tree",
    "$recursiveAnchor": True,
    "$ref": "tree",
    "unevaluatedProperties": False,
}
#: The outer resource does not declare the anchor: the run is broken, `#` stays put.
LOOSE_2019: dict[str, Any] = {**STRICT_2019, "$id": "https://example.com/loose-tree"}
del LOOSE_2019["$recursiveAnchor"]
TREES = [
    {"data": 1},
    {"children": [{"data": 2}]},
    {"children": [{"daat": 2}]},
    {"children": [{"children": [{"daat": 3}]}]},
    {"daat": 1},
]


@pytest.mark.parametrize(
    "root", [TREE_2019, STRICT_2019, LOOSE_2019], ids=["tree", "strict", "loose"]
)
@pytest.mark.parametrize("value", TREES)
def test_recursive_ref_agrees_with_jsonschema(root: dict[str, Any], value: Any) -> None:
    registry = {"https://example.com/tree": TREE_2019}
    machine = compiled(root, ordered_properties=False, strict_properties=False, registry=registry)
    resource = referencing.Resource.from_contents(TREE_2019)
    reference = jsonschema.Draft201909Validator(
        root, registry=referencing.Registry().with_resource("https://example.com/tree", resource)
    )
    assert valid(machine, value) == reference.is_valid(value)


def test_recursive_ref_is_an_annotation_in_2020_12() -> None:
    schema = {**TREE_2019, "$schema": DRAFT2020}
    machine = compiled(schema, ordered_properties=False, strict_properties=False)
    assert valid(machine, {"children": [1]})
    assert jsonschema.Draft202012Validator(schema).is_valid({"children": [1]})
