"""SequentialParser: parse, then transform/validate; confidences multiply."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from pgents.confidence import sequential
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["SequentialParser", "Stage"]

A = TypeVar("A")

Stage = Callable[[Any], ParseResult[Any]]
"""A step after parsing: value in, ParseResult out (e.g. validation)."""


class SequentialParser(BaseParser[A], Generic[A]):
    """``first`` then each stage on the previous value. The confidence is the
    product of all confidences (Law 3: sequential operations never raise
    confidence); repairs accumulate; the first failure stops the pipeline.
    """

    name = "sequential"

    def __init__(self, first: Parser[Any], *stages: Stage) -> None:
        self.first = first
        self.stages = stages

    def _parse(self, text: str) -> ParseResult[A]:
        result: ParseResult[Any] = self.first.parse(text)
        confidences = [result.confidence]
        repairs = list(result.repairs)
        for k, stage in enumerate(self.stages):
            if not result.success:
                break
            try:
                result = stage(result.value)
            except Exception as exc:  # noqa: BLE001 - user stage
                return ParseResult.fail(f"stage {k} failed: {exc}", self.name, repairs=repairs)
            confidences.append(result.confidence)
            repairs.extend(result.repairs)
        if not result.success:
            return ParseResult.fail(result.error or "stage failed", self.name, repairs=repairs)
        confidence = sequential(*confidences)
        value = cast(A, result.value)
        return ParseResult.ok(value, confidence, self.name, repairs=repairs)
