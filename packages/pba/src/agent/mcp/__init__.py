"""MCP (Model Context Protocol) servers as tool providers, over the official ``mcp`` SDK.

``MCPHost`` keeps one ``MCPClient`` per connected server; the servers the
agent may start are listed in ``servers/servers_list.json`` (a JSON list of
entries: ``identifier``, ``name``, ``description``, ``command`` (``"python"``
is the agent's interpreter), ``args``, ``env``, ``pass_env``, ``cwd``, ``startup_timeout``).

The SDK is pinned to major version 1 (``mcp>=1.20,<2``) on purpose. 2.x is a
breaking release (the 2026-07 protocol drops the session handshake, the
client and server APIs changed and ``FastMCP`` was renamed), while 1.x is
maintained, speaks the handshake revisions nearly every published server
uses, and still talks to servers built on 2.x: ``mcp-server-time`` 2026.10.19
(on mcp 2.3) works from this client when installed in its own environment.
The newest releases of the reference servers require mcp 2.3, so a server
that shares the agent's environment must be a release built on 1.x
(``mcp-server-time``/``mcp-server-git`` < 2026.10).
"""

from agent.mcp.client import MCPClient
from agent.mcp.config import (
    SERVERS_FILE,
    MCPConfigError,
    MCPError,
    MCPServerConfig,
    load_servers,
)
from agent.mcp.host import MCPHost

__all__ = [
    "SERVERS_FILE",
    "MCPClient",
    "MCPConfigError",
    "MCPError",
    "MCPHost",
    "MCPServerConfig",
    "load_servers",
]
