"""KeyValueSchemaStateMachine: one ``"key": value`` pair of a schema object, and key automata.

Keys are matched on their decoded value, whatever escapes spell them: named
keys by a ``PhraseStateMachine`` when the name is plain ASCII (no escape can
appear in ``json.dumps`` output for it) and by a literal automaton otherwise;
other keys by code-point automata (``pse.automata``) for "not a named key",
patterns and ``propertyNames``, lowered to JSON string literals.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types._values import children, is_machine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.compiler import compiler_for
from pse.types.json.string_set import string_set_machine
from pse.types.key_value import KeyValueStateMachine, KeyValueStepper


def _is_plain(name: str) -> bool:
    return all(0x20 <= ord(c) < 0x7F and c not in '"\\/' for c in name)


def name_machine(name: str) -> StateMachine:
    """The key literal of a named property."""
    if _is_plain(name):
        return PhraseStateMachine(json.dumps(name))
    return string_set_machine([name])


class KeyValueSchemaStepper(KeyValueStepper):
    """A position in a ``KeyValueSchemaStateMachine``."""

    __slots__ = ()


class KeyValueSchemaStateMachine(KeyValueStateMachine):
    """``key ws ":" ws value`` with a schema-compiled key and value.

    ``KeyValueSchemaStateMachine(prop_name, prop_schema, context)`` matches the
    property ``prop_name`` (any JSON spelling of it) with a value valid against
    ``prop_schema``. The documented keywords ``property_name=`` and
    ``property_schema=`` name the same two arguments; ``required=False`` makes
    the pair optional (``is_optional``). The value is ``(key, value)``.
    """

    stepper_class: ClassVar[type[Stepper]] = KeyValueSchemaStepper

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
        self.prop_name = prop_name
        self.required = required
        super().__init__(
            [key_machine, whitespace, PhraseStateMachine(":"), whitespace, value_machine],
            is_optional=not required,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """``(key, value)``, both parsed from JSON (``None`` until they start)."""
        kids = children(stepper)
        key = value = None
        if kids:
            try:
                key = json.loads(kids[0].get_raw_value())
            except ValueError:
                key = self.prop_name
        if len(kids) > 1 and is_machine(kids[-1].state_machine, self.state_machines[-1]):
            value = kids[-1].get_current_value()
        return (key, value)


__all__ = ["KeyValueSchemaStateMachine", "name_machine"]
