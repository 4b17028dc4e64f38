"""``AgentStateMachine``: plan (a loop of planning states), then take one action.

The graph, as documented::

    "plan"        --Loop(Any(planning states), min=int(force_planning),
                         max=max_planning_loops)-->             "take_action"
    "take_action" --one action state (tool call, Python)-->     "done"

Blocks are separated by whitespace: between planning blocks (the loop's
separator) and after the planning loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pse_core.state_machine import StateMachine

from agent.state import AgentState
from agent.state.action.python import Python
from agent.state.action.tool_call import ToolCallState
from agent.state.planning.inner_monologue import InnerMonologue
from agent.state.planning.scratchpad import Scratchpad
from agent.state.planning.thinking import Thinking
from pse.types.base.any import AnyStateMachine
from pse.types.base.chain import ChainStateMachine
from pse.types.base.loop import LoopStateMachine
from pse.types.whitespace import WhitespaceStateMachine

if TYPE_CHECKING:
    from pse_core._core import StateGraph

    from agent.tools import Tool

__all__ = ["AgentStateMachine"]


class AgentStateMachine(StateMachine):
    """The agent's plan -> act graph; ``states`` maps identifiers to their ``AgentState``.

    Args:
        tools: the tools the ``tool_call`` state may call (none: no tool call).
        use_python: add the ``python`` action state (needs PSE's Python grammar).
        force_planning: at least one planning block before the action.
        max_planning_loops: at most this many planning blocks.
        delimiters_kwargs: delimiters by state identifier, overriding the defaults.
        character_max: the character limit of each planning block.
    """

    def __init__(
        self,
        tools: Sequence[Tool] | None = None,
        use_python: bool = False,
        force_planning: bool = True,
        max_planning_loops: int = 3,
        delimiters_kwargs: dict[str, tuple[str, str]] | None = None,
        character_max: int | None = None,
    ) -> None:
        if max_planning_loops < int(force_planning):
            raise ValueError(
                f"max_planning_loops={max_planning_loops} leaves no room for the planning "
                "that force_planning=True requires"
            )
        delimiters = delimiters_kwargs or {}
        self.states: dict[str, AgentState] = {}
        planning = self._add(
            Thinking(delimiters.get("thinking"), character_max),
            Scratchpad(delimiters.get("scratchpad"), character_max),
            InnerMonologue(delimiters.get("inner_monologue"), character_max),
        )
        actions: list[AgentState] = []
        if tools:
            actions.append(ToolCallState(list(tools), delimiters.get("tool_call")))
        if use_python:
            actions.append(Python(delimiters.get("python")))
        if not actions:
            raise ValueError("the agent needs an action: give it a tool or enable Python")
        self._add(*actions)
        self.planning_states = planning
        self.action_states = actions

        plan_loop = LoopStateMachine(
            AnyStateMachine([state.state_machine for state in planning]),
            min_loop_count=int(force_planning),
            max_loop_count=max_planning_loops,
            whitespace_separator=True,
        )
        state_graph: StateGraph = {
            "plan": [(ChainStateMachine([plan_loop, WhitespaceStateMachine()]), "take_action")],
            "take_action": [(state.state_machine, "done") for state in actions],
        }
        super().__init__(state_graph=state_graph, start_state="plan", end_states=["done"])

    def _add(self, *states: AgentState) -> list[AgentState]:
        for state in states:
            if state.identifier in self.states:
                raise ValueError(f"two states share the identifier {state.identifier!r}")
            self.states[state.identifier] = state
        return list(states)

    @property
    def prompt(self) -> str:
        """The states' prompts, for the system prompt: planning first, then actions."""
        planning = "\n".join(f"- {state}" for state in self.planning_states)
        actions = "\n".join(f"- {state}" for state in self.action_states)
        return f"Planning states:\n{planning}\n\nAction states:\n{actions}"

    def __repr__(self) -> str:
        return f"AgentStateMachine(states={list(self.states)})"
