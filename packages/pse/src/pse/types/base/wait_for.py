"""WaitFor: free text, then a machine."""

from __future__ import annotations

from typing import ClassVar, cast

from pse_core import _core
from pse_core._core import StateMachine, Stepper


class WaitForStepper(Stepper):
    """A position in a ``WaitFor``: the free text buffered, then the awaited machine."""

    __slots__ = ()

    @property
    def buffer(self) -> str:
        """The free text read before the awaited machine started."""
        raw = self.get_raw_value()
        target = cast("WaitFor", self.state_machine).state_machine
        started = [s for s in [*self.history, self.sub_stepper] if s is not None]
        inner = "".join(s.get_raw_value() for s in started if s.state_machine is target)
        return raw[: len(raw) - len(inner)]


class WaitFor(_core.WaitFor):
    """Matches free text followed by ``state_machine``.

    * ``buffer_length=-1`` (default): no free text; ``WaitFor(sm)`` matches what ``sm`` does.
    * ``buffer_length=n >= 0``: any text may come first; ``state_machine`` may
      start once at least ``n`` characters were buffered.
    * ``strict=False``: a partial match that fails is more free text.
      ``strict=True``: a character that could start ``state_machine`` must
      start it, and if that match fails the whole path fails.
    """

    stepper_class: ClassVar[type[Stepper]] = WaitForStepper

    def __init__(
        self,
        state_machine: StateMachine,
        buffer_length: int = -1,
        strict: bool = False,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            state_machine,
            buffer_length=buffer_length,
            strict=strict,
            is_optional=is_optional,
            identifier=identifier,
        )
