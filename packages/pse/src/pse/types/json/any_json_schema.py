"""AnySchemaStateMachine: a value valid against at least one of several schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pse_core._core import StateMachine

from pse.types.json.compiler import compiler_for
from pse.types.json.machines import AlternativesStateMachine, AnySchemaStepper


class AnySchemaStateMachine(AlternativesStateMachine):
    """One alternative per schema, explored in parallel (``anyOf``).

    ``AnySchemaStateMachine(schemas=[...], context={})``. The value is the
    parsed JSON of the alternative that matched.
    """

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
            comp = compiler_for({"anyOf": list(schemas or [])}, context, **options)
            state_machines = [comp.compile_root()]
        super().__init__(state_machines, is_optional=is_optional, identifier=identifier)
        self.schemas = list(schemas or [])


__all__ = ["AnySchemaStateMachine", "AnySchemaStepper"]
