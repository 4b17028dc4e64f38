"""``Thinking``: deliberate reasoning about the task (System 2)."""

from __future__ import annotations

from agent.state.planning import PlanningState

__all__ = ["Thinking"]


class Thinking(PlanningState):
    """Deliberate analysis: what is asked, what is known, what to do next."""

    def __init__(
        self, delimiters: tuple[str, str] | None = None, character_max: int | None = None
    ) -> None:
        super().__init__(
            identifier="thinking",
            readable_name="Thinking",
            delimiters=delimiters or ("```thinking\n", "\n```"),
            color="dim cyan",
            emoji="🧠",
            character_max=1000 if character_max is None else character_max,
        )

    @property
    def state_prompt(self) -> str:
        return (
            "Reason step by step about the request: what the user wants, what you know, "
            "which tool (if any) gets you closer, and what you will do next. " + self._fence_rule()
        )
