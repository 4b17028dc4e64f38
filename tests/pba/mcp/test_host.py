"""MCPHost and MCPClient against real servers over stdio.

One server is written here with the SDK's server API (``sdk_server.py``:
well-behaved tools, one that crashes its process mid-call, one that hangs);
the others are real servers from PyPI that work offline (``mcp-server-time``,
``mcp-server-git`` on a temporary repository), skipped when not installed.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from agent.mcp import MCPHost
from agent.system.interaction import Interaction
from agent.tools import Tool, invoke
from pba.mcp.mcp_support import SDK_SERVER, run, server_list


class Caller:
    """Stands in for the Agent: an MCP host and add_tools()."""

    name = "Tester"

    def __init__(self, host: MCPHost) -> None:
        self.mcp_host = host
        self.tools: dict[str, Tool] = {tool.name: tool for tool in Tool.load()}
        self.prompt_resets = 0

    def add_tools(self, tools: list[Tool], reset_system_prompt: bool = False) -> None:
        self.tools.update({tool.name: tool for tool in tools})
        self.prompt_resets += reset_system_prompt

    async def use(self, name: str, **arguments: Any) -> Interaction:
        return await invoke(self.tools[name], self, arguments, timeout=30)


@pytest.fixture
def host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MCPHost:
    monkeypatch.setenv("PBA_PASSED", "passed-value")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-for-servers")
    return MCPHost(server_list(tmp_path), startup_timeout=20, call_timeout=3)


def test_connect_list_and_call(host: MCPHost) -> None:
    async def scenario() -> None:
        tools = await host.connect("sdk")
        assert {"add", "echo", "environment", "crash", "hang"} <= {t.name for t in tools}
        add = next(tool for tool in tools if tool.name == "add")
        assert add.mcp_server == "sdk" and add.callable is None
        assert add.schema["required"] == ["a", "b"]
        jsonschema.Draft202012Validator.check_schema(add.to_dict())
        result = await host.call_tool("sdk", "add", {"a": 2, "b": 40})
        assert result.content == "42" and not result.is_error
        assert result.metadata == {"tool": "add", "mcp_server": "sdk", "error": False}
        await host.close()
        assert not host.is_connected("sdk")

    run(scenario())


def test_environment_reaches_the_server_and_secrets_do_not(host: MCPHost) -> None:
    async def scenario() -> list[str]:
        await host.connect("sdk")
        names = ["PBA_FIXED", "PBA_PASSED", "OPENAI_API_KEY"]
        values = [(await host.call_tool("sdk", "environment", {"name": n})).content for n in names]
        await host.close()
        return values

    assert run(scenario()) == ["fixed-value", "passed-value", "<unset>"]


def test_a_tool_error_is_an_error_interaction_and_the_server_goes_on(host: MCPHost) -> None:
    async def scenario() -> None:
        await host.connect("sdk")
        failed = await host.call_tool("sdk", "fail", {"message": "no such record"})
        assert failed.is_error and "no such record" in failed.content
        assert (await host.call_tool("sdk", "echo", {"text": "ok", "times": 2})).content == "ok ok"
        await host.close()

    run(scenario())


def test_add_mcp_server_adds_tools_that_the_caller_can_use(host: MCPHost) -> None:
    caller = Caller(host)

    async def scenario() -> None:
        listed = await caller.use("list_mcp_servers")
        assert "- sdk: SDK test server" in listed.content and "[connected]" not in listed.content
        added = await caller.use("add_mcp_server", server_id="sdk")
        assert not added.is_error, added.content
        assert "add" in added.metadata["tools"] and "add" in caller.tools
        assert caller.prompt_resets == 1  # the system prompt now describes the new tools
        assert "[connected]" in (await caller.use("list_mcp_servers")).content
        assert (await caller.use("add", a=1, b=2)).content == "3"
        unknown = await caller.use("add_mcp_server", server_id="nope")
        assert unknown.is_error and "no MCP server 'nope' in the server list" in unknown.content
        await host.close()

    run(scenario())


def test_arguments_that_are_not_utf8_are_refused_without_breaking_the_connection(
    host: MCPHost,
) -> None:
    caller = Caller(host)

    async def scenario() -> None:
        await caller.use("add_mcp_server", server_id="sdk")
        refused = await caller.use("echo", text="a\ud800b")  # what JSON's "\ud800" decodes to
        assert refused.is_error and "surrogates not allowed" in refused.content
        assert host.is_connected("sdk")
        assert (await caller.use("echo", text="still here")).content == "still here"
        await host.close()

    run(scenario())


def test_a_server_dying_mid_call_is_an_error_and_reconnecting_works(host: MCPHost) -> None:
    caller = Caller(host)

    async def scenario() -> None:
        await caller.use("add_mcp_server", server_id="sdk")
        crashed = await caller.use("crash")
        assert crashed.is_error
        assert "stopped while running 'crash'" in crashed.content
        assert "sdk_server: crashing on purpose" in crashed.content  # the server's stderr
        assert not host.is_connected("sdk")
        again = await caller.use("add", a=1, b=1)
        assert again.is_error and "not connected" in again.content
        assert not (await caller.use("add_mcp_server", server_id="sdk")).is_error
        assert (await caller.use("add", a=1, b=1)).content == "2"
        await host.close()

    run(scenario())


def test_a_hanging_call_times_out_and_reconnecting_works(host: MCPHost) -> None:
    caller = Caller(host)

    async def scenario() -> None:
        await caller.use("add_mcp_server", server_id="sdk")
        loop = asyncio.get_running_loop()
        started = loop.time()
        hung = await caller.use("freeze")
        assert hung.is_error and "did not answer within 3 s while running 'freeze'" in hung.content
        assert loop.time() - started < 15
        assert not host.is_connected("sdk")
        assert not (await caller.use("add_mcp_server", server_id="sdk")).is_error
        assert (await caller.use("echo", text="back")).content == "back"
        await host.close()

    run(scenario())


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {"command": "python", "args": ["-m", "pba_no_such_server_module"]},
            r"failed to start(.|\n)*No module named pba_no_such_server_module",
        ),
        ({"command": "/nonexistent/pba-server"}, "failed to start.*No such file or directory"),
        (
            {
                "command": "python",
                "args": [str(SDK_SERVER), "--hang-on-start"],
                "startup_timeout": 2,
            },
            "did not complete the handshake within 2 s",
        ),
    ],
    ids=["exits", "not-found", "hangs"],
)
def test_servers_that_fail_to_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: dict[str, Any], message: str
) -> None:
    monkeypatch.setenv("PBA_PASSED", "passed-value")
    broken = {"identifier": "broken", "name": "Broken", "description": "d", **entry}
    host = MCPHost(server_list(tmp_path, broken), startup_timeout=30, call_timeout=3)
    caller = Caller(host)

    async def scenario() -> None:
        result = await caller.use("add_mcp_server", server_id="broken")
        assert result.is_error
        assert "MCP server 'broken'" in result.content
        assert re.search(message, result.content), result.content
        assert not host.is_connected("broken")
        # The host keeps working.
        assert not (await caller.use("add_mcp_server", server_id="sdk")).is_error
        await host.close()

    run(scenario())


def test_giving_up_on_a_connection_leaves_no_server_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBA_PASSED", "passed-value")
    marker = f"--pba-slow-start-{os.getpid()}"
    slow = {
        "identifier": "slow",
        "name": "Slow",
        "description": "d",
        "command": "python",
        "args": [str(SDK_SERVER), "--hang-on-start", marker],
    }
    host = MCPHost(server_list(tmp_path, slow), startup_timeout=30)
    caller = Caller(host)

    async def scenario() -> None:
        gave_up = await invoke(caller.tools["add_mcp_server"], caller, {"server_id": "slow"}, 1.0)
        assert gave_up.is_error and "did not finish within 1 s" in gave_up.content
        assert not host.is_connected("slow")
        await asyncio.sleep(0.3)
        leftovers = [
            entry.name
            for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _cmdline_has(entry, marker)
        ]
        assert leftovers == []  # stopped at once, not when the loop ends
        assert not (await caller.use("add_mcp_server", server_id="sdk")).is_error
        await host.close()

    run(scenario())


def test_connect_and_close_in_different_tasks(host: MCPHost) -> None:
    async def scenario() -> None:
        tools = await asyncio.create_task(host.connect("sdk"))
        assert tools
        call = asyncio.create_task(host.call_tool("sdk", "add", {"a": 1, "b": 1}))
        assert (await call).content == "2"
        await asyncio.create_task(host.close())
        await host.close()  # twice is fine

    run(scenario())


def test_timed_out_invoke_leaves_the_host_usable(host: MCPHost) -> None:
    caller = Caller(host)

    async def scenario() -> None:
        await caller.use("add_mcp_server", server_id="sdk")
        abandoned = await invoke(caller.tools["hang"], caller, {}, timeout=0.5)
        assert abandoned.is_error and "did not finish within 0.5 s" in abandoned.content
        assert (await caller.use("add", a=2, b=2)).content == "4"
        await host.close()

    run(scenario())


needs_time = pytest.mark.skipif(
    importlib.util.find_spec("mcp_server_time") is None,
    reason="needs the PyPI MCP server mcp-server-time",
)


@needs_time
def test_pypi_time_server_from_the_shipped_list() -> None:
    caller = Caller(MCPHost(startup_timeout=30))

    async def scenario() -> None:
        added = await caller.use("add_mcp_server", server_id="time")
        assert not added.is_error, added.content
        assert {"get_current_time", "convert_time"} <= set(caller.tools)
        now = await caller.use("get_current_time", timezone="Asia/Tokyo")
        assert json.loads(now.content)["timezone"] == "Asia/Tokyo"
        converted = await caller.use(
            "convert_time", source_timezone="UTC", time="12:00", target_timezone="Europe/Paris"
        )
        assert json.loads(converted.content)["target"]["timezone"] == "Europe/Paris"
        bad = await caller.use("get_current_time", timezone="Mars/Olympus")
        assert bad.is_error and "Mars/Olympus" in bad.content
        await caller.mcp_host.close()

    run(scenario())


@needs_time
def test_engine_generated_calls_to_pypi_tools_run(tmp_path: Path) -> None:
    """PSE's calls to an MCP tool validate against its schema and run through the host."""
    from _support.tokenizers import smollm2_tokenizer
    from pba.tools.engine_walk import walk

    from pse.structuring_engine import StructuringEngine

    engine = StructuringEngine(smollm2_tokenizer())
    caller = Caller(MCPHost(startup_timeout=30))

    async def scenario() -> None:
        await caller.use("add_mcp_server", server_id="time")
        for name in ("get_current_time", "convert_time"):
            schema = caller.tools[name].to_dict()
            for seed in range(2):
                engine.configure(schema)
                call = json.loads(walk(engine, seed))
                jsonschema.validate(call, schema)
                result = await caller.use(call["name"], **call["arguments"])
                assert result.metadata["mcp_server"] == "time"  # an answer, maybe an error one
        assert caller.mcp_host.is_connected("time")
        await caller.mcp_host.close()

    run(scenario())


@pytest.mark.skipif(
    importlib.util.find_spec("mcp_server_git") is None or shutil.which("git") is None,
    reason="needs the PyPI MCP server mcp-server-git and git",
)
def test_pypi_git_server_on_a_temporary_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    (repo / "notes.txt").write_text("first\n")
    subprocess.run([*git, "add", "notes.txt"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first note"], check=True)
    (repo / "notes.txt").write_text("first\nsecond\n")
    entry = {
        "identifier": "git",
        "name": "Git",
        "description": "git",
        "command": "python",
        "args": ["-m", "mcp_server_git", "--repository", str(repo)],
    }
    path = tmp_path / "servers.json"
    path.write_text(json.dumps([entry]))
    caller = Caller(MCPHost(path, startup_timeout=30))

    async def scenario() -> None:
        assert not (await caller.use("add_mcp_server", server_id="git")).is_error
        log = await caller.use("git_log", repo_path=str(repo))
        assert "first note" in log.content
        diff = await caller.use("git_diff_unstaged", repo_path=str(repo))
        assert "+second" in diff.content
        await caller.mcp_host.close()

    run(scenario())


def test_tools_whose_schemas_cannot_be_enforced_are_left_out(tmp_path: Path) -> None:
    entry = {
        "identifier": "low",
        "name": "Low-level",
        "description": "d",
        "command": "python",
        "args": [str(Path(__file__).with_name("lowlevel_server.py"))],
    }
    path = tmp_path / "servers.json"
    path.write_text(json.dumps([entry]))
    caller = Caller(MCPHost(path, startup_timeout=20))

    async def scenario() -> None:
        added = await caller.use("add_mcp_server", server_id="low")
        assert not added.is_error, added.content
        assert added.metadata["tools"] == ["lookup"]
        assert set(added.metadata["rejected_tools"]) == {"broken_ref", "lookbehind"}
        assert "does not resolve" in added.content and "lookbehind is not" in added.content
        assert "broken_ref" not in caller.tools
        assert (await caller.use("lookup", key="beta")).content == "lookup: beta"
        await caller.mcp_host.close()

    run(scenario())


def test_server_tools_never_replace_the_agents_own(host: MCPHost) -> None:
    caller = Caller(host)
    builtin = caller.tools["send_message"]
    caller.tools["echo"] = Tool("echo", callable=lambda self, text: text, schema={})

    async def scenario() -> None:
        added = await caller.use("add_mcp_server", server_id="sdk")
        assert "echo" not in added.metadata["tools"]
        assert added.metadata["rejected_tools"]["echo"] == (
            "the name is already used by a tool of the agent"
        )
        assert caller.tools["echo"].mcp_server is None
        again = await caller.use("add_mcp_server", server_id="sdk")  # reconnecting replaces
        assert "add" in again.metadata["tools"]
        assert caller.tools["send_message"] is builtin
        await host.close()

    run(scenario())


def test_a_loop_that_ends_without_close_leaves_no_server_behind() -> None:
    marker = f"--pba-marker-{os.getpid()}"
    script = f"""
import asyncio
from agent.mcp import MCPHost, MCPServerConfig
config = MCPServerConfig(identifier="t", name="t", description="d", command="python",
                         args=[{str(SDK_SERVER)!r}, {marker!r}])
async def main():
    host = MCPHost([config])
    await host.connect("t")
    print((await host.call_tool("t", "add", {{"a": 1, "b": 2}})).content)
asyncio.run(main())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3\n" and "Error" not in done.stderr and "Traceback" not in done.stderr
    time.sleep(0.3)
    leftovers = [
        entry.name
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and _cmdline_has(entry, marker)
    ]
    assert leftovers == []


def _cmdline_has(entry: Path, marker: str) -> bool:
    try:
        return marker.encode() in (entry / "cmdline").read_bytes()
    except OSError:
        return False


def test_python_command_is_the_agents_interpreter(tmp_path: Path) -> None:
    host = MCPHost(server_list(tmp_path))
    assert host.available_servers()[0].executable() == sys.executable
