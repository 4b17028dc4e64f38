"""Helpers: run a native machine on text."""

from __future__ import annotations

from pse_core._core import StateMachine


def accepts(sm: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(sm.get_steppers(), text)
    return any(s.has_reached_accept_state() and s.remaining_input is None for s in steppers)
