"""StringStateMachine: one JSON string literal."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core import _core
from pse_core._core import Stepper

from pse.types._values import decode_json_string


class StringStepper(Stepper):
    """A position in a ``StringStateMachine``; the value is the decoded string."""

    __slots__ = ()


class StringStateMachine(_core.StringStateMachine):
    """Matches one JSON string literal, quotes included.

    Characters are code points ``>= 0x20`` except ``"`` and ``\\``, or the JSON
    escapes ``\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX``. ``min_length`` and
    ``max_length`` bound the decoded length in code points. The value is the
    decoded string (a partial literal decodes as far as it goes).
    """

    stepper_class: ClassVar[type[Stepper]] = StringStepper

    def __init__(
        self,
        min_length: int | None = None,
        max_length: int | None = None,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            min_length=min_length,
            max_length=max_length,
            is_optional=is_optional,
            identifier=identifier,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """The decoded string, or ``None`` before the opening quote."""
        return decode_json_string(stepper.get_raw_value())
