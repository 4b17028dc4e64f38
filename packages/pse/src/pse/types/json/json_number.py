"""NumberSchemaStateMachine: a JSON number under the numeric keywords of a schema."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types._values import parse_number
from pse.types.json.compiler import compiler_for
from pse.types.json.schema_ir import NumAlt
from pse.types.number import NumberStepper


class NumberSchemaStepper(NumberStepper):
    """A position in a ``NumberSchemaStateMachine``."""

    __slots__ = ()


class NumberSchemaStateMachine(StateMachine):
    """A JSON number satisfying a schema's numeric keywords.

    ``NumberSchemaStateMachine({"type": "integer", "minimum": 0}, {})``. The
    value is the parsed number.
    """

    stepper_class: ClassVar[type[Stepper]] = NumberSchemaStepper

    def __init__(self, schema: dict[str, Any], context: Any = None, **options: Any) -> None:
        comp = compiler_for({"type": "number", **schema}, context, **options)
        alts = [
            a for a in comp.ctx.sub_ir(frozenset({comp.ctx.root_node})) if isinstance(a, NumAlt)
        ]
        inner = comp.compile_alts(list(alts))
        super().__init__({0: [(inner, "$")]}, start_state=0, end_states=["$"])
        self.schema = schema

    def stepper_value(self, stepper: Stepper) -> Any:
        """The number read so far."""
        return parse_number(stepper.get_raw_value())


__all__ = ["NumberSchemaStateMachine"]
