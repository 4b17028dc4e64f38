"""StringSchemaStateMachine: a JSON string under lengths, ``pattern``, ``format``, ``enum``."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types._values import decode_json_string
from pse.types.json.compiler import compiler_for
from pse.types.json.schema_ir import StrAlt
from pse.types.string import StringStepper


class StringSchemaStepper(StringStepper):
    """A position in a ``StringSchemaStateMachine``."""

    __slots__ = ()


class StringSchemaStateMachine(StateMachine):
    """A JSON string satisfying a schema's string keywords.

    ``StringSchemaStateMachine({"type": "string", "pattern": "^[a-z]+$"}, {})``.
    The value is the decoded string.
    """

    stepper_class: ClassVar[type[Stepper]] = StringSchemaStepper

    def __init__(self, schema: dict[str, Any], context: Any = None, **options: Any) -> None:
        comp = compiler_for({"type": "string", **schema}, context, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, StrAlt)
        ]
        inner = comp.compile_alts(list(alts))
        super().__init__({0: [(inner, "$")]}, start_state=0, end_states=["$"])
        self.schema = schema

    def stepper_value(self, stepper: Stepper) -> Any:
        """The decoded string read so far."""
        return decode_json_string(stepper.get_raw_value())


__all__ = ["StringSchemaStateMachine"]
