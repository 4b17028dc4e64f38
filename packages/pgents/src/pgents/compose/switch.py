"""SwitchParser: route the text to one parser by a condition."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["SwitchParser"]

A = TypeVar("A")

Condition = Callable[[str], bool]


class SwitchParser(BaseParser[A], Generic[A]):
    """The first route whose condition holds parses the text (its result and
    confidence unchanged, plus ``metadata["route"]``); otherwise ``default``.
    A condition that raises counts as False.
    """

    name = "switch"

    def __init__(
        self, routes: Sequence[tuple[Condition, Parser[A]]], default: Parser[A] | None = None
    ) -> None:
        self.routes = list(routes)
        self.default = default

    def _parse(self, text: str) -> ParseResult[A]:
        for i, (condition, parser) in enumerate(self.routes):
            try:
                hit = bool(condition(text))
            except Exception:  # noqa: BLE001 - user condition
                hit = False
            if hit:
                result = parser.parse(text)
                return result.replace(metadata={**result.metadata, "route": i})
        if self.default is not None:
            result = self.default.parse(text)
            return result.replace(metadata={**result.metadata, "route": "default"})
        return ParseResult.fail("no route matched", self.name)
