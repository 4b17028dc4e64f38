"""``Scratchpad``: quick notes and working memory."""

from __future__ import annotations

from agent.state.planning import PlanningState

__all__ = ["Scratchpad"]


class Scratchpad(PlanningState):
    """Short notes: facts to keep, numbers to work out, a list of steps."""

    def __init__(
        self, delimiters: tuple[str, str] | None = None, character_max: int | None = None
    ) -> None:
        super().__init__(
            identifier="scratchpad",
            readable_name="Scratchpad",
            delimiters=delimiters or ("```scratchpad\n", "\n```"),
            color="dim white",
            emoji="📝",
            character_max=500 if character_max is None else character_max,
        )

    @property
    def state_prompt(self) -> str:
        return (
            "Jot down brief notes: facts from the conversation, intermediate results, "
            "the steps you plan. " + self._fence_rule()
        )
