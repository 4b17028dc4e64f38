"""PhraseStateMachine: matches one exact string."""

from __future__ import annotations

from typing import Any, ClassVar

from pse_core import _core
from pse_core._core import Stepper

from pse.types._values import raw_or_none


class PhraseStepper(Stepper):
    """A position in a ``PhraseStateMachine``.

    ``consumed_character_count`` characters of the phrase are matched.
    """

    __slots__ = ()


class PhraseStateMachine(_core.PhraseStateMachine):
    """Matches exactly ``phrase`` (ASCII case folding when ``is_case_sensitive=False``).

    An empty phrase raises ``GrammarError`` (a ``ValueError``). The value is the
    text consumed so far.
    """

    stepper_class: ClassVar[type[Stepper]] = PhraseStepper

    def __init__(
        self,
        phrase: str,
        is_optional: bool = False,
        is_case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            phrase,
            is_optional=is_optional,
            is_case_sensitive=is_case_sensitive,
            identifier=identifier,
        )

    def stepper_value(self, stepper: Stepper) -> Any:
        """The phrase text consumed so far."""
        return raw_or_none(stepper)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _core.PhraseStateMachine):
            return NotImplemented
        return (
            self.phrase == other.phrase
            and self.is_optional == other.is_optional
            and self.is_case_sensitive == other.is_case_sensitive
        )

    def __hash__(self) -> int:
        return hash(("Phrase", self.phrase))

    def __repr__(self) -> str:
        return f"Phrase({self.phrase!r})"
