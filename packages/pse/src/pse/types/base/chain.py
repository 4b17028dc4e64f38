"""ChainStateMachine: several machines, one after another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from pse_core._core import StateMachine, Stepper

if TYPE_CHECKING:
    from pse_core._core import StateGraph


class ChainStepper(Stepper):
    """A position in a ``ChainStateMachine``: ``current_state`` is the index of the next machine."""

    __slots__ = ()


class ChainStateMachine(StateMachine):
    """Matches each machine of ``state_machines`` in order.

    The graph is ``0 -sm0-> 1 -sm1-> ... -> n`` with ``n`` the only end state.
    The value is the raw text parsed as JSON when possible, else the raw text.
    """

    stepper_class: ClassVar[type[Stepper]] = ChainStepper

    def __init__(
        self,
        state_machines: Sequence[StateMachine],
        is_optional: bool = False,
        is_case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None:
        machines = list(state_machines)
        graph: StateGraph = {i: [(sm, i + 1)] for i, sm in enumerate(machines)}
        super().__init__(
            graph,
            start_state=0,
            end_states=[len(machines)],
            is_optional=is_optional,
            is_case_sensitive=is_case_sensitive,
            identifier=identifier,
        )
        self.state_machines = machines
