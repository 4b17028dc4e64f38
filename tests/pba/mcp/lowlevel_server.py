"""An MCP server on the SDK's low-level ``Server`` API, with hand-written input schemas.

``lookup`` has an ordinary schema; ``broken_ref`` and ``lookbehind`` have
schemas PSE cannot compile (a dangling ``$ref``, a lookbehind pattern).
"""

from __future__ import annotations

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

server: Server = Server("pba-lowlevel-test-server")

TOOLS = [
    types.Tool(
        name="lookup",
        description="Look a key up.",
        inputSchema={
            "type": "object",
            "properties": {"key": {"type": "string", "enum": ["alpha", "beta"]}},
            "required": ["key"],
        },
    ),
    types.Tool(
        name="broken_ref",
        description="A schema with a dangling reference.",
        inputSchema={"type": "object", "properties": {"x": {"$ref": "#/$defs/Missing"}}},
    ),
    types.Tool(
        name="lookbehind",
        description="A pattern PSE does not support.",
        inputSchema={
            "type": "object",
            "properties": {"x": {"type": "string", "pattern": "(?<=a)b"}},
        },
    ),
]


@server.list_tools()  # type: ignore[untyped-decorator, no-untyped-call]
async def list_tools() -> list[types.Tool]:
    return TOOLS


@server.call_tool()  # type: ignore[untyped-decorator]
async def call_tool(name: str, arguments: dict[str, object]) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=f"{name}: {arguments.get('key')}")]


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
