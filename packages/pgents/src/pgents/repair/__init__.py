"""Tokenizer-free JSON repair: :func:`repair_json` and its :class:`RepairOutcome`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pgents.repair.fences import fenced_blocks
from pgents.repair.scanner import Scanner, TooDeep
from pgents.repair.schema import coerce

__all__ = ["RepairOutcome", "fenced_blocks", "repair_json"]


@dataclass
class RepairOutcome:
    """What :func:`repair_json` found.

    ``found`` is False when the text holds no JSON value at all (or only
    ``null``); ``repairs`` lists every change, each with its text offset.
    """

    found: bool
    value: Any = None
    repairs: list[str] = field(default_factory=list)
    error: str | None = None


def _same_shape(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_shape(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return not a or not b or _same_shape(a[0], b[0])
    return type(a) is type(b)


def _combine(values: list[Any], repairs: list[str]) -> list[Any]:
    """Several top-level values: drop empty ones, let a re-emitted array of the
    same shape replace its predecessor (a model "updating" its answer)."""
    kept: list[Any] = []
    for v in values:
        if v == {} or v == []:
            if len(values) > 1:
                repairs.append("dropped an empty extra value")
            continue
        if kept and isinstance(v, list) and isinstance(kept[-1], list) and _same_shape(kept[-1], v):
            repairs.append("replaced an array by its re-emitted update")
            kept[-1] = v
            continue
        kept.append(v)
    return kept or values[:1]


def repair_json(
    text: str,
    *,
    schema: Any = None,
    schema_mode: str = "standard",
    stream_stable: bool = False,
    max_chars: int | None = None,
) -> RepairOutcome:
    """Parse ``text`` as JSON, repairing what LLMs typically get wrong.

    Never raises on any ``str`` input. Valid JSON is returned untouched with no
    repairs (``json.loads`` fast path). ``schema`` (a JSON Schema dict) guides
    coercions; ``schema_mode="salvage"`` also re-reads strings as arrays.
    """
    obj: object = text
    if not isinstance(obj, str):
        return RepairOutcome(False, error=f"expected str, got {type(obj).__name__}")
    if max_chars is not None and len(text) > max_chars:
        return RepairOutcome(False, error=f"input of {len(text)} chars exceeds {max_chars}")
    repairs: list[str] = []
    try:
        value = json.loads(text, parse_constant=_not_json, parse_float=_finite_float)
        found = True
    except (ValueError, RecursionError):
        found = False
    if not found:
        try:
            values = _scan(text, repairs, stream_stable)
        except (TooDeep, RecursionError):
            return RepairOutcome(False, error="nesting too deep", repairs=repairs)
        if not values:
            return RepairOutcome(False, error="no JSON value found", repairs=repairs)
        kept = _combine(values, repairs)
        if len(kept) > 1:
            repairs.append(f"collected {len(kept)} top-level values into an array")
        value = kept[0] if len(kept) == 1 else kept
    if schema is not None:
        value = coerce(
            value, schema, repairs, mode=schema_mode, reparse=lambda s: _reparse(s, stream_stable)
        )
    if value is None:
        return RepairOutcome(False, error="the document is null", repairs=repairs)
    return RepairOutcome(True, value, repairs)


def _not_json(word: str) -> Any:
    """``NaN`` and ``Infinity`` are Python's extensions, not JSON: leave them to the scanner."""
    raise ValueError(f"{word} is not JSON")


def _finite_float(word: str) -> float:
    value = float(word)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{word} overflows a double")
    return value


def _reparse(text: str, stream_stable: bool) -> Any:
    values = _scan(text, [], stream_stable)
    return values[0] if len(values) == 1 else None


def _unescaped_document(text: str) -> str | None:
    """The document inside ``text`` when ``text`` is a JSON document escaped as
    a string body (``{\\"a\\": 1}``, ``{\\n  \\"a\\"...``), else None."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")) or '\\"' not in stripped:
        return None
    try:
        decoded = json.loads('"' + stripped + '"')
    except ValueError:
        # cut off or partly escaped: undo the escaped quotes only
        return text.replace('\\"', '"') if stripped.startswith(('{\\"', '[\\"')) else None
    return decoded if isinstance(decoded, str) else None


def _scan(text: str, repairs: list[str], stream_stable: bool) -> list[Any]:
    unescaped = _unescaped_document(text)
    if unescaped is not None:
        repairs.append("unescaped an escaped document")
        text = unescaped
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        blocks = fenced_blocks(text)
        if blocks:
            repairs.append(f"extracted {len(blocks)} fenced block(s)")
            values: list[Any] = []
            for block in blocks:
                scanner = Scanner(block, stream_stable=stream_stable)
                values.extend(scanner.parse_top())
                repairs.extend(scanner.repairs)
            return values
    scanner = Scanner(text, stream_stable=stream_stable)
    values = scanner.parse_top()
    repairs.extend(scanner.repairs)
    return values
