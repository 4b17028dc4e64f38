"""Feed text to a state machine the way the documentation's examples do."""

from __future__ import annotations

from typing import Any

from pse_core import StateMachine, Stepper


def accepting(machine: StateMachine, text: str) -> list[Stepper]:
    """The steppers that consumed all of ``text`` and are in an accept state."""
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return [s for s in steppers if s.has_reached_accept_state()]


def matches(machine: StateMachine, text: str) -> bool:
    return bool(accepting(machine, text))


def value(machine: StateMachine, text: str) -> Any:
    """The value of the first accepting reading of ``text``."""
    done = accepting(machine, text)
    assert done, f"{machine!r} does not match {text!r}"
    return done[0].get_current_value()
