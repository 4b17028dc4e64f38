"""Running one tool call and turning whatever happens into an ``Interaction``."""

from __future__ import annotations

import asyncio
from typing import Any

from agent.system.interaction import Interaction
from agent.tools._tool import Tool


async def invoke(
    tool: Tool,
    caller: Any,
    arguments: dict[str, Any] | None,
    timeout: float | None = None,
) -> Interaction:
    """Call ``tool`` and return its result as an ``Interaction``; never raises for tool faults.

    A returned ``Interaction`` is passed through (``metadata["tool"]`` is set);
    any other value becomes a ``TOOL`` interaction with its text. An exception
    raised by the tool, or a call still running after ``timeout`` seconds,
    becomes an error interaction (``metadata["error"]`` is true) that says what
    went wrong, so the agent's loop goes on. A synchronous tool that times out
    keeps running in its worker thread until it returns; its result is dropped.
    """
    try:
        result = await asyncio.wait_for(tool.call(caller, **(arguments or {})), timeout)
    except asyncio.TimeoutError:
        return tool_error(tool.name, f"it did not finish within {timeout:g} s and was abandoned")
    except Exception as exc:
        return tool_error(tool.name, f"{type(exc).__name__}: {exc}")
    if isinstance(result, Interaction):
        result.metadata.setdefault("tool", tool.name)
        return result
    return Interaction(
        role=Interaction.Role.TOOL,
        content="" if result is None else str(result),
        title=tool.name,
        metadata={"tool": tool.name},
    )


def tool_error(tool_name: str, problem: str) -> Interaction:
    """The error interaction for a failed call of ``tool_name``."""
    return Interaction(
        role=Interaction.Role.TOOL,
        content=f"The tool {tool_name!r} failed: {problem}",
        title=f"{tool_name} failed",
        color="red",
        emoji="warning",
        metadata={"tool": tool_name, "error": True},
    )


__all__ = ["invoke", "tool_error"]
