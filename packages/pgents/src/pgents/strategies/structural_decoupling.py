"""Structural decoupling (Phase 2.2, Jsonformer): the parser writes the
structure, the model only fills the values."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["FillFunction", "StructuralDecouplingParser"]

FillFunction = Callable[[str, str], str]
"""``fill(prompt, field) -> generated text`` (the model continues ``prompt``)."""

_INT: Final = re.compile(r"-?\d+")
_FLOAT: Final = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


class StructuralDecouplingParser(BaseParser[dict[str, Any]]):
    """Builds ``{"field": value, ...}`` for ``fields`` (name to ``str``, ``int``,
    ``float`` or ``bool``). For each field the parser writes ``"field": `` (and
    the opening quote of a string) after the context text, calls ``fill`` and
    keeps only a value of the right type from what comes back: a string is
    cut at its first unescaped quote, a number is the first number.

    The output always has the schema's shape; a field whose generation holds
    no usable value fails the parse. Confidence 0.95 (the structure is the
    parser's), 0.9 if a value needed trimming.
    """

    name = "structural-decoupling"

    def __init__(self, fields: dict[str, type], fill: FillFunction) -> None:
        for t in fields.values():
            if t not in (str, int, float, bool):
                raise TypeError(f"unsupported field type {t!r}")
        self.fields = fields
        self.fill = fill

    def _parse(self, text: str) -> ParseResult[dict[str, Any]]:
        out: dict[str, Any] = {}
        repairs: list[str] = []
        trimmed = False
        for i, (key, typ) in enumerate(self.fields.items()):
            so_far = json.dumps(out)[:-1] if out else "{"
            sep = ", " if i else ""
            prompt = f"{text}{so_far}{sep}{json.dumps(key)}: " + ('"' if typ is str else "")
            try:
                raw = self.fill(prompt, key)
            except Exception as exc:  # noqa: BLE001 - the filler is user code
                return ParseResult.fail(f"fill failed for {key!r}: {exc}", self.name)
            value, cut = _extract(str(raw), typ)
            if value is None:
                return ParseResult.fail(f"no {typ.__name__} for {key!r} in {raw!r}", self.name)
            trimmed = trimmed or cut
            out[key] = value
        if trimmed:
            repairs.append("trimmed generated text to the field's value")
        return ParseResult.ok(out, 0.9 if trimmed else 0.95, self.name, repairs=repairs)


def _extract(raw: str, typ: type) -> tuple[Any, bool]:
    if typ is str:
        m = re.match(r'((?:[^"\\]|\\.)*)', raw)
        body = m.group(1) if m else raw
        try:
            value = json.loads('"' + body + '"')
        except ValueError:
            value = body
        return value, body != raw
    if typ is bool:
        m = re.match(r"\s*(true|false)", raw, re.IGNORECASE)
        return (m.group(1).lower() == "true", m.end() != len(raw)) if m else (None, False)
    pattern = _INT if typ is int else _FLOAT
    m = pattern.search(raw)
    if m is None:
        return None, False
    number = int(m.group()) if typ is int else float(m.group())
    return number, m.group() != raw.strip()
