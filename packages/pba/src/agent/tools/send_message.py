"""Built-in tool: the agent's reply to the user."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.system.interaction import Interaction

if TYPE_CHECKING:
    from agent.agent import Agent


async def send_message(
    self: Agent,
    message: str,
    spoken: str | None = None,
    wait_for_response: bool = True,
) -> Interaction:
    """Send a message to the user; use it for the final answer once a task is done.

    Args:
        message: The text the user reads.
        spoken: A shorter version to read aloud, if any.
        wait_for_response: Whether to stop and wait for the user's reply.
    """
    return Interaction(
        role=Interaction.Role.ASSISTANT,
        content=message,
        title=getattr(self, "name", None) or "Agent",
        subtitle=spoken,
        color="cyan",
        emoji="speech_balloon",
        metadata={"spoken": spoken, "wait_for_response": wait_for_response},
    )
