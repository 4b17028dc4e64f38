"""NumberStateMachine: one JSON number."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core import _core
from pse_core._core import Stepper

from pse.types._values import parse_number


class NumberStepper(Stepper):
    """A position in a ``NumberStateMachine``; the value is an ``int`` or ``float``."""

    __slots__ = ()


class NumberStateMachine(_core.NumberStateMachine):
    """Matches one JSON number: ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?``.

    ``integer_only`` drops the fraction and exponent; ``allow_negative=False``
    drops the sign. The value is an ``int`` (no fraction or exponent) or a ``float``.
    """

    stepper_class: ClassVar[type[Stepper]] = NumberStepper

    def __init__(
        self,
        is_optional: bool = False,
        identifier: str | None = None,
        integer_only: bool = False,
        allow_negative: bool = True,
    ) -> None:
        super().__init__(
            is_optional=is_optional,
            identifier=identifier,
            integer_only=integer_only,
            allow_negative=allow_negative,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """The number read so far (``None`` before the first digit)."""
        return parse_number(stepper.get_raw_value())
