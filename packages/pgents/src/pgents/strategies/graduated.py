"""Graduated prompting (Phase 3.2): strict schema, then loose, then regex extraction."""

from __future__ import annotations

import json
import re
from typing import Any

from pgents.protocol import BaseParser
from pgents.repair import repair_json
from pgents.result import ParseResult

__all__ = ["GraduatedPromptingParser"]

_SCALAR = r"(\"(?:[^\"\\]|\\.)*\"|'[^']*'|-?\d+(?:\.\d+)?|true|false|null|[^,\n}]+)"


class GraduatedPromptingParser(BaseParser[dict[str, Any]]):
    """Three tiers for an object with ``fields`` (name to Python type):

    1. strict: the text is exactly a JSON object with every field of the right type (1.0);
    2. loose: repaired JSON, coerced to the types (0.8);
    3. regex: ``field: value`` pairs anywhere in the text (0.5).
    """

    name = "graduated"

    def __init__(self, fields: dict[str, type]) -> None:
        self.fields = fields
        props = {k: {"type": _json_type(t)} for k, t in fields.items()}
        self.schema = {"type": "object", "properties": props, "required": list(fields)}

    def _check(self, value: Any) -> bool:
        return isinstance(value, dict) and all(
            k in value and _is(value[k], t) for k, t in self.fields.items()
        )

    def _parse(self, text: str) -> ParseResult[dict[str, Any]]:
        try:
            strict = json.loads(text)
        except ValueError:
            strict = None
        if self._check(strict):
            return ParseResult.ok(strict, 1.0, f"{self.name}:strict")
        out = repair_json(text, schema=self.schema)
        if out.found and self._check(out.value):
            return ParseResult.ok(
                out.value, 0.8, f"{self.name}:loose", repairs=out.repairs or ["loose schema"]
            )
        found: dict[str, Any] = {}
        for key, typ in self.fields.items():
            pattern = r"[\"']?" + re.escape(key) + r"[\"']?\s*[:=]\s*" + _SCALAR
            m = re.search(pattern, text)
            if m is None:
                return ParseResult.fail(f"no value for field {key!r} at any tier", self.name)
            raw = m.group(1).strip()
            value = repair_json("[" + raw + "]", schema={"type": "array"}).value
            item = value[0] if isinstance(value, list) and value else raw
            converted = _convert(item, typ)
            if converted is None:
                return ParseResult.fail(f"field {key!r}: {raw!r} is not {typ.__name__}", self.name)
            found[key] = converted
        return ParseResult.ok(found, 0.5, f"{self.name}:regex", repairs=["regex extraction"])


def _json_type(t: type) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}.get(
        t, "object"
    )


def _is(value: Any, t: type) -> bool:
    if t is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, t)


def _convert(value: Any, t: type) -> Any:
    if _is(value, t):
        return value
    try:
        if t is bool:
            return str(value).lower() in ("true", "1", "yes") if value is not None else None
        if t in (int, float, str):
            return t(value)
    except (TypeError, ValueError):
        return None
    return None
