"""The agent's MCP connections, by server identifier."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import types as mcp_types

from agent.mcp.client import MCPClient
from agent.mcp.config import MCPError, MCPServerConfig, load_servers
from agent.system.interaction import Interaction
from agent.tools import Tool


class MCPHost:
    """Connects to the servers of a server list and routes tool calls to them.

    ``servers`` is a server-list file (default: ``agent/mcp/servers/servers_list.json``)
    or the entries themselves. The list is read when first needed, so a
    malformed file is reported (``MCPConfigError``) by the call that needed
    it, not when the agent starts.
    """

    def __init__(
        self,
        servers: str | Path | list[MCPServerConfig] | None = None,
        *,
        startup_timeout: float = 30.0,
        call_timeout: float = 60.0,
    ) -> None:
        self._source = servers
        self.startup_timeout = startup_timeout
        self.call_timeout = call_timeout
        self.clients: dict[str, MCPClient] = {}
        self.rejected_tools: dict[str, dict[str, str]] = {}
        """Per server, the tools left out at the last connect and why (see ``connect``)."""

    def available_servers(self) -> list[MCPServerConfig]:
        """The servers of the list (read anew each time, so edits are seen)."""
        if isinstance(self._source, list):
            return list(self._source)
        return load_servers(self._source)

    def is_connected(self, server_id: str) -> bool:
        """Whether ``server_id`` has a live connection."""
        client = self.clients.get(server_id)
        return client is not None and client.connected

    async def connect(self, server_id: str) -> list[Tool]:
        """Connect to ``server_id`` (again, if it was connected) and return its tools.

        A tool whose schema PSE cannot compile is left out (calls to it could
        not be enforced); ``rejected_tools[server_id]`` says which and why.
        """
        configs = {server.identifier: server for server in self.available_servers()}
        if server_id not in configs:
            known = ", ".join(sorted(configs)) or "none"
            raise MCPError(f"no MCP server {server_id!r} in the server list (known: {known})")
        await self.disconnect(server_id)
        config = configs[server_id]
        client = MCPClient(
            config,
            startup_timeout=config.startup_timeout or self.startup_timeout,
            call_timeout=self.call_timeout,
        )
        await client.connect()
        try:
            mcp_tools = await client.list_tools()
        except BaseException:  # an error, or the caller gave up: stop the server
            await client.close()
            raise
        self.clients[server_id] = client
        tools: list[Tool] = []
        rejected: dict[str, str] = {}
        for mcp_tool in mcp_tools:
            tool = Tool.from_mcp_tool(mcp_tool, server_id)
            problem = tool.schema_error()
            if problem is None:
                tools.append(tool)
            else:
                rejected[tool.name] = problem
        self.rejected_tools[server_id] = rejected
        return tools

    async def call_tool(
        self, server_id: str, tool_name: str, arguments: dict[str, Any]
    ) -> Interaction:
        """Call a tool on a connected server; its result as a ``TOOL`` interaction.

        A result the server marks as an error gets ``metadata["error"]``. A
        server that is not connected, dies or hangs raises ``MCPError``; a dead
        or hung server is disconnected, and ``connect`` starts it again.
        """
        client = self.clients.get(server_id)
        if client is None:
            raise MCPError(
                f"MCP server {server_id!r} is not connected; connect with add_mcp_server first"
            )
        try:
            result = await client.call_tool(tool_name, arguments)
        except MCPError:
            if not client.connected:
                await self.disconnect(server_id)
            raise
        return _interaction(result, server_id, tool_name)

    async def disconnect(self, server_id: str) -> None:
        """Stop ``server_id``'s server if it runs."""
        client = self.clients.pop(server_id, None)
        if client is not None:
            await client.close()

    async def close(self) -> None:
        """Stop every server."""
        for server_id in list(self.clients):
            await self.disconnect(server_id)


def _interaction(result: mcp_types.CallToolResult, server_id: str, tool_name: str) -> Interaction:
    parts: list[str] = []
    image_url: str | None = None
    for block in result.content:
        if isinstance(block, mcp_types.TextContent):
            parts.append(block.text)
        elif isinstance(block, mcp_types.ImageContent):
            image_url = image_url or f"data:{block.mimeType};base64,{block.data}"
            parts.append(f"[image: {block.mimeType}]")
        elif isinstance(block, mcp_types.EmbeddedResource):
            resource = block.resource
            text = getattr(resource, "text", None)
            parts.append(text if text is not None else f"[resource: {resource.uri}]")
        else:
            parts.append(f"[{block.type} content]")
    if not parts and result.structuredContent is not None:
        parts.append(str(result.structuredContent))
    error = bool(result.isError)
    return Interaction(
        role=Interaction.Role.TOOL,
        content="\n".join(parts),
        title=f"{tool_name} ({server_id})" + (" failed" if error else ""),
        color="red" if error else "yellow",
        emoji="warning" if error else "electric_plug",
        image_url=image_url,
        metadata={"tool": tool_name, "mcp_server": server_id, "error": error},
    )


__all__ = ["MCPHost"]
