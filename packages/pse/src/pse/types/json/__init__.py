"""JSON state machines and the JSON Schema compiler.

``json_schema_state_machine`` and ``schema_to_state_machine`` are defined in
:mod:`pse.types.json.schema_machine` and importable from here.
"""

from __future__ import annotations

from pse.types.json.schema_machine import json_schema_state_machine, schema_to_state_machine

__all__ = ["json_schema_state_machine", "schema_to_state_machine"]
