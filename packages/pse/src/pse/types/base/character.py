"""CharacterStateMachine: a run of characters drawn from character sets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from pse_core import _core
from pse_core._core import Stepper


class CharacterStepper(Stepper):
    """A position in a ``CharacterStateMachine``: the run of characters read so far."""

    __slots__ = ()


class CharacterStateMachine(_core.CharacterStateMachine):
    """Matches a run of characters.

    * ``whitelist_charset``: when non-empty, only these characters are allowed;
      when empty, every character not in ``blacklist_charset`` is.
    * ``graylist_charset``: allowed only as the first character of the run;
      after other characters it ends the run.
    * The run holds at least ``max(char_min, 1)`` characters and at most
      ``char_limit`` (``0``: unlimited). Skipping it needs ``is_optional=True``.
    * ``case_sensitive=False`` folds ASCII letters.

    The value is the raw run parsed as JSON when possible, else the raw text.
    """

    stepper_class: ClassVar[type[Stepper]] = CharacterStepper

    def __init__(
        self,
        whitelist_charset: str | Iterable[str] = "",
        graylist_charset: str | Iterable[str] = "",
        blacklist_charset: str | Iterable[str] = "",
        char_min: int | None = None,
        char_limit: int | None = None,
        is_optional: bool = False,
        case_sensitive: bool = True,
        identifier: str | None = None,
    ) -> None:
        super().__init__(
            whitelist_charset=whitelist_charset,
            graylist_charset=graylist_charset,
            blacklist_charset=blacklist_charset,
            char_min=char_min,
            char_limit=char_limit,
            is_optional=is_optional,
            case_sensitive=case_sensitive,
            identifier=identifier,
        )
