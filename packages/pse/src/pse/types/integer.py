"""IntegerStateMachine: a run of decimal digits."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import Stepper

from pse.types.base.character import CharacterStateMachine, CharacterStepper


class IntegerStepper(CharacterStepper):
    """A position in an ``IntegerStateMachine``; the value is an ``int`` (or the digits)."""

    __slots__ = ()


class IntegerStateMachine(CharacterStateMachine):
    """Matches one or more digits ``0-9`` (no sign, no fraction).

    The value is an ``int`` (leading zeros dropped: ``"007"`` -> ``7``), or
    the digits as a ``str`` when ``drop_leading_zeros=False``.
    """

    stepper_class: ClassVar[type[Stepper]] = IntegerStepper

    def __init__(
        self,
        drop_leading_zeros: bool = True,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            whitelist_charset="0123456789",
            is_optional=is_optional,
            identifier=identifier,
        )
        self.drop_leading_zeros = drop_leading_zeros

    def stepper_value(self, stepper: Stepper) -> Any:
        """The digits as ``int`` (or ``str``); ``None`` before the first digit."""
        raw = stepper.get_raw_value()
        if not raw:
            return None
        return int(raw) if self.drop_leading_zeros else raw
