"""Built-in tool: connect to an MCP server and make its tools available."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.system.interaction import Interaction

if TYPE_CHECKING:
    from agent.agent import Agent


async def add_mcp_server(self: Agent, server_id: str) -> Interaction:
    """Connect to an MCP server and add its tools to the ones you can call.

    Args:
        server_id: The server's identifier, as list_mcp_servers shows it.
    """
    tools = await self.mcp_host.connect(server_id)
    self.add_tools(tools)
    names = ", ".join(tool.name for tool in tools) or "none"
    content = f"Connected to the MCP server {server_id!r}. New tools: {names}."
    rejected = self.mcp_host.rejected_tools.get(server_id, {})
    if rejected:
        content += " Left out, as their argument schemas cannot be enforced: " + "; ".join(
            f"{name} ({problem})" for name, problem in rejected.items()
        )
    return Interaction(
        role=Interaction.Role.TOOL,
        content=content,
        title=f"MCP server {server_id} connected",
        color="green",
        emoji="electric_plug",
        metadata={
            "mcp_server": server_id,
            "tools": [tool.name for tool in tools],
            "rejected_tools": dict(rejected),
        },
    )
