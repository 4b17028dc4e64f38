"""SwitchParser: route the text to one parser by a condition."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["SwitchParser"]

A = TypeVar("A")

Condition = Callable[[str], bool]


Routes = Mapping[Condition, Parser[A]] | Sequence[tuple[Condition, Parser[A]]]


class SwitchParser(BaseParser[A], Generic[A]):
    """The first route whose condition holds parses the text (its result and
    confidence unchanged, plus ``metadata["route"]``, the route's index);
    otherwise ``default``. ``routes`` is the spec's mapping
    ``{condition: parser}`` (tried in insertion order) or a sequence of
    ``(condition, parser)`` pairs. A condition that raises counts as False.
    """

    name = "switch"

    def __init__(self, routes: Routes[A], default: Parser[A] | None = None) -> None:
        pairs = routes.items() if isinstance(routes, Mapping) else routes
        self.routes: list[tuple[Condition, Parser[A]]] = list(pairs)
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
