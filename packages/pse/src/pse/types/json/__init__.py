"""JSON state machines.

``json_schema_state_machine`` and ``schema_to_state_machine`` (from
:mod:`pse.types.json.schema_machine`) are importable from here; they load the
schema compiler on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = frozenset({"json_schema_state_machine", "schema_to_state_machine"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("pse.types.json.schema_machine"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
