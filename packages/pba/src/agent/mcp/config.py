"""The list of known MCP servers (``servers/servers_list.json``) and how to start each."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SERVERS_FILE = Path(__file__).parent / "servers" / "servers_list.json"
"""The default server list."""


class MCPError(Exception):
    """An MCP server could not be used; the message says which server and why."""


class MCPConfigError(MCPError):
    """The server list is missing, is not JSON, or an entry is malformed."""


class MCPServerConfig(BaseModel):
    """One entry of ``servers_list.json``: a server the agent may connect to over stdio.

    ``command`` ``"python"`` means the agent's own interpreter. ``env`` sets
    variables for the server process; ``pass_env`` names variables copied from
    the agent's environment (an unset one is an error when connecting). The
    server also gets the SDK's minimal default environment (``PATH``,
    ``HOME``, ...), nothing else of the agent's. ``startup_timeout`` (seconds)
    overrides the host's limit for starting this server and its handshake.
    """

    model_config = ConfigDict(extra="forbid")

    identifier: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str
    description: str
    command: str = Field(min_length=1)
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    pass_env: list[str] = Field(default_factory=list)
    cwd: str | None = None
    startup_timeout: float | None = Field(default=None, gt=0)

    def executable(self) -> str:
        """The program to start (``"python"`` is the agent's interpreter)."""
        return sys.executable if self.command == "python" else self.command

    def environment(self) -> dict[str, str]:
        """The variables this server gets from the list and from the agent's environment."""
        missing = [name for name in self.pass_env if name not in os.environ]
        if missing:
            raise MCPError(
                f"MCP server {self.identifier!r} needs the environment variable(s) "
                f"{', '.join(missing)}, which are not set"
            )
        return {**self.env, **{name: os.environ[name] for name in self.pass_env}}


def load_servers(path: str | Path | None = None) -> list[MCPServerConfig]:
    """The servers listed in ``path`` (default: ``agent/mcp/servers/servers_list.json``).

    The file holds a JSON list of entries (see ``MCPServerConfig``). Raises
    ``MCPConfigError`` naming the file, the entry and the field at fault.
    """
    file = Path(path) if path is not None else SERVERS_FILE
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MCPConfigError(f"MCP server list {file} cannot be read: {exc}") from exc
    except ValueError as exc:
        raise MCPConfigError(f"MCP server list {file} is not valid JSON: {exc}") from exc
    if not isinstance(data, list):
        raise MCPConfigError(
            f"MCP server list {file} must be a JSON list of servers, not {type(data).__name__}"
        )
    servers: list[MCPServerConfig] = []
    for index, entry in enumerate(data):
        label = entry.get("identifier") if isinstance(entry, dict) else None
        where = f"entry {index}" + (f" ({label!r})" if label else "")
        try:
            servers.append(MCPServerConfig.model_validate(entry))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in error['loc']) or 'entry'}: {error['msg']}"
                for error in exc.errors()
            )
            raise MCPConfigError(f"MCP server list {file}, {where}: {problems}") from exc
    seen: set[str] = set()
    for server in servers:
        if server.identifier in seen:
            raise MCPConfigError(
                f"MCP server list {file}: identifier {server.identifier!r} appears twice"
            )
        seen.add(server.identifier)
    return servers


__all__ = ["SERVERS_FILE", "MCPConfigError", "MCPError", "MCPServerConfig", "load_servers"]
