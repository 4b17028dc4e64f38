"""ParserConfig: the knobs every P-gent accepts through ``configure``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ParserConfig"]


@dataclass(frozen=True)
class ParserConfig:
    """Tuning, not design (spec: "Configuration tunes behavior").

    ``min_confidence`` is applied by the compositions (a Fallback moves on
    from results below it); single parsers report their honest confidence.
    ``max_input_chars`` bounds the work a parser accepts: longer input is a
    failed result, never an exception.
    """

    min_confidence: float = 0.5
    allow_partial: bool = True
    max_attempts: int = 1000
    enable_repair: bool = True
    timeout_ms: int = 5000
    stream_chunk_size: int = 128
    enable_reflection: bool = True
    max_reflection_retries: int = 3
    max_input_chars: int = 10_000_000

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ValueError("min_confidence must be in [0, 1]")
        for name in ("max_attempts", "timeout_ms", "stream_chunk_size", "max_input_chars"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.max_reflection_retries < 0:
            raise ValueError("max_reflection_retries must be >= 0")
