"""Schema-guided coercion: bend a repaired value towards a JSON Schema.

Rules, in order, for each value the schema describes (``properties``,
``items``):

* an ``enum``/``const`` entry written in another case or with spaces around
  it becomes that entry;
* an empty value (``""``, ``null``) of a type the schema excludes takes the
  declared ``default``; with none, an array becomes ``[]`` and an object
  ``{}``; an empty number or boolean stays as found (nothing is invented);
* a missing property with a declared ``default`` gets it;
* a wrong-typed value is converted where that is unambiguous: ``"1"`` to
  ``1``, ``2.0`` to ``2`` for integers, ``1``/``0``/``"yes"``/``"false"`` to
  booleans, numbers and booleans to strings, a string holding (repairable)
  JSON to the object it spells, a lone value to a one-item array.

``mode="salvage"`` also re-reads strings as arrays (``"[a, b]"`` and
``"a, b"`` to ``["a", "b"]``) and maps an array onto an object's properties
in order. Every coercion is recorded, like a repair.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Final

__all__ = ["coerce"]

_TRUE: Final = ("true", "1", "yes", "y", "on")
_FALSE: Final = ("false", "0", "no", "n", "off")

Reparse = Callable[[str], Any] | None


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
    reparse: Reparse = None,
    path: str = "$",
) -> Any:
    """``value`` coerced towards ``schema``; coercions are appended to ``repairs``."""
    if not isinstance(schema, dict):
        return value
    value = _choice(value, schema, repairs, path)
    types = _types(schema)
    if types and not any(_matches(value, t) for t in types):
        if value in ("", None) or value == [] or value == {}:
            value = _empty(value, schema, types, repairs, path)
        else:
            value = _coerce_scalar(value, schema, types, repairs, mode, reparse, path)
    if isinstance(value, dict):
        props = schema.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                if key in value:
                    value[key] = coerce(
                        value[key], sub, repairs, mode=mode, reparse=reparse, path=f"{path}.{key}"
                    )
                elif isinstance(sub, dict) and "default" in sub:
                    repairs.append(f"filled missing {path}.{key} with its default")
                    value[key] = copy.deepcopy(sub["default"])
    elif isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, dict):
            value = [
                coerce(v, items, repairs, mode=mode, reparse=reparse, path=f"{path}[{i}]")
                for i, v in enumerate(value)
            ]
    return value


def _choice(value: Any, schema: dict[str, Any], repairs: list[str], path: str) -> Any:
    """An ``enum``/``const`` entry matched up to case and surrounding spaces."""
    options = schema.get("enum")
    if "const" in schema:
        options = [schema["const"]]
    if not isinstance(options, list) or not isinstance(value, str) or value in options:
        return value
    wanted = value.strip().casefold()
    for option in options:
        if isinstance(option, str) and option.casefold() == wanted:
            repairs.append(f"matched {path} to {option!r}")
            return option
    return value


def _empty(
    value: Any, schema: dict[str, Any], types: list[str], repairs: list[str], path: str
) -> Any:
    if "default" in schema:
        repairs.append(f"filled empty {path} with its default")
        return copy.deepcopy(schema["default"])
    for t, empty in (("array", []), ("object", {}), ("null", None), ("string", "")):
        if t in types and not (t == "string" and value is not None):
            repairs.append(f"typed empty {path} as {t}")
            return empty
    return value


def _coerce_scalar(
    value: Any,
    schema: dict[str, Any],
    types: list[str],
    repairs: list[str],
    mode: str,
    reparse: Reparse,
    path: str,
) -> Any:
    for t in types:
        new = _try(value, t, schema, mode, reparse)
        if new is not _FAIL:
            repairs.append(f"coerced {path} to {t}")
            return new
    return value


class _Fail:
    pass


_FAIL = _Fail()


def _try(value: Any, t: str, schema: dict[str, Any], mode: str, reparse: Reparse) -> Any:
    if t in ("integer", "number"):
        return _number(value, t)
    if t == "boolean":
        if isinstance(value, (int, float)) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in (*_TRUE, *_FALSE):
            return value.strip().lower() in _TRUE
        return _FAIL
    if t == "string" and isinstance(value, (int, float, bool)):
        return json.dumps(value)
    if t == "null" and isinstance(value, str) and value.strip().lower() in ("null", "none"):
        return None
    if t == "object":
        return _object(value, schema, mode, reparse)
    if t == "array":
        return _array(value, mode, reparse)
    return _FAIL


def _number(value: Any, t: str) -> Any:
    if isinstance(value, float) and t == "integer":
        return int(value) if value.is_integer() else _FAIL
    if not isinstance(value, str):
        return _FAIL
    try:
        num = float(value.strip().replace("_", ""))
    except ValueError:
        return _FAIL
    if num != num or num in (float("inf"), float("-inf")):
        return _FAIL
    if t == "integer":
        return int(num) if num.is_integer() else _FAIL
    return int(num) if num.is_integer() and "." not in value else num


def _parsed(text: str, reparse: Reparse) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return reparse(text) if reparse is not None else _FAIL


def _object(value: Any, schema: dict[str, Any], mode: str, reparse: Reparse) -> Any:
    if isinstance(value, str):
        parsed = _parsed(value.strip(), reparse)
        return parsed if isinstance(parsed, dict) else _FAIL
    props = schema.get("properties")
    if mode != "salvage" or not isinstance(value, list) or not isinstance(props, dict):
        return _FAIL
    if 0 < len(value) <= len(props):
        return dict(zip(props, value, strict=False))
    return _FAIL


def _array(value: Any, mode: str, reparse: Reparse) -> Any:
    if isinstance(value, str) and mode == "salvage":
        text = value.strip()
        parsed = _parsed(text, reparse)
        if isinstance(parsed, list):
            return parsed
        if "," in text and not text.startswith(("{", "[")):
            return [part.strip() for part in text.split(",")]
    return [value]
