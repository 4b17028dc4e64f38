"""Reflection loop (Phase 3.1): feed the error back to a fixer (an LLM) and retry."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from pgents.budget import Budget
from pgents.confidence import reflection_confidence, sequential
from pgents.protocol import BaseParser, Parser
from pgents.result import ParseResult

__all__ = ["FixFunction", "ReflectionParser"]

A = TypeVar("A")

FixFunction = Callable[[str, str, dict[str, Any]], str]
"""``llm_fix_fn(text, error, context) -> new text`` (e.g. a call to an LLM).

``context`` holds the caller's ``context`` entries plus ``attempt`` (0 for
the first fix) and ``history`` (the errors so far), as in the spec's loop
``text = llm_fix(text, result.error, context)``.
"""


class ReflectionParser(BaseParser[A], Generic[A]):
    """Parse with ``base_parser``; on failure ask ``llm_fix_fn`` for a corrected
    text, up to ``config.max_reflection_retries`` times (none when
    ``config.enable_reflection`` is off; ``config.max_attempts`` and
    ``config.timeout_ms`` also bound the loop). Not a blind retry: the fixer
    sees the error. Confidence: the base result's times 0.9 / 0.7 / 0.5 / 0.4
    for 0 / 1 / 2 / 3+ retries. A fixer that raises ends the loop with a
    failure.
    """

    name = "reflection"

    def __init__(
        self,
        base_parser: Parser[A],
        llm_fix_fn: FixFunction,
        *,
        context: Mapping[str, Any] | None = None,
    ) -> None:
        self.base_parser = base_parser
        self.llm_fix_fn = llm_fix_fn
        self.context = dict(context or {})

    def _parse(self, text: str) -> ParseResult[A]:
        history: list[dict[str, Any]] = []
        retries = self.config.max_reflection_retries if self.config.enable_reflection else 0
        budget = Budget(self.config)
        budget.take()
        result = self.base_parser.parse(text)
        for attempt in range(retries + 1):
            if result.success:
                return result.replace(
                    confidence=sequential(result.confidence, reflection_confidence(attempt)),
                    strategy=f"{self.name}({result.strategy})",
                    metadata={**result.metadata, "retries": attempt, "history": history},
                )
            if attempt == retries:
                break
            stop = budget.take()
            if stop is not None:
                return ParseResult.fail(
                    f"{stop}: {result.error}", self.name, metadata={"history": history}
                )
            error = result.error or "unknown error"
            history.append({"attempt": attempt, "error": error})
            context = {**self.context, "attempt": attempt, "history": list(history)}
            try:
                text = self.llm_fix_fn(text, error, context)
            except Exception as exc:  # noqa: BLE001 - the fixer is user code
                return ParseResult.fail(f"fix function failed: {exc}", self.name)
            result = self.base_parser.parse(text)
        return ParseResult.fail(
            f"still failing after {retries} retries: {result.error}",
            self.name,
            metadata={"history": history},
        )
