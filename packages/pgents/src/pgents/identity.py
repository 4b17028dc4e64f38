"""IdentityParser: the identity morphism (text to itself, confidence 1)."""

from __future__ import annotations

from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["IdentityParser"]


class IdentityParser(BaseParser[str]):
    """Returns the text unchanged with confidence 1.0."""

    name = "identity"

    def _parse(self, text: str) -> ParseResult[str]:
        return ParseResult.ok(text, 1.0, self.name)
