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
    left_out = dict(self.mcp_host.rejected_tools.get(server_id, {}))
    existing = self.tools
    usable = []
    for tool in tools:
        owner = existing.get(tool.name)
        if owner is not None and owner.mcp_server != server_id:
            where = f"the MCP server {owner.mcp_server!r}" if owner.mcp_server else "the agent"
            left_out[tool.name] = f"the name is already used by a tool of {where}"
        else:
            usable.append(tool)
    self.add_tools(usable, reset_system_prompt=True)  # the prompt describes the new tools
    names = ", ".join(tool.name for tool in usable) or "none"
    content = f"Connected to the MCP server {server_id!r}. New tools: {names}."
    if left_out:
        content += " Left out: " + "; ".join(
            f"{name} ({problem})" for name, problem in left_out.items()
        )
    return Interaction(
        role=Interaction.Role.TOOL,
        content=content,
        title=f"MCP server {server_id} connected",
        color="green",
        emoji="electric_plug",
        metadata={
            "mcp_server": server_id,
            "tools": [tool.name for tool in usable],
            "rejected_tools": left_out,
        },
    )
