"""WhitespaceStateMachine: a run of JSON whitespace."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import Stepper

from pse.types._values import raw_or_none
from pse.types.base.character import CharacterStateMachine, CharacterStepper

WHITESPACE_CHARS = " \t\n\r"


class WhitespaceStepper(CharacterStepper):
    """A position in a ``WhitespaceStateMachine``."""

    __slots__ = ()


class WhitespaceStateMachine(CharacterStateMachine):
    """Matches ``min_whitespace..max_whitespace`` characters of ``" \\t\\n\\r"``.

    With ``min_whitespace=0`` (default) the machine is optional: its parent may
    skip it. The value is the whitespace text.
    """

    stepper_class: ClassVar[type[Stepper]] = WhitespaceStepper

    def __init__(
        self,
        min_whitespace: int = 0,
        max_whitespace: int = 20,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            whitelist_charset=WHITESPACE_CHARS,
            char_min=min_whitespace,
            char_limit=max_whitespace,
            is_optional=min_whitespace == 0,
            identifier=identifier,
        )
        self.min_whitespace = min_whitespace
        self.max_whitespace = max_whitespace

    def stepper_value(self, stepper: Stepper) -> Any:
        """The whitespace consumed so far."""
        return raw_or_none(stepper)
