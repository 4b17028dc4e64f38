"""EncapsulatedStateMachine: a machine between two delimiters."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from pse_core._core import StateMachine, Stepper

from pse.types._values import children_of
from pse.types.base.phrase import PhraseStateMachine
from pse.types.base.wait_for import WaitFor


def _delimiter(delimiter: str | StateMachine) -> StateMachine:
    return PhraseStateMachine(delimiter) if isinstance(delimiter, str) else delimiter


class EncapsulatedStepper(Stepper):
    """A position in an ``EncapsulatedStateMachine``.

    The states are: open delimiter (0), inner machine (1), close delimiter (2).
    """

    __slots__ = ()

    @property
    def inner_stepper(self) -> Stepper | None:
        """The stepper of the inner machine (``None`` before it starts)."""
        machine = cast("EncapsulatedStateMachine", self.state_machine)
        inner = children_of(self, machine.inner_state_machine)
        return inner[-1] if inner else None


class EncapsulatedStateMachine(StateMachine):
    """Matches ``open``, then ``state_machine``, then ``close``.

    The graph is ``0 -WaitFor(open, buffer_length)-> 1 -state_machine-> 2 -close-> "$"``.
    ``delimiters`` defaults to ``("```", "```")``; ``left_delimiter`` /
    ``right_delimiter`` override either side. A delimiter is a string (matched
    as a phrase) or a state machine. ``buffer_length`` is the free text allowed
    before ``open`` (see ``WaitFor``; ``-1``: none). The value is the inner
    machine's value, without the delimiters.
    """

    stepper_class: ClassVar[type[Stepper]] = EncapsulatedStepper

    def __init__(
        self,
        state_machine: StateMachine,
        delimiters: tuple[str | StateMachine, str | StateMachine] | None = None,
        buffer_length: int = -1,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        left_delimiter: str | StateMachine | None = None,
        right_delimiter: str | StateMachine | None = None,
    ) -> None:
        left, right = delimiters if delimiters is not None else ("```", "```")
        left = left_delimiter if left_delimiter is not None else left
        right = right_delimiter if right_delimiter is not None else right
        super().__init__(
            {
                0: [(WaitFor(_delimiter(left), buffer_length=buffer_length), 1)],
                1: [(state_machine, 2)],
                2: [(_delimiter(right), "$")],
            },
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )
        self.inner_state_machine = state_machine
        self.delimiters = (left, right)

    def stepper_value(self, stepper: Stepper) -> Any:
        """The value of the inner machine (``None`` before it starts)."""
        inner = children_of(stepper, self.inner_state_machine)
        return inner[-1].get_current_value() if inner else None


def encapsulate(
    machine: StateMachine, delimiters: tuple[str, str] | None = None, buffer_length: int = -1
) -> StateMachine:
    """``machine`` placed in free text as the original helpers do.

    With ``delimiters``: ``EncapsulatedStateMachine(machine, delimiters,
    buffer_length)``; else with ``buffer_length >= 0``: ``WaitFor(machine,
    buffer_length)`` (up to any free text first, see ``WaitFor``); else
    ``machine`` itself.
    """
    if delimiters is not None:
        return EncapsulatedStateMachine(machine, delimiters, buffer_length)
    if buffer_length >= 0:
        return WaitFor(machine, buffer_length)
    return machine
