"""ArrayStateMachine: one JSON array."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types._values import children, children_of, is_machine
from pse.types.base.delimited import delimited_list


class ArrayStepper(Stepper):
    """A position in an ``ArrayStateMachine``; the value is the ``list`` read so far."""

    __slots__ = ()


class ArrayStateMachine(StateMachine):
    """Matches ``"[" ws (value (ws "," ws value)*)? ws "]"``.

    Values are ``JsonStateMachine`` by default, or ``value_state_machine``.
    No trailing comma. The value is the ``list`` of item values.
    """

    stepper_class: ClassVar[type[Stepper]] = ArrayStepper

    def __init__(
        self,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        value_state_machine: StateMachine | None = None,
    ) -> None:
        if value_state_machine is None:
            from pse.types.json.json_value import default_json_value  # noqa: PLC0415

            value_state_machine = default_json_value()
        graph, items = delimited_list("[", value_state_machine, "]")
        super().__init__(
            graph,
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )
        self.value_state_machine = value_state_machine
        self.items_state_machine = items

    def stepper_value(self, stepper: Stepper) -> Any:
        """The list of item values (the item being read included); ``None`` before ``[``."""
        if not stepper.get_raw_value():
            return None
        loops = children_of(stepper, self.items_state_machine)
        if not loops:
            return []
        return [
            item.get_current_value()
            for item in children(loops[-1])
            if is_machine(item.state_machine, self.value_state_machine)
        ]
