"""Schema-guided coercion: bend a repaired value towards a JSON Schema.

Only the cheap, unambiguous coercions: ``"1"`` to ``1`` for integers,
``1``/``0`` to booleans, a string holding JSON (or repairable JSON) to the
object or array the schema asks for, a lone value wrapped in an array.
``mode="salvage"`` also re-reads strings like ``"[a, b]"`` as arrays.
Every coercion is recorded, like a repair.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["coerce"]


def _types(schema: dict[str, Any]) -> list[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    return []


def _matches(value: Any, t: str) -> bool:
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "null":
        return value is None
    return True


def coerce(
    value: Any,
    schema: Any,
    repairs: list[str],
    *,
    mode: str = "standard",
    reparse: Callable[[str], Any] | None = None,
    path: str = "$",
) -> Any:
    """``value`` coerced towards ``schema``; coercions are appended to ``repairs``."""
    if not isinstance(schema, dict):
        return value
    types = _types(schema)
    if types and not any(_matches(value, t) for t in types):
        value = _coerce_scalar(value, types, repairs, mode, reparse, path)
    if isinstance(value, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                if key in value:
                    value[key] = coerce(
                        value[key], sub, repairs, mode=mode, reparse=reparse, path=f"{path}.{key}"
                    )
    elif isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, dict):
            value = [
                coerce(v, items, repairs, mode=mode, reparse=reparse, path=f"{path}[{i}]")
                for i, v in enumerate(value)
            ]
    return value


def _coerce_scalar(
    value: Any,
    types: list[str],
    repairs: list[str],
    mode: str,
    reparse: Callable[[str], Any] | None,
    path: str,
) -> Any:
    for t in types:
        new = _try(value, t, mode, reparse)
        if new is not _FAIL:
            repairs.append(f"coerced {path} to {t}")
            return new
    return value


class _Fail:
    pass


_FAIL = _Fail()


def _try(value: Any, t: str, mode: str, reparse: Callable[[str], Any] | None) -> Any:
    if t in ("integer", "number") and isinstance(value, str):
        try:
            num = float(value.strip())
        except ValueError:
            return _FAIL
        if t == "integer":
            return int(num) if num.is_integer() else _FAIL
        return int(num) if num.is_integer() and "." not in value else num
    if t == "boolean":
        if isinstance(value, (int, float)) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
            return value.strip().lower() in ("true", "1")
        return _FAIL
    if t == "string" and isinstance(value, (int, float, bool)):
        return json.dumps(value)
    if t in ("object", "array") and isinstance(value, str):
        text = value.strip()
        if t == "object" or mode == "salvage":
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = reparse(text) if reparse is not None else _FAIL
            if _matches(parsed, t):
                return parsed
        if t == "array":
            return [value]
        return _FAIL
    if t == "array":
        return [value]
    return _FAIL
