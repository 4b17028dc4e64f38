"""``Step``: one generated step of the agent and what came of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.system.interaction import Interaction
    from agent.tools import ToolCall

__all__ = ["Step"]


@dataclass
class Step:
    """The raw text of a step, its segments and its results.

    Attributes:
        raw: the generated text, exactly as decoded.
        segments: ``(state identifier, value)`` per block, in order (planning
            blocks give their text, a tool call its parsed JSON).
        complete: whether the engine reached the end of the agent's state machine.
        tool_call: the step's tool call, parsed, if it made one.
        results: what the action produced (tool results, errors).
        token_ids: the generated token ids (the end-of-sequence token included).
        seconds: generation time.
    """

    raw: str
    segments: list[tuple[str, Any]]
    complete: bool
    tool_call: ToolCall | None = None
    results: list[Interaction] = field(default_factory=list)
    token_ids: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def identifiers(self) -> list[str]:
        """The state identifiers of the segments, in order."""
        return [identifier for identifier, _ in self.segments]
