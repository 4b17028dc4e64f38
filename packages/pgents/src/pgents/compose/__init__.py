"""Composition: Fallback (chain of responsibility), Fusion (merge), Switch
(routing) and Sequential (pipelines)."""

from __future__ import annotations

from pgents.compose.fallback import FallbackParser
from pgents.compose.fusion import FusionParser
from pgents.compose.sequential import SequentialParser
from pgents.compose.switch import SwitchParser

__all__ = ["FallbackParser", "FusionParser", "SequentialParser", "SwitchParser"]
