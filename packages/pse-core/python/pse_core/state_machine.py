"""Documented import path of `StateMachine`."""

from pse_core._core import StateMachine

__all__ = ["StateMachine"]
