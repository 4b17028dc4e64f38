"""``Interface``: how the agent talks to a person (or a script).

:class:`~agent.interface.cli_interface.CLIInterface` renders with rich in a
terminal; :class:`~agent.interface.cli_interface.ScriptedInterface` takes its
input from a list (``--message`` and tests).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.state import AgentState
    from agent.system.interaction import Interaction

__all__ = ["INPUT_PROMPT", "Interface"]

INPUT_PROMPT = "Enter your message [enter to send, Ctrl+C to exit]"


class Interface(ABC):
    """Input and output of the agent; every method is a coroutine."""

    @abstractmethod
    async def get_input(self, prompt: str) -> str | None:
        """The user's next message; ``None`` when there is none (end of the session)."""

    @abstractmethod
    async def show_output(self, interaction: Interaction) -> None:
        """Show one interaction (a planning block, a tool result, a reply, ...)."""

    @abstractmethod
    async def show_live_output(self, state: AgentState | None, text: str) -> None:
        """Show the text being generated for ``state`` (replacing the last live view)."""

    @abstractmethod
    async def end_live_output(self) -> None:
        """The step is generated: clear the live view."""

    @abstractmethod
    async def show_error(self, message: str) -> None:
        """Report a problem the session survives."""

    @abstractmethod
    async def show_status(self, message: str) -> None:
        """A short progress note (loading the model, connecting, ...)."""
