"""The attempt and time budget of one parse (``max_attempts``, ``timeout_ms``).

Parsers that loop (compositions trying strategies, reflection retrying,
evolving parsers) ask their :class:`Budget` before each further attempt. A
running attempt is never interrupted: the budget decides whether another one
may start.
"""

from __future__ import annotations

import time

from pgents.config import ParserConfig

__all__ = ["Budget"]


class Budget:
    """Counts attempts and elapsed time from its creation against ``config``."""

    __slots__ = ("attempts", "config", "start")

    def __init__(self, config: ParserConfig) -> None:
        self.config = config
        self.start = time.perf_counter()
        self.attempts = 0

    def exhausted(self) -> str | None:
        """Why no further attempt may start, or None when one may."""
        if self.attempts >= self.config.max_attempts:
            return f"max_attempts ({self.config.max_attempts}) reached"
        elapsed_ms = (time.perf_counter() - self.start) * 1000
        if elapsed_ms > self.config.timeout_ms:
            return f"timed out after {elapsed_ms:.0f} ms (timeout_ms={self.config.timeout_ms})"
        return None

    def take(self) -> str | None:
        """Start an attempt if the budget allows (None), else say why not."""
        reason = self.exhausted()
        if reason is None:
            self.attempts += 1
        return reason
