"""MCP (Model Context Protocol) servers as tool providers, over the official ``mcp`` SDK (1.x).

``MCPHost`` keeps one ``MCPClient`` per connected server; the servers the
agent may start are listed in ``servers/servers_list.json``.
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
