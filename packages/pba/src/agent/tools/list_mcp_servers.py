"""Built-in tool: which MCP servers the agent can connect to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.system.interaction import Interaction

if TYPE_CHECKING:
    from agent.agent import Agent


async def list_mcp_servers(self: Agent) -> Interaction:
    """List the MCP servers you can connect to with add_mcp_server, with what each offers."""
    host = self.mcp_host
    servers = host.available_servers()
    if not servers:
        content = "No MCP servers are configured."
    else:
        content = "\n".join(
            f"- {server.identifier}: {server.name}"
            + (" [connected]" if host.is_connected(server.identifier) else "")
            + f"\n  {server.description}"
            for server in servers
        )
    return Interaction(
        role=Interaction.Role.TOOL,
        content=content,
        title="MCP servers",
        color="yellow",
        emoji="electric_plug",
    )
