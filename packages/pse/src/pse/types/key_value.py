"""KeyValueStateMachine: one ``"key": value`` pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper
from pse_core.errors import GrammarError

from pse.types._values import children, is_machine
from pse.types.base.chain import ChainStateMachine, ChainStepper
from pse.types.base.phrase import PhraseStateMachine
from pse.types.string import StringStateMachine
from pse.types.whitespace import WhitespaceStateMachine


class KeyValueStepper(ChainStepper):
    """A position in a ``KeyValueStateMachine``; the value is ``(key, value)``."""

    __slots__ = ()

    @property
    def property_name(self) -> str | None:
        """The decoded key (``None`` until it is complete)."""
        value = self.get_current_value()
        return value[0] if isinstance(value, tuple) else None

    @property
    def property_value(self) -> Any:
        """The value read so far (``None`` before it starts)."""
        value = self.get_current_value()
        return value[1] if isinstance(value, tuple) else None


class KeyValueStateMachine(ChainStateMachine):
    """Matches ``String ws ":" ws value``, the value a ``JsonStateMachine`` by default.

    ``sequence`` replaces the whole chain (its first machine gives the key, its
    last the value); ``value_state_machine`` replaces only the value. The value
    is the ``(key, value)`` tuple (``value`` is ``None`` until it starts).
    """

    stepper_class: ClassVar[type[Stepper]] = KeyValueStepper

    def __init__(
        self,
        sequence: Sequence[StateMachine] | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        value_state_machine: StateMachine | None = None,
    ) -> None:
        if sequence is None:
            if value_state_machine is None:
                from pse.types.json.json_value import default_json_value  # noqa: PLC0415

                value_state_machine = default_json_value()
            sequence = [
                StringStateMachine(),
                WhitespaceStateMachine(),
                PhraseStateMachine(":"),
                WhitespaceStateMachine(),
                value_state_machine,
            ]
        elif value_state_machine is not None:
            raise GrammarError("give either sequence or value_state_machine, not both")
        if not sequence:
            raise GrammarError("a key-value sequence needs at least one state machine")
        super().__init__(sequence, is_optional=is_optional, identifier=identifier)

    def stepper_value(self, stepper: Stepper) -> Any:
        """``(key, value)``: the first child's value and the last machine's value."""
        kids = children(stepper)
        key_sm, value_sm = self.state_machines[0], self.state_machines[-1]
        key = None
        value = None
        if kids and is_machine(kids[0].state_machine, key_sm):
            key = kids[0].get_current_value()
        if len(kids) > 1 and is_machine(kids[-1].state_machine, value_sm):
            value = kids[-1].get_current_value()
        return (key, value)
