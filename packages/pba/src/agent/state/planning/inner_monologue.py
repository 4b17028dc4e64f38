"""``InnerMonologue``: narrative self-reflection."""

from __future__ import annotations

from agent.state.planning import PlanningState

__all__ = ["InnerMonologue"]


class InnerMonologue(PlanningState):
    """A first-person narrative that explores the situation and its nuances."""

    def __init__(
        self, delimiters: tuple[str, str] | None = None, character_max: int | None = None
    ) -> None:
        super().__init__(
            identifier="inner_monologue",
            readable_name="Inner Monologue",
            delimiters=delimiters or ("```inner_monologue\n", "\n```"),
            color="dim magenta",
            emoji="💭",
            character_max=1500 if character_max is None else character_max,
        )

    @property
    def state_prompt(self) -> str:
        return (
            "Talk to yourself in the first person: how you understand the situation, "
            "what could go wrong, how the user might feel. " + self._fence_rule()
        )
