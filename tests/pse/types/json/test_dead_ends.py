"""Parts of a schema that match nothing are dropped when the schema compiles:
an ``anyOf``/``oneOf`` alternative, an optional property, an array item whose
machine provably matches nothing (``StateMachine.accepts_nothing``) would let
generation enter a value it can never finish (issue 20's fuzz finding). The
emptiness below is visible only in the compiled machines: a required property
that recurses into itself with no way out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support.json_schema import accepts, compiled
from pse_core._core import StateMachine

#: An object that must hold another one like it: no finite instance.
ENDLESS: dict[str, Any] = {
    "type": "object",
    "properties": {"next": {"$ref": "#/$defs/endless"}},
    "required": ["next"],
}


def with_defs(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "$defs": {"endless": ENDLESS}}


def alive(machine: StateMachine, text: str) -> bool:
    """Whether some stepper has read all of ``text``."""
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input for s in steppers)


CASES: list[tuple[dict[str, Any], str, Any]] = [
    ({"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/endless"}]}, "{", 7),
    ({"oneOf": [{"type": "string"}, {"$ref": "#/$defs/endless"}]}, "{", "x"),
    (
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/endless"}, "b": {}}},
        '{"a',
        {"b": 1},
    ),
    ({"type": "array", "items": {"$ref": "#/$defs/endless"}}, "[{", []),
    (
        {"type": "array", "prefixItems": [{"type": "null"}, {"$ref": "#/$defs/endless"}]},
        "[null,",
        [None],
    ),
]


@pytest.mark.parametrize(("schema", "dead", "instance"), CASES, ids=lambda x: json.dumps(x)[:40])
@pytest.mark.parametrize("ordered", [True, False])
def test_a_branch_that_matches_nothing_is_not_entered(
    schema: dict[str, Any], dead: str, instance: Any, ordered: bool
) -> None:
    machine = compiled(with_defs(schema), ordered_properties=ordered)
    assert not alive(machine, dead)
    assert accepts(machine, json.dumps(instance))


def test_recursion_that_can_end_is_kept() -> None:
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                "required": ["kids"],
            }
        },
        "anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}],
    }
    machine = compiled(tree)
    assert accepts(machine, json.dumps({"kids": [{"kids": []}]}))
    assert accepts(machine, "null")
