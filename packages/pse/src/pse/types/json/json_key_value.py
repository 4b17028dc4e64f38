"""KeyValueSchemaStateMachine: one ``"key": value`` pair of a schema object.

Keys are matched on their decoded value, whatever escapes spell them (see
``object_graph.name_machine``).
"""

from __future__ import annotations

from typing import Any

from pse_core._core import StateMachine

from pse.types.json.compiler import compiler_for
from pse.types.json.object_graph import KeyValueSchemaStepper, PairStateMachine, name_machine


class KeyValueSchemaStateMachine(PairStateMachine):
    """``key ws ":" ws value`` with a schema-compiled key and value.

    ``KeyValueSchemaStateMachine(prop_name, prop_schema, context)`` matches the
    property ``prop_name`` (any JSON spelling of it) with a value valid against
    ``prop_schema``. The documented keywords ``property_name=`` and
    ``property_schema=`` name the same two arguments; ``required=False`` makes
    the pair optional (``is_optional``). The value is ``(key, value)``.
    """

    def __init__(
        self,
        prop_name: str | None = None,
        prop_schema: Any = True,
        context: Any = None,
        *,
        key_machine: StateMachine | None = None,
        value_machine: StateMachine | None = None,
        whitespace: StateMachine | None = None,
        property_name: str | None = None,
        property_schema: Any = None,
        required: bool = True,
        **options: Any,
    ) -> None:
        if property_name is not None:
            prop_name = property_name
        if property_schema is not None:
            prop_schema = property_schema

        if value_machine is None or whitespace is None:
            comp = compiler_for(prop_schema, context, **options)
            if value_machine is None:
                value_machine = comp.compile_root()
            if whitespace is None:
                whitespace = comp.ws()
        if key_machine is None:
            if prop_name is None:
                raise ValueError("give prop_name or key_machine")
            key_machine = name_machine(prop_name)
        super().__init__(prop_name, key_machine, whitespace, value_machine, required=required)


__all__ = ["KeyValueSchemaStateMachine", "KeyValueSchemaStepper", "name_machine"]
