"""Documented import path of `Stepper`."""

from pse_core._core import Stepper

__all__ = ["Stepper"]
