"""Helpers for the schema tests: compile and walk JSON texts."""

from __future__ import annotations

import json
from typing import Any

from pse_core._core import StateMachine

from pse.types.json.schema_machine import schema_to_state_machine


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input and s.has_reached_accept_state() for s in steppers)


def compiled(schema: Any, **options: Any) -> StateMachine:
    return schema_to_state_machine(schema, **options)


def valid(machine: StateMachine, value: Any) -> bool:
    """Both ``json.dumps`` spellings must agree; returns the verdict."""
    a = accepts(machine, json.dumps(value))
    b = accepts(machine, json.dumps(value, separators=(",", ":")))
    assert a == b, value
    return a


def nested_objects(depth: int) -> tuple[dict[str, Any], Any]:
    """A schema of ``depth`` objects nested under key ``a`` around an integer, and an
    instance of it."""
    schema: dict[str, Any] = {"type": "integer"}
    instance: Any = 1
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
        instance = {"a": instance}
    return schema, instance
