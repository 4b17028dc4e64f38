"""The real Agent connecting to an MCP server at run time: tools, prompt and engine follow.

Uses the real SmolLM2 model and engine (``inference`` from tests/pba/conftest.py)
and the SDK test server; nothing is generated: the tool calls are given, and
the reconfigured ``tool_call`` state is checked to accept the new tool's
calls and to refuse malformed ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agent.mcp import MCPHost
from agent.tools import ToolCall
from pba.mcp.mcp_support import run, server_list
from pse_core._core import StateMachine

pytestmark = pytest.mark.model


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(not s.remaining_input and s.has_reached_accept_state() for s in steppers)


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(intention=f"use {name}", name=name, arguments=arguments)


def test_add_mcp_server_reconfigures_the_agent(
    inference: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.agent import Agent
    from agent.interface.cli_interface import ScriptedInterface
    from agent.state.action.tool_call import ToolCallState

    monkeypatch.setenv("PBA_PASSED", "passed-value")
    agent = Agent("Tester", "base", ScriptedInterface([]), inference, include_pause_button=False)
    agent.mcp_host = MCPHost(server_list(tmp_path), startup_timeout=20, call_timeout=3)
    before = agent.state_machine
    assert '"const": "add"' not in agent.system_prompt

    async def scenario() -> None:
        added = await agent.use_tool(call("add_mcp_server", server_id="sdk"))
        assert not added.is_error, added.content
        assert agent.state_machine is not before
        assert inference.engine.state_machine is not None
        tool_call = agent.state_machine.states["tool_call"]
        assert isinstance(tool_call, ToolCallState)
        assert {"add", "echo", "send_message"} <= {tool.name for tool in tool_call.tools}
        assert '"const": "add"' in agent.memory[0].content  # the prompt describes the new tool
        opening, closing = tool_call.delimiters
        machine = tool_call.state_machine
        good = '{"intention": "sum", "name": "add", "arguments": {"a": 2, "b": 3}}'
        assert accepts(machine, f"{opening}{good}{closing}")
        for bad in (
            '{"intention": "sum", "name": "add", "arguments": {"a": "two", "b": 3}}',
            '{"intention": "sum", "name": "add", "arguments": {"a": 2}}',
            '{"intention": "sum", "name": "subtract", "arguments": {"a": 2, "b": 3}}',
        ):
            assert not accepts(machine, f"{opening}{bad}{closing}"), bad

        assert (await agent.use_tool(call("add", a=2, b=3))).content == "5"
        crashed = await agent.use_tool(call("crash"))
        assert crashed.is_error and "stopped while running 'crash'" in crashed.content
        assert not (await agent.use_tool(call("add_mcp_server", server_id="sdk"))).is_error
        assert (await agent.use_tool(call("echo", text="back"))).content == "back"
        await agent.mcp_host.close()

    run(scenario())
