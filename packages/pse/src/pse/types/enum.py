"""EnumStateMachine: one of a fixed set of values."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, ClassVar

from pse_core._core import StateMachine, Stepper
from pse_core.errors import GrammarError

from pse.types._values import decode_json_string
from pse.types.base.phrase import PhraseStateMachine


def _literal(value: Any, require_quotes: bool) -> str:
    if isinstance(value, str) and not require_quotes:
        return value
    return json.dumps(value, ensure_ascii=False)


class EnumStepper(Stepper):
    """A position in an ``EnumStateMachine``; the value is the chosen member."""

    __slots__ = ()


class EnumStateMachine(StateMachine):
    """Matches exactly one of ``enum_values``.

    With ``require_quotes=True`` (default) each value is matched as its JSON
    literal (strings quoted, ``json.dumps(value, ensure_ascii=False)``);
    otherwise strings are matched bare. The value is the matched value.
    """

    stepper_class: ClassVar[type[Stepper]] = EnumStepper

    def __init__(
        self,
        enum_values: Iterable[Any],
        require_quotes: bool = True,
        is_optional: bool = False,
        identifier: str | None = None,
    ) -> None:
        values = list(enum_values)
        by_literal: dict[str, Any] = {}
        for value in values:
            by_literal.setdefault(_literal(value, require_quotes), value)
        if not by_literal:
            raise GrammarError("EnumStateMachine needs at least one value")
        super().__init__(
            {0: [(PhraseStateMachine(text), "$") for text in by_literal]},
            start_state=0,
            end_states=["$"],
            is_optional=is_optional,
            identifier=identifier,
        )
        self.enum_values = values
        self.require_quotes = require_quotes
        self._by_literal = by_literal

    def stepper_value(self, stepper: Stepper) -> Any:
        """The matched value; a partial match gives the text so far (strings decoded)."""
        raw = stepper.get_raw_value()
        if not raw:
            return None
        if raw in self._by_literal:
            return self._by_literal[raw]
        if self.require_quotes and raw.startswith('"'):
            return decode_json_string(raw)
        return raw
