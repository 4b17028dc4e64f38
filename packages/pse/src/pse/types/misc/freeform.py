"""FreeformStateMachine: unconstrained text."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import Stepper

from pse.types._values import raw_or_none
from pse.types.base.character import CharacterStateMachine, CharacterStepper


class FreeformStepper(CharacterStepper):
    """A position in a ``FreeformStateMachine``; the value is the text itself."""

    __slots__ = ()


class FreeformStateMachine(CharacterStateMachine):
    """Matches any text of ``max(char_min, 1)..char_max`` characters.

    ``char_max=None`` means unlimited; empty text needs ``is_optional=True``.
    ``blacklist_charset`` removes characters. The value is the text itself
    (never parsed as JSON).
    """

    stepper_class: ClassVar[type[Stepper]] = FreeformStepper

    def __init__(
        self,
        char_min: int = 0,
        char_max: int | None = None,
        blacklist_charset: str = "",
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            blacklist_charset=blacklist_charset,
            char_min=char_min,
            char_limit=char_max or 0,
            is_optional=is_optional,
            identifier=identifier,
        )
        self.char_max = char_max

    def stepper_value(self, stepper: Stepper) -> Any:
        """The text consumed so far."""
        return raw_or_none(stepper)
