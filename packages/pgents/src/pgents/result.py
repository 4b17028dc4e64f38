"""ParseResult[A]: what every P-gent returns, with its invariants enforced."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["A", "B", "InvariantError", "ParseResult"]

A = TypeVar("A")
B = TypeVar("B")


class InvariantError(ValueError):
    """A ParseResult was built that breaks one of the spec's invariants."""


@dataclass(frozen=True)
class ParseResult(Generic[A]):
    """A graduated parse outcome.

    Invariants (checked on construction, so no parser can return a broken one):

    * ``success`` implies ``value is not None`` and ``confidence > 0``;
    * not ``success`` implies ``error is not None``;
    * ``partial`` implies ``confidence < 1``;
    * non-empty ``repairs`` imply a confidence penalty (``confidence < 1``);
    * ``0 <= confidence <= 1``.

    Results are frozen; derive new ones with :meth:`replace`.
    """

    success: bool
    value: A | None = None
    strategy: str | None = None
    confidence: float = 0.0
    error: str | None = None
    partial: bool = False
    repairs: list[str] = field(default_factory=list)
    stream_position: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        c = self.confidence
        if not 0.0 <= c <= 1.0:
            raise InvariantError(f"confidence {c} is outside [0, 1]")
        if self.success:
            if self.value is None:
                raise InvariantError("a successful result needs a value")
            if c <= 0.0:
                raise InvariantError("a successful result needs confidence > 0")
        elif self.error is None:
            raise InvariantError("a failed result needs an error")
        if self.partial and c >= 1.0:
            raise InvariantError("a partial result needs confidence < 1")
        if self.repairs and c >= 1.0:
            raise InvariantError("repairs must lower confidence below 1")

    @classmethod
    def ok(
        cls,
        value: A,
        confidence: float,
        strategy: str | None = None,
        *,
        repairs: list[str] | None = None,
        partial: bool = False,
        stream_position: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> ParseResult[A]:
        """A success (a ``None`` value becomes a failure rather than an error)."""
        if value is None:
            return cls.fail("parsed to no value", strategy, partial=partial)
        return cls(
            True,
            value,
            strategy,
            max(min(confidence, 1.0), 1e-9),
            None,
            partial,
            list(repairs or []),
            stream_position,
            dict(metadata or {}),
        )

    @classmethod
    def fail(
        cls,
        error: str,
        strategy: str | None = None,
        *,
        repairs: list[str] | None = None,
        partial: bool = False,
        stream_position: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> ParseResult[A]:
        """A failure with ``error``."""
        return cls(
            False,
            None,
            strategy,
            0.0,
            error,
            partial,
            list(repairs or []),
            stream_position,
            dict(metadata or {}),
        )

    def replace(self, **changes: Any) -> ParseResult[A]:
        """A copy with ``changes`` applied (and the invariants re-checked)."""
        return dataclasses.replace(self, **changes)

    def as_partial(self, position: int) -> ParseResult[A]:
        """This result, marked as the parse of a stream prefix ending at ``position``."""
        return self.replace(
            partial=True,
            stream_position=position,
            confidence=min(self.confidence, 0.99) if self.success else 0.0,
        )
