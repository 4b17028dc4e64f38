"""The any-type family: ``type``, ``enum``, ``const`` (and OpenAPI's ``nullable``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pse_core.errors import SchemaError

from pse.types.json.numbers import to_decimal
from pse.types.json.reading import invalid, ptr
from pse.types.json.references import escape_pointer
from pse.types.json.schema_ir import (
    Alt,
    ArrAlt,
    BoolAlt,
    Node,
    NullAlt,
    NumAlt,
    ObjAlt,
    ObjRule,
    StrAlt,
)

if TYPE_CHECKING:
    from pse.types.json.context import SchemaContext

_TYPES: dict[str, Alt] = {
    "null": NullAlt(),
    "boolean": BoolAlt(),
    "number": NumAlt(),
    "integer": NumAlt(integer=True),
    "string": StrAlt(),
    "array": ArrAlt(),
    "object": ObjAlt(),
}


def type_alts(node: Node, names: Any) -> list[Alt]:
    """The alternatives of a ``type`` keyword."""
    names = [names] if isinstance(names, str) else names
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise invalid(node, "type", "type must be a string or a list of strings")
    typed: list[Alt] = []
    for name in names:
        if name not in _TYPES:
            raise invalid(node, "type", f"unknown type {name!r}")
        if _TYPES[name] not in typed:
            typed.append(_TYPES[name])
    if _TYPES["number"] in typed:
        typed = [t for t in typed if t is not _TYPES["integer"]]
    return typed


def value_alts(ctx: SchemaContext, value: Any, pointer: str) -> list[Alt]:
    """The alternatives matching exactly the JSON value ``value``."""
    if value is None:
        return [NullAlt()]
    if isinstance(value, bool):
        return [BoolAlt(frozenset({value}))]
    if isinstance(value, int | float):
        d = to_decimal(value, "const", pointer)
        return [NumAlt(False, d, False, d, False)]
    if isinstance(value, str):
        return [StrAlt(literals=frozenset({value}))]
    if isinstance(value, list):
        return [
            ArrAlt(
                prefix=tuple(ctx.const_sub(v, f"{pointer}/{i}") for i, v in enumerate(value)),
                items=frozenset({ctx.false_node}),
                min_items=len(value),
                max_items=len(value),
            )
        ]
    if isinstance(value, dict):
        return [
            ObjAlt(
                props=tuple(
                    (k, ctx.const_sub(v, f"{pointer}/{escape_pointer(k)}"))
                    for k, v in value.items()
                ),
                rules=(ObjRule(additional=frozenset({ctx.false_node})),),
                required=frozenset(value),
            )
        ]
    raise SchemaError(f"not a JSON value: {value!r}", keyword="const", pointer=pointer)


def enum_alts(ctx: SchemaContext, node: Node, values: Any) -> list[Alt]:
    """The alternatives of an ``enum``: strings (most enums) go straight into one
    literal set, at the place of the first; other values get their alternatives."""
    if not isinstance(values, list):
        raise invalid(node, "enum", "enum must be an array")
    strings: set[str] = set()
    groups: list[list[Alt] | None] = []
    for i, v in enumerate(values):
        if isinstance(v, str):
            if not strings:
                groups.append(None)
            strings.add(v)
        else:
            groups.append(value_alts(ctx, v, ptr(node, "enum", i)))
    literal_set: list[Alt] = [StrAlt(literals=frozenset(strings))]
    return _merge_values(literal_set if g is None else g for g in groups)


def _merge_values(groups: Iterable[list[Alt]]) -> list[Alt]:
    """Union of the values' alternatives, in order of first appearance: plain
    string literals fold into one alternative, booleans into another (linear
    in the number of values)."""
    out: list[Alt] = []
    seen: set[Alt] = set()
    literals: set[str] = set()
    booleans: set[bool] = set()
    literal_at = boolean_at = -1
    for alts in groups:
        for alt in alts:
            if (
                isinstance(alt, StrAlt)
                and alt.literals is not None
                and alt == StrAlt(literals=alt.literals)
            ):
                if literal_at < 0:
                    literal_at = len(out)
                    out.append(alt)
                literals |= alt.literals
            elif isinstance(alt, BoolAlt):
                if boolean_at < 0:
                    boolean_at = len(out)
                    out.append(alt)
                booleans |= alt.values
            elif alt not in seen:
                seen.add(alt)
                out.append(alt)
    if literal_at >= 0:
        out[literal_at] = StrAlt(literals=frozenset(literals))
    if boolean_at >= 0:
        out[boolean_at] = BoolAlt(frozenset(booleans))
    return out


__all__ = ["enum_alts", "type_alts", "value_alts"]
