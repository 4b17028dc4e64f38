"""FusionParser: run parsers in parallel and merge what they agree on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from pgents.budget import Budget
from pgents.confidence import parallel
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["FusionParser", "merge_values"]

A = TypeVar("A")


def merge_values(values: list[Any]) -> Any:
    """Default merge: dicts merge key by key (recursively, first parser wins a
    conflict unless a majority disagrees); otherwise the most common value."""
    if all(isinstance(v, dict) for v in values):
        keys: list[str] = []
        for v in values:
            keys.extend(k for k in v if k not in keys)
        return {k: merge_values([v[k] for v in values if k in v]) for k in keys}
    counts = Counter(repr(v) for v in values)
    top = max(counts.values())
    return next(v for v in values if counts[repr(v)] == top)


class FusionParser(BaseParser[A], Generic[A]):
    """Parses with every parser and merges the successful values with
    ``merge`` (default :func:`merge_values`). Confidence is the average of the
    successful results' confidences (the parallel rule); repairs are pooled.
    ``config.max_attempts`` and ``config.timeout_ms`` bound how many parsers run.
    """

    name = "fusion"

    def __init__(
        self, *parsers: Parser[A], merge: Callable[[list[Any]], Any] = merge_values
    ) -> None:
        if not parsers:
            raise ValueError("FusionParser needs at least one parser")
        self.parsers: Sequence[Parser[A]] = parsers
        self.merge = merge

    def _parse(self, text: str) -> ParseResult[A]:
        budget = Budget(self.config)
        results: list[ParseResult[A]] = []
        for parser in self.parsers:
            stop = budget.take()
            if stop is not None:
                results.append(ParseResult.fail(stop, self.name))
                break
            results.append(parser.parse(text))
        good = [r for r in results if r.success]
        if not good:
            return ParseResult.fail(
                "no parser succeeded: " + "; ".join(str(r.error) for r in results), self.name
            )
        try:
            merged = self.merge([r.value for r in good])
        except Exception as exc:  # noqa: BLE001 - user merge function
            return ParseResult.fail(f"merge failed: {exc}", self.name)
        repairs = [rep for r in good for rep in r.repairs]
        confidence = parallel(r.confidence for r in good)
        if repairs and confidence >= 1.0:
            confidence = 0.99
        return ParseResult.ok(
            merged,
            confidence,
            self.name,
            repairs=repairs,
            metadata={"fused": [r.strategy for r in good], "failed": len(results) - len(good)},
        )
