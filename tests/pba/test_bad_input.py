"""Bad input gets a clear message and nothing crashes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from agent.agent import Agent
from agent.interface.cli_interface import ScriptedInterface
from agent.llm.frontend import Frontend
from agent.llm.local import LocalInference
from agent.mcp import MCPHost
from agent.tools import ToolCall, ToolLoadError


def test_unknown_model_path(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        LocalInference(tmp_path / "missing")
    (tmp_path / "weights.bin").write_bytes(b"")
    with pytest.raises(FileNotFoundError, match="not a directory"):
        LocalInference(tmp_path / "weights.bin")
    with pytest.raises(FileNotFoundError, match="no config.json"):
        LocalInference(tmp_path)
    with pytest.raises(ValueError, match="unknown frontend 'tpu'"):
        Frontend.from_path(None, "tpu")


def test_cli_reports_a_bad_model_path_without_a_traceback(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "agent", "--model", str(tmp_path / "nope"), "--message", "hi"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Error:" in run.stdout and "does not exist" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


@pytest.fixture
def agent(inference: Any, weather_tool: Any) -> Agent:
    return Agent(
        "Proxy",
        "base",
        ScriptedInterface([]),
        inference,
        tools=[weather_tool, "list_mcp_servers", "add_mcp_server"],
        include_pause_button=False,
    )


@pytest.mark.model
def test_malformed_server_list_is_an_error_interaction(agent: Agent, tmp_path: Path) -> None:
    servers = tmp_path / "servers_list.json"
    servers.write_text('[{"identifier": "x", "command": ')  # cut off
    agent.mcp_host = MCPHost(servers)
    for name, arguments in [("list_mcp_servers", {}), ("add_mcp_server", {"server_id": "x"})]:
        call = ToolCall(intention="try", name=name, arguments=arguments)
        result = asyncio.run(agent.use_tool(call))
        assert result.is_error, result.content
        assert "servers_list.json" in result.content, result.content
    assert sorted(agent.tools) == ["add_mcp_server", "get_weather", "list_mcp_servers"]


@pytest.mark.model
def test_bad_tool_files(inference: Any, tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(
        "import no_such_module_here\n\ndef broken(self, x: int) -> int:\n    return x\n"
    )
    untyped = tmp_path / "untyped.py"
    untyped.write_text('def untyped(self, city):\n    """No hints."""\n    return city\n')
    for path, message in [(broken, "could not be imported"), (untyped, "city")]:
        with pytest.raises(ToolLoadError, match=message) as caught:
            Agent("Proxy", "base", ScriptedInterface([]), inference, tools=[str(path)])
        assert str(path) in str(caught.value)
    with pytest.raises(ValueError, match="no usable tool named no_such_tool"):
        Agent("Proxy", "base", ScriptedInterface([]), inference, tools=["no_such_tool"])


@pytest.mark.model
def test_unknown_system_prompt(inference: Any) -> None:
    with pytest.raises(FileNotFoundError, match="available: base, concise"):
        Agent("Proxy", "nope", ScriptedInterface([]), inference)
