"""BooleanStateMachine: ``true`` or ``false``."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper

from pse.types.base.phrase import PhraseStateMachine


class BooleanStepper(Stepper):
    """A position in a ``BooleanStateMachine``; the value is ``True`` or ``False``."""

    __slots__ = ()


class BooleanStateMachine(StateMachine):
    """Matches the JSON literals ``true`` and ``false`` (case-sensitive).

    The value is the Python ``bool``.
    """

    stepper_class: ClassVar[type[Stepper]] = BooleanStepper

    def __init__(self, is_optional: bool = False, identifier: str | None = None) -> None:
        super().__init__(
            {0: [(PhraseStateMachine("true"), "$"), (PhraseStateMachine("false"), "$")]},
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """``True``/``False`` once the literal is determined; ``None`` before."""
        raw = stepper.get_raw_value()
        if raw and "true".startswith(raw):
            return True
        if raw and "false".startswith(raw):
            return False
        return None
