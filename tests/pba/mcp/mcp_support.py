"""Helpers shared by the MCP tests: the SDK test server's list entry and a checked event loop."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

SDK_SERVER = Path(__file__).with_name("sdk_server.py")
T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run on a fresh loop and fail on any error the loop reports (e.g. cancel scopes)."""
    problems: list[dict[str, Any]] = []

    async def main() -> T:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: problems.append(ctx))
        return await coroutine

    result = asyncio.run(main())
    assert problems == [], problems
    return result


def server_list(tmp_path: Path, *extra: dict[str, Any]) -> Path:
    """A server list: the SDK test server (``sdk``, needs ``PBA_PASSED`` set), then ``extra``."""
    entries = [
        {
            "identifier": "sdk",
            "name": "SDK test server",
            "description": "Tools that behave, crash and hang.",
            "command": "python",
            "args": [str(SDK_SERVER)],
            "env": {"PBA_FIXED": "fixed-value"},
            "pass_env": ["PBA_PASSED"],
        },
        *extra,
    ]
    path = tmp_path / "servers_list.json"
    path.write_text(json.dumps(entries))
    return path
