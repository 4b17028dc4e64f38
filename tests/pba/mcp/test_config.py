"""The MCP server list: the shipped file loads, malformed files give messages that say where."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from agent.mcp import SERVERS_FILE, MCPConfigError, MCPError, MCPHost, MCPServerConfig, load_servers
from agent.tools import Tool, invoke

ENTRY = {"identifier": "demo", "name": "Demo", "description": "d", "command": "python"}


def write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "servers_list.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_the_shipped_list_loads() -> None:
    servers = load_servers()
    assert SERVERS_FILE.name == "servers_list.json"
    assert {server.identifier for server in servers} >= {"time", "git"}
    assert all(server.description for server in servers)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ({"servers": []}, "must be a JSON list of servers, not dict"),
        ([{**ENTRY, "command": ""}], r"entry 0 \('demo'\): command: String should have at least"),
        ([{"identifier": "x", "name": "X"}], r"entry 0 \('x'\): description: Field required"),
        ([ENTRY, {**ENTRY, "typo": 1}], r"entry 1 \('demo'\): typo: Extra inputs"),
        ([{**ENTRY, "identifier": "has space"}], "identifier: String should match pattern"),
        ([{**ENTRY, "args": "-m x"}], "args: Input should be a valid list"),
        ([{**ENTRY, "startup_timeout": 0}], "startup_timeout: Input should be greater than 0"),
        ([ENTRY, ENTRY], "identifier 'demo' appears twice"),
        ([42], "entry 0: entry: Input should be a valid dictionary"),
    ],
)
def test_malformed_lists_are_reported_with_file_and_entry(
    tmp_path: Path, content: Any, message: str
) -> None:
    path = write(tmp_path, content)
    with pytest.raises(MCPConfigError, match=message) as caught:
        load_servers(path)
    assert str(path) in str(caught.value)


def test_a_missing_list_is_reported(tmp_path: Path) -> None:
    with pytest.raises(MCPConfigError, match="cannot be read"):
        load_servers(tmp_path / "absent.json")


def test_environment_fixed_and_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    config = MCPServerConfig.model_validate(
        {**ENTRY, "env": {"MODE": "test"}, "pass_env": ["PBA_TOKEN"]}
    )
    monkeypatch.delenv("PBA_TOKEN", raising=False)
    with pytest.raises(MCPError, match="needs the environment variable\\(s\\) PBA_TOKEN"):
        config.environment()
    monkeypatch.setenv("PBA_TOKEN", "t0k")
    assert config.environment() == {"MODE": "test", "PBA_TOKEN": "t0k"}


class Caller:
    def __init__(self, host: MCPHost) -> None:
        self.mcp_host = host
        self.added: list[Tool] = []

    def add_tools(self, tools: list[Tool], reset_system_prompt: bool = False) -> None:
        self.added += tools


def test_builtin_tools_turn_a_malformed_list_into_error_interactions(tmp_path: Path) -> None:
    caller = Caller(MCPHost(write(tmp_path, "[{]")))
    tools = {tool.name: tool for tool in Tool.load()}

    async def both() -> list[Any]:
        listed = await invoke(tools["list_mcp_servers"], caller, {})
        added = await invoke(tools["add_mcp_server"], caller, {"server_id": "time"})
        return [listed, added]

    for interaction in asyncio.run(both()):
        assert interaction.is_error
        assert "is not valid JSON" in interaction.content and str(tmp_path) in interaction.content
    assert caller.added == []
