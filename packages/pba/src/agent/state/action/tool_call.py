"""``ToolCallState``: a JSON tool call that matches one available tool's schema."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pse_core.state_machine import StateMachine

from agent.state import AgentState
from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.json.schema_machine import schema_to_state_machine

if TYPE_CHECKING:
    from agent.tools import Tool

__all__ = ["ToolCallState"]


class ToolCallState(AgentState):
    """A tool call: ``{"intention": ..., "name": ..., "arguments": {...}}`` between
    the delimiters, where ``name`` and ``arguments`` match one tool's schema
    (``Tool.to_dict()``). The machine is built from the tools given; a new
    ``ToolCallState`` (the agent reconfigures) follows a changed tool set.
    """

    def __init__(
        self,
        tools: Sequence[Tool],
        delimiters: tuple[str, str] | None = None,
    ) -> None:
        if not tools:
            raise ValueError("ToolCallState needs at least one tool")
        super().__init__(
            identifier="tool_call",
            readable_name="External Tool Use",
            delimiters=delimiters or ("```json\n", "\n```"),
            color="dim yellow",
            emoji="🔧",
        )
        self.tools = list(tools)

    @property
    def state_machine(self) -> StateMachine:
        schemas = [tool.to_dict() for tool in self.tools]
        machine = EncapsulatedStateMachine(
            schema_to_state_machine(schemas),
            delimiters=self.delimiters,
            identifier=self.identifier,
        )
        machine.identifier = self.identifier
        return machine

    @property
    def state_prompt(self) -> str:
        listing = "\n".join(
            f"- {tool.name}: {json.dumps(tool.to_dict(), ensure_ascii=False)}"
            for tool in self.tools
        )
        return (
            "Call exactly one tool with a JSON object between "
            f"{self.delimiters[0]!r} and {self.delimiters[1]!r}: "
            '{"intention": "why you call it", "name": "the tool", "arguments": {...}}. '
            "The arguments must match the tool's schema. Available tools:\n" + listing
        )
