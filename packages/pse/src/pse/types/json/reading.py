"""Reading keyword values: JSON pointers and the errors of malformed schemas."""

from __future__ import annotations

from typing import Any

from pse_core.errors import SchemaError

from pse.types.json.limits import MAX_COUNT
from pse.types.json.references import escape_pointer
from pse.types.json.schema_ir import Node


def ptr(node: Node, *parts: str | int) -> str:
    """The JSON pointer of ``parts`` below ``node``."""
    return node.pointer + "".join(f"/{escape_pointer(str(p))}" for p in parts)


def invalid(node: Node, keyword: str, message: str) -> SchemaError:
    """A malformed keyword of ``node``."""
    return SchemaError(message, code="invalid-schema", keyword=keyword, pointer=ptr(node, keyword))


def count(node: Node, schema: dict[str, Any], keyword: str) -> int | None:
    """A non-negative integer keyword (``minItems``, ``maxLength``, ...), ``None`` when
    absent (or a maximum above ``MAX_COUNT``; a minimum above it is declined)."""
    value = schema.get(keyword)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise invalid(node, keyword, f"{keyword} must be a non-negative integer")
    if value > MAX_COUNT:
        if keyword.startswith("max"):
            return None  # nothing generated comes near it
        raise SchemaError(
            f"{keyword} {value} is above the limit MAX_COUNT ({MAX_COUNT:,})",
            code="too-complex",
            keyword=keyword,
            pointer=ptr(node, keyword),
        )
    return value


__all__ = ["count", "invalid", "ptr"]
