"""Fill-in-the-middle sandwich (Phase 1.2): the structure is fixed, the model fills a hole."""

from __future__ import annotations

import json
from typing import Any

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["FIMParser"]


def _inside_string(prefix: str) -> bool:
    """Does ``prefix`` end inside a JSON string?"""
    inside = False
    escaped = False
    for ch in prefix:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = inside
        elif ch == '"':
            inside = not inside
    return inside


class FIMParser(BaseParser[Any]):
    """Parses ``prefix + middle + suffix`` where the model wrote ``middle``.

    Typical model slips are repaired (and recorded): echoing the prefix or
    suffix, and, when the hole is inside a string, raw quotes, backslashes and
    newlines. Confidence 0.95 without repairs.
    """

    name = "fim"

    def __init__(self, prefix: str, suffix: str) -> None:
        self.prefix = prefix
        self.suffix = suffix
        self.in_string = _inside_string(prefix)

    def _parse(self, middle: str) -> ParseResult[Any]:
        repairs: list[str] = []
        if self.prefix and middle.startswith(self.prefix):
            middle = middle[len(self.prefix) :]
            repairs.append("removed an echoed prefix")
        for k in range(min(len(middle), len(self.suffix)), 0, -1):
            if middle.endswith(self.suffix[:k]) and (k == len(self.suffix) or k > 1):
                middle = middle[:-k]
                repairs.append("removed an echoed suffix")
                break
        if self.in_string:
            escaped = json.dumps(middle)[1:-1]
            if escaped != middle and not _valid(self.prefix + middle + self.suffix):
                middle = escaped
                repairs.append("escaped the filled string")
        full = self.prefix + middle + self.suffix
        try:
            value = json.loads(full)
        except ValueError as exc:
            return ParseResult.fail(
                f"sandwich is not valid JSON: {exc}", self.name, repairs=repairs
            )
        return ParseResult.ok(
            value,
            with_repairs(BASE["fim"], len(repairs)),
            self.name,
            repairs=repairs,
            metadata={"middle": middle},
        )


def _valid(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
