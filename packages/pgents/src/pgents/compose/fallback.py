"""FallbackParser: try strategies in order, first acceptable success wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from pgents.budget import Budget
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["FallbackParser", "position_factor"]

A = TypeVar("A")


def position_factor(index: int) -> float:
    """The spec's discount for the ``index``-th strategy: max(0.5, 1 - 0.1 i)."""
    return max(0.5, 1.0 - 0.1 * index)


class FallbackParser(BaseParser[A], Generic[A]):
    """Chain of responsibility. The i-th strategy's confidence is multiplied by
    ``max(0.5, 1 - 0.1 i)``. A success below ``config.min_confidence`` does not
    stop the chain; if no success reaches it, the most confident success is
    returned (``metadata["below_min_confidence"] = True``); if none succeeds,
    a failure listing every error. ``config.max_attempts`` and
    ``config.timeout_ms`` bound how many strategies are tried.
    """

    name = "fallback"

    def __init__(self, *strategies: Parser[A]) -> None:
        if not strategies:
            raise ValueError("FallbackParser needs at least one strategy")
        self.strategies: Sequence[Parser[A]] = strategies

    def _parse(self, text: str) -> ParseResult[A]:
        errors: list[str] = []
        best: ParseResult[A] | None = None
        budget = Budget(self.config)
        for i, strategy in enumerate(self.strategies):
            stop = budget.take()
            if stop is not None:
                errors.append(stop)
                break
            result = strategy.parse(text)
            if not result.success:
                errors.append(f"{result.strategy or i}: {result.error}")
                continue
            meta: dict[str, Any] = {**result.metadata, "fallback_index": i}
            scored = result.replace(
                confidence=result.confidence * position_factor(i), metadata=meta
            )
            if scored.confidence >= self.config.min_confidence:
                return scored
            if best is None or scored.confidence > best.confidence:
                best = scored
        if best is not None:
            return best.replace(metadata={**best.metadata, "below_min_confidence": True})
        return ParseResult.fail("all strategies failed: " + "; ".join(errors), self.name)
