"""ObjectStateMachine: one JSON object."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types._values import children_of, is_machine
from pse.types.base.delimited import delimited_list
from pse.types.key_value import KeyValueStateMachine


class ObjectStepper(Stepper):
    """A position in an ``ObjectStateMachine``; the value is the ``dict`` read so far."""

    __slots__ = ()


class ObjectStateMachine(StateMachine):
    """Matches ``"{" ws (kv (ws "," ws kv)*)? ws "}"`` with ``KeyValueStateMachine`` pairs.

    Property values are ``JsonStateMachine`` by default, or
    ``value_state_machine``. The empty object ``{}`` is always accepted;
    ``is_optional=True`` lets a parent skip the object entirely. The value is
    a ``dict`` (a pair still being read is included once its value started).
    """

    stepper_class: ClassVar[type[Stepper]] = ObjectStepper

    def __init__(
        self,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        value_state_machine: StateMachine | None = None,
    ) -> None:
        pair = KeyValueStateMachine(value_state_machine=value_state_machine)
        graph, items = delimited_list("{", pair, "}")
        super().__init__(
            graph,
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )
        self.key_value_state_machine = pair
        self.items_state_machine = items

    def stepper_value(self, stepper: Stepper) -> Any:
        """The ``dict`` of pairs read so far; ``None`` before ``{``."""
        if not stepper.get_raw_value():
            return None
        loops = children_of(stepper, self.items_state_machine)
        if not loops:
            return {}
        loop = loops[-1]
        result: dict[Any, Any] = {}
        for kv in loop.history:
            if is_machine(kv.state_machine, self.key_value_state_machine):
                key, value = kv.get_current_value()
                result[key] = value
        active = loop.sub_stepper
        if active is not None and is_machine(active.state_machine, self.key_value_state_machine):
            key, value = active.get_current_value()
            if key is not None and value is not None:
                result[key] = value
        return result
