"""Planning states: free text fenced by each state's delimiters.

:class:`PlanningState` holds what the three documented states share (a
``FencedFreeformStateMachine`` of ``char_min..character_max`` characters);
:class:`~agent.state.planning.thinking.Thinking`,
:class:`~agent.state.planning.scratchpad.Scratchpad` and
:class:`~agent.state.planning.inner_monologue.InnerMonologue` give the names,
delimiters, colours and prompts.
"""

from __future__ import annotations

from pse_core.state_machine import StateMachine

from agent.state import AgentState
from pse.types.misc.fenced_freeform import FencedFreeformStateMachine

__all__ = ["PlanningState"]


class PlanningState(AgentState):
    """Free text between ``delimiters``, ``char_min`` to ``character_max`` characters."""

    char_min = 1

    def __init__(
        self,
        identifier: str,
        readable_name: str,
        delimiters: tuple[str, str],
        color: str,
        emoji: str,
        character_max: int,
    ) -> None:
        super().__init__(identifier, readable_name, delimiters, color, emoji)
        if character_max < self.char_min:
            raise ValueError(
                f"{readable_name}: character_max must be at least {self.char_min}, "
                f"got {character_max}"
            )
        self.character_max = character_max

    @property
    def state_machine(self) -> StateMachine:
        machine = FencedFreeformStateMachine(
            self.identifier,
            self.delimiters,
            char_min=self.char_min,
            char_max=self.character_max,
        )
        machine.identifier = self.identifier
        return machine

    def _fence_rule(self) -> str:
        return (
            f"Write it between {self.delimiters[0]!r} and {self.delimiters[1]!r}, "
            f"at most {self.character_max} characters."
        )
