"""AnyStateMachine: one of several alternatives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from pse_core._core import StateMachine, Stepper

if TYPE_CHECKING:
    from pse_core._core import StateGraph


class AnyStepper(Stepper):
    """A position in an ``AnyStateMachine``: the alternative being read is its sub-stepper."""

    __slots__ = ()


class AnyStateMachine(StateMachine):
    """Matches what any one of ``state_machines`` matches (a logical OR).

    The graph is ``{0: [(sm, "$") for sm in state_machines]}``; every
    alternative is explored in parallel. The value is the raw text parsed as
    JSON when possible, else the raw text.
    """

    stepper_class: ClassVar[type[Stepper]] = AnyStepper

    def __init__(
        self,
        state_machines: Sequence[StateMachine],
        is_optional: bool = False,
        is_case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None:
        machines = list(state_machines)
        graph: StateGraph = {0: [(sm, "$") for sm in machines]}
        super().__init__(
            graph,
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            is_case_sensitive=is_case_sensitive,
            identifier=identifier,
        )
        self.state_machines = machines

    def __repr__(self) -> str:
        return "Any"
