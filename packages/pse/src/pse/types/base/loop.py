"""LoopStateMachine: one machine, repeated."""

from __future__ import annotations

from typing import ClassVar, cast

from pse_core import _core
from pse_core._core import StateMachine, Stepper
from pse_core.errors import GrammarError


class LoopStepper(Stepper):
    """A position in a ``LoopStateMachine``."""

    __slots__ = ()

    @property
    def loop_count(self) -> int:
        """Repetitions completed so far, an accepting one in progress included
        (separators do not count)."""
        item = cast("LoopStateMachine", self.state_machine).state_machine
        done = sum(1 for child in self.history if child.state_machine is item)
        active = self.sub_stepper
        if active is None or active.state_machine is not item:
            return done
        return done + (1 if active.has_reached_accept_state() else 0)


class LoopStateMachine(_core.LoopStateMachine):
    """Matches ``min_loop_count..max_loop_count`` repetitions of ``state_machine``.

    ``max_loop_count=-1`` means unbounded. ``separator`` (if given) must match
    between repetitions; it does not count and is not part of the value.
    ``whitespace_separator=True`` (or the documented spelling
    ``whitespace_seperator=True``) uses ``WhitespaceStateMachine()`` as separator.
    The loop is skippable when ``min_loop_count == 0`` (``is_optional`` is then ``True``).
    """

    stepper_class: ClassVar[type[Stepper]] = LoopStepper

    def __init__(
        self,
        state_machine: StateMachine,
        min_loop_count: int = 1,
        max_loop_count: int = -1,
        separator: StateMachine | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
        *,
        whitespace_seperator: bool = False,
        whitespace_separator: bool = False,
    ) -> None:
        if whitespace_seperator or whitespace_separator:
            if separator is not None:
                raise GrammarError("give either separator or whitespace_separator, not both")
            from pse.types.whitespace import WhitespaceStateMachine  # noqa: PLC0415 (cycle)

            separator = WhitespaceStateMachine()
        super().__init__(
            state_machine,
            min_loop_count=min_loop_count,
            max_loop_count=max_loop_count,
            separator=separator,
            is_optional=is_optional or min_loop_count == 0,
            identifier=identifier,
        )
