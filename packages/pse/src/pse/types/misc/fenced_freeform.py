"""FencedFreeformStateMachine: free text between fences."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core._core import Stepper

from pse.types.base.encapsulated import EncapsulatedStateMachine, EncapsulatedStepper
from pse.types.misc.freeform import FreeformStateMachine


class FencedFreeformStepper(EncapsulatedStepper):
    """A position in a ``FencedFreeformStateMachine``."""

    __slots__ = ()


class FencedFreeformStateMachine(EncapsulatedStateMachine):
    """Matches any text of ``char_min..char_max`` characters between two fences.

    The fences are ``delimiters`` when given, else ``"```{identifier}\\n"`` and
    ``"\\n```"`` (``identifier`` may be ``None``: ``"```\\n"``). ``identifier`` is
    also the machine's identifier. With ``char_min=0`` the content may be empty.

    ``buffer_length`` is the free text allowed before the opening fence, as in
    ``EncapsulatedStateMachine``. It defaults to ``-1`` (the fence comes first),
    not the original's 32768: here a non-negative ``buffer_length`` is a
    *minimum* preamble length, so 32768 would forbid any short preamble.

    The content may itself contain the closing fence text; both readings are
    followed, and any of them reaching the end accepts. The value is the text
    between the fences.
    """

    stepper_class: ClassVar[type[Stepper]] = FencedFreeformStepper

    def __init__(
        self,
        identifier: str | None = None,
        delimiters: tuple[str, str] | None = None,
        char_min: int = 0,
        char_max: int | None = None,
        buffer_length: int = -1,
        is_optional: bool = False,
    ) -> None:
        if delimiters is None:
            delimiters = (f"```{identifier or ''}\n", "\n```")
        super().__init__(
            FreeformStateMachine(char_min=char_min, char_max=char_max, is_optional=char_min == 0),
            delimiters=delimiters,
            buffer_length=buffer_length,
            is_optional=is_optional,
            identifier=identifier,
        )
        self.char_min = char_min
        self.char_max = char_max

    def stepper_value(self, stepper: Stepper) -> Any:
        """The text between the fences (``""`` for empty content once the fence opened)."""
        value = super().stepper_value(stepper)
        if value is None and stepper.current_state != 0:
            return ""
        return value
