"""Anchor-based extraction (Phase 4.2): islands of stability in free text."""

from __future__ import annotations

from pgents.confidence import BASE
from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["AnchorBasedParser"]


class AnchorBasedParser(BaseParser[list[str]]):
    """``###ITEM: a\\n###ITEM: b`` to ``["a", "b"]``, ignoring the filler
    around the anchors. Confidence 0.7 (the base table; section 4.2 of the
    spec says 0.9, we follow the table). ``end_marker`` stops an item early.
    """

    name = "anchor"

    def __init__(self, anchor: str = "###ITEM:", *, end_marker: str | None = None) -> None:
        if not anchor:
            raise ValueError("anchor must be non-empty")
        self.anchor = anchor
        self.end_marker = end_marker

    def _parse(self, text: str) -> ParseResult[list[str]]:
        pieces = text.split(self.anchor)
        if len(pieces) < 2:
            return ParseResult.fail(f"no {self.anchor!r} anchor found", self.name)
        items = []
        for piece in pieces[1:]:
            if self.end_marker is not None and self.end_marker in piece:
                piece = piece.split(self.end_marker, 1)[0]
            item = piece.strip()
            if item:
                items.append(item)
        if not items:
            return ParseResult.fail("anchors found but every item is empty", self.name)
        return ParseResult.ok(
            items, BASE["anchor"], self.name, metadata={"anchors": len(pieces) - 1}
        )
