"""Direct parse with repair: any LLM-shaped JSON to a value (Phase 2 correction)."""

from __future__ import annotations

from typing import Any

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.repair import repair_json
from pgents.result import ParseResult
from pgents.stream import PartialPolicy, parse_partial_json

__all__ = ["JsonRepairParser"]


class JsonRepairParser(BaseParser[Any]):
    """JSON with repairs: 0.85 when the text is valid JSON, 0.6 after one
    repair, 0.4 after several. ``schema`` (JSON Schema) guides coercions.

    Streaming uses ``policy`` for unfinished strings (see :mod:`pgents.stream`)
    and falls back on repair (``stream_stable``: an open string is never cut
    back) for prefixes that are not JSON prefixes.
    """

    name = "json-repair"

    def __init__(
        self,
        schema: Any = None,
        *,
        schema_mode: str = "standard",
        policy: PartialPolicy = "trailing-strings",
    ) -> None:
        self.schema = schema
        self.schema_mode = schema_mode
        self.policy: PartialPolicy = policy

    def _parse(self, text: str, *, stream_stable: bool = False) -> ParseResult[Any]:
        out = repair_json(
            text, schema=self.schema, schema_mode=self.schema_mode, stream_stable=stream_stable
        )
        if not self.config.enable_repair and out.repairs:
            return ParseResult.fail("text needs repairs and enable_repair is off", self.name)
        if not out.found:
            return ParseResult.fail(out.error or "no JSON found", self.name, repairs=out.repairs)
        return ParseResult.ok(
            out.value,
            with_repairs(BASE["direct"], len(out.repairs)),
            self.name,
            repairs=out.repairs,
        )

    def _parse_prefix(self, text: str) -> ParseResult[Any]:
        partial = parse_partial_json(text, self.policy)
        if partial is not None:
            return ParseResult.ok(partial.value, BASE["stack-balancing"], self.name)
        return self._parse(text, stream_stable=True)
