"""An MCP server written with the SDK's server API (FastMCP), started by the tests over stdio.

Tools: ``add`` and ``echo`` behave; ``environment`` reports a variable;
``crash`` kills the process mid-call; ``hang`` never answers and ``freeze``
never answers while blocking the whole server. Run with
``--hang-on-start`` it never completes the handshake.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from mcp.server.fastmcp import FastMCP

server = FastMCP("pba-test-server")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def echo(text: str, times: int = 1) -> str:
    """Repeat a text."""
    return " ".join([text] * times)


@server.tool()
def environment(name: str) -> str:
    """The value of one environment variable of the server process, or <unset>."""
    return os.environ.get(name, "<unset>")


@server.tool()
def fail(message: str) -> str:
    """Raise an error inside the tool (the server keeps running)."""
    raise ValueError(message)


@server.tool()
def crash() -> str:
    """Exit the server process in the middle of the call."""
    sys.stderr.write("sdk_server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool()
async def hang() -> str:
    """Never return (the server stays responsive)."""
    while True:
        await asyncio.sleep(1)


@server.tool()
def freeze() -> str:
    """Never return, blocking the whole server."""
    while True:
        time.sleep(1)


if __name__ == "__main__":
    if "--hang-on-start" in sys.argv:
        while True:
            time.sleep(1)
    server.run("stdio")
