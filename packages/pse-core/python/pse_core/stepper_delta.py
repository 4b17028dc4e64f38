"""Documented import path of `StepperDelta`."""

from pse_core._core import StepperDelta

__all__ = ["StepperDelta"]
