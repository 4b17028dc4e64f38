"""Reflection loop (Phase 3.1): feed the error back to a fixer (an LLM) and retry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from pgents.confidence import reflection_confidence, sequential
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["FixFunction", "ReflectionParser"]

A = TypeVar("A")

FixFunction = Callable[[str, str, int], str]
"""``fix(text, error, attempt) -> new text`` (e.g. a call to an LLM)."""


class ReflectionParser(BaseParser[A], Generic[A]):
    """Parse with ``base``; on failure ask ``fix`` for a corrected text, up to
    ``config.max_reflection_retries`` times (not a blind retry: the fixer sees
    the error). Confidence: the base result's times 0.9 / 0.7 / 0.5 / 0.4 for
    0 / 1 / 2 / 3+ retries. A fixer that raises ends the loop with a failure.
    """

    name = "reflection"

    def __init__(self, base: Parser[A], fix: FixFunction) -> None:
        self.base = base
        self.fix = fix

    def _parse(self, text: str) -> ParseResult[A]:
        history: list[dict[str, Any]] = []
        retries = self.config.max_reflection_retries if self.config.enable_reflection else 0
        result = self.base.parse(text)
        for attempt in range(retries + 1):
            if result.success:
                return result.replace(
                    confidence=sequential(result.confidence, reflection_confidence(attempt)),
                    strategy=f"{self.name}({result.strategy})",
                    metadata={**result.metadata, "retries": attempt, "history": history},
                )
            if attempt == retries:
                break
            error = result.error or "unknown error"
            history.append({"attempt": attempt, "error": error})
            try:
                text = self.fix(text, error, attempt)
            except Exception as exc:  # noqa: BLE001 - the fixer is user code
                return ParseResult.fail(f"fix function failed: {exc}", self.name)
            result = self.base.parse(text)
        return ParseResult.fail(
            f"still failing after {retries} retries: {result.error}",
            self.name,
            metadata={"history": history},
        )
