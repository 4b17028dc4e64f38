"""Documented import path of `TrieMap`."""

from pse_core._core import TrieMap

__all__ = ["TrieMap"]
