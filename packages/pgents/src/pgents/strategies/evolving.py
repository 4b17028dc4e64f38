"""Schema evolution (Phase 4.4): track format drift, try what has worked best."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Generic, TypeVar

from pgents.budget import Budget
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["EvolvingParser", "detect_format"]

A = TypeVar("A")


def detect_format(text: str) -> str:
    """A coarse label for the shape of ``text`` (for drift tracking)."""
    stripped = text.lstrip()
    if "```" in text:
        return "fenced"
    if stripped.startswith(("{", "[")):
        return "json"
    if stripped.startswith("<"):
        return "xml"
    if re.search(r"^###\w+:", text, re.MULTILINE):
        return "anchored"
    if re.search(r"^\s*[\w-]+\s*:\s*\S", text, re.MULTILINE):
        return "key-value"
    return "prose"


class EvolvingParser(BaseParser[A], Generic[A]):
    """Tries its ``strategies`` ordered by historical success rate (ties keep
    the given order) and counts formats in ``observed_formats``.

    State is per instance: a long-running system keeps one and it adapts.
    """

    name = "evolving"

    def __init__(self, strategies: dict[str, Parser[A]]) -> None:
        if not strategies:
            raise ValueError("needs at least one strategy")
        self.strategies = dict(strategies)
        self.observed_formats: Counter[str] = Counter()
        self.successes: Counter[str] = Counter()
        self.attempts: Counter[str] = Counter()

    def success_rate(self, name: str) -> float:
        """Laplace-smoothed success rate of strategy ``name``."""
        return (self.successes[name] + 1) / (self.attempts[name] + 2)

    def ranking(self) -> list[str]:
        order = list(self.strategies)
        return sorted(order, key=lambda n: (-self.success_rate(n), order.index(n)))

    def _parse(self, text: str) -> ParseResult[A]:
        fmt = detect_format(text)
        self.observed_formats[fmt] += 1
        errors = []
        budget = Budget(self.config)
        for name in self.ranking():
            stop = budget.take()
            if stop is not None:
                errors.append(stop)
                break
            self.attempts[name] += 1
            result = self.strategies[name].parse(text)
            if result.success:
                self.successes[name] += 1
                meta: dict[str, Any] = {**result.metadata, "format": fmt, "chosen": name}
                return result.replace(metadata=meta)
            errors.append(f"{name}: {result.error}")
        return ParseResult.fail("; ".join(errors), self.name, metadata={"format": fmt})
