"""Documented import path of `Engine`."""

from pse_core._core import Engine

__all__ = ["Engine"]
