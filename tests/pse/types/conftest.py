"""Helpers for the ``pse.types`` tests, exposed as the session fixture ``harness``.

Everything goes through the native API the docs use: ``get_steppers()``, then
``StateMachine.advance_all_basic(steppers, text)`` (whole text or chunks) or
the documented per-character loop ``sm.advance_all_steppers(steppers, char)``.
A text is accepted iff some surviving stepper consumed all of it and reached an
accept state. The empty text is "accepted" iff the machine is skippable: a
fresh stepper never accepts (an entered machine must consume something), so
``matches(sm, "")`` checks that a parent may skip ``sm`` (docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from pse_core._core import PhraseStateMachine, StateMachine, Stepper


class Harness:
    """Feed text to a state machine and read acceptance and values."""

    @staticmethod
    def run(sm: StateMachine, text: str) -> list[Stepper]:
        """Advance fresh steppers by ``text`` in one call."""
        steppers = sm.get_steppers()
        if text:
            steppers = StateMachine.advance_all_basic(steppers, text)
        return steppers

    @staticmethod
    def run_chunks(sm: StateMachine, chunks: Iterable[str]) -> list[Stepper]:
        """Advance fresh steppers chunk by chunk."""
        steppers = sm.get_steppers()
        for chunk in chunks:
            steppers = StateMachine.advance_all_basic(steppers, chunk)
        return steppers

    @staticmethod
    def run_chars(sm: StateMachine, text: str) -> list[Stepper]:
        """The docs' loop: ``steppers = sm.advance_all_steppers(steppers, char)``."""
        steppers = sm.get_steppers()
        for char in text:
            steppers = sm.advance_all_steppers(steppers, char)
        return steppers

    @staticmethod
    def chunked(text: str, cuts: Iterable[int]) -> list[str]:
        """``text`` split at the positions ``cuts`` (clamped, deduplicated)."""
        points = sorted({min(max(c, 0), len(text)) for c in cuts} | {0, len(text)})
        return [text[a:b] for a, b in zip(points, points[1:], strict=False) if b > a]

    @staticmethod
    def accepting(steppers: list[Stepper]) -> list[Stepper]:
        """The steppers that consumed everything and reached an accept state."""
        return [s for s in steppers if not s.remaining_input and s.has_reached_accept_state()]

    @staticmethod
    def alive(steppers: list[Stepper]) -> list[Stepper]:
        """The steppers that consumed everything (accepting or not)."""
        return [s for s in steppers if not s.remaining_input]

    def skippable(self, sm: StateMachine) -> bool:
        """Whether a parent may skip ``sm``: ``"<" sm ">"`` accepts ``"<>"``."""
        parent = StateMachine(
            {
                0: [(PhraseStateMachine("<"), 1)],
                1: [(sm, 2)],
                2: [(PhraseStateMachine(">"), "$")],
            }
        )
        return bool(self.accepting(self.run(parent, "<>")))

    def matches(self, sm: StateMachine, text: str) -> bool:
        """Whether ``sm`` accepts ``text``; whole-text and per-character feeding must agree."""
        if not text:
            return self.skippable(sm)
        whole = bool(self.accepting(self.run(sm, text)))
        chars = bool(self.accepting(self.run_chars(sm, text)))
        assert whole == chars, f"whole={whole} per-char={chars} for {text!r}"
        return whole

    def is_prefix(self, sm: StateMachine, text: str) -> bool:
        """Whether some stepper survives ``text`` (accepting or not)."""
        return bool(self.alive(self.run(sm, text)))

    def values(self, steppers: list[Stepper]) -> list[Any]:
        """The distinct values of the accepting steppers."""
        out: list[Any] = []
        for s in self.accepting(steppers):
            v = s.get_current_value()
            if not any(v == o and type(v) is type(o) for o in out):
                out.append(v)
        return out

    def value(self, sm: StateMachine, text: str) -> Any:
        """The value of ``text``: it must be accepted, unambiguously, the same per character."""
        whole = self.values(self.run(sm, text))
        chars = self.values(self.run_chars(sm, text))
        assert whole, f"{text!r} not accepted"
        assert len(whole) == 1, f"ambiguous values for {text!r}: {whole!r}"
        assert chars == whole, f"per-char values {chars!r} != whole {whole!r}"
        return whole[0]


@pytest.fixture(scope="session")
def harness() -> Harness:
    return Harness()
