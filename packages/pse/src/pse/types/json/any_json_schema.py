"""AnySchemaStateMachine: a value valid against at least one of several schemas."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types.base.any import AnyStateMachine, AnyStepper


class AnySchemaStepper(AnyStepper):
    """A position in an ``AnySchemaStateMachine``: one sub-stepper per schema still possible."""

    __slots__ = ()


class AnySchemaStateMachine(AnyStateMachine):
    """One alternative per schema, explored in parallel (``anyOf``).

    ``AnySchemaStateMachine(schemas=[...], context={})``. The value is the
    parsed JSON of the alternative that matched.
    """

    stepper_class: ClassVar[type[Stepper]] = AnySchemaStepper

    def __init__(
        self,
        schemas: Sequence[Any] | None = None,
        context: Any = None,
        *,
        state_machines: Sequence[StateMachine] | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
        **options: Any,
    ) -> None:
        if state_machines is None:
            from pse.types.json.compiler import compiler_for  # noqa: PLC0415

            comp = compiler_for({"anyOf": list(schemas or [])}, context, **options)
            state_machines = [comp.compile_root()]
        super().__init__(state_machines, is_optional=is_optional, identifier=identifier)
        self.schemas = list(schemas or [])

    @classmethod
    def from_machines(cls, machines: Sequence[StateMachine]) -> AnySchemaStateMachine:
        return cls(state_machines=machines)

    def stepper_value(self, stepper: Stepper) -> Any:
        """The parsed value once complete, else the raw text."""
        raw = stepper.get_raw_value()
        try:
            return json.loads(raw)
        except ValueError:
            return raw or None


__all__ = ["AnySchemaStateMachine"]
