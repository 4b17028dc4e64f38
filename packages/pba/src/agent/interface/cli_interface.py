"""``CLIInterface``: the agent in a terminal, rendered with rich.

Each interaction is a panel in its colour, titled with its emoji and title;
the step being generated is shown live, in the colour of its current state.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from agent.interface import INPUT_PROMPT, Interface

if TYPE_CHECKING:
    from agent.state import AgentState
    from agent.system.interaction import Interaction

__all__ = ["CLIInterface", "ScriptedInterface"]

_ROLE_STYLE = {"user": ("green", "👤"), "tool": ("yellow", "🔧"), "system": ("red", "⚙️")}


def _emoji(name: str | None) -> str:
    """An emoji character, or rich's ``:name:`` code for a name like ``"warning"``."""
    if not name:
        return ""
    if name.isascii():
        return Text.from_markup(f":{name}:").plain if name.replace("_", "").isalnum() else ""
    return name


class CLIInterface(Interface):
    """A rich console; ``console`` may be given (tests record one)."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()
        self._live: Live | None = None

    async def get_input(self, prompt: str = INPUT_PROMPT) -> str | None:
        await self.end_live_output()
        # Read on the event loop's thread with Python's own Ctrl+C handler:
        # asyncio.run's handler only cancels the main task, which input() ignores,
        # and a worker thread blocked in input() would keep the process alive.
        handler = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            text = self.console.input(f"[bold green]> {escape(prompt)}:[/] ")
        except (EOFError, KeyboardInterrupt):
            return None
        finally:
            signal.signal(signal.SIGINT, handler)
        return text

    async def show_output(self, interaction: Interaction) -> None:
        await self.end_live_output()
        role = interaction.role.value
        color, emoji = _ROLE_STYLE.get(role, ("cyan", "🤖"))
        color = interaction.color or color
        emoji = _emoji(interaction.emoji) or emoji
        title = f"{emoji} {interaction.title or role.title()}"
        body: Any = Markdown(str(interaction.content)) if interaction.content else Text("")
        self.console.print(
            Panel(body, title=title, subtitle=interaction.subtitle, border_style=color)
        )

    async def show_live_output(self, state: AgentState | None, text: str) -> None:
        color = state.color if state is not None else "white"
        title = f"{state.emoji} {state.readable_name}" if state is not None else "…"
        panel = Panel(Text(text[-2000:], style=color), title=title, border_style=color)
        if self._live is None:
            self._live = Live(panel, console=self.console, refresh_per_second=8, transient=True)
            self._live.start()
        else:
            self._live.update(panel)

    async def end_live_output(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    async def show_error(self, message: str) -> None:
        await self.end_live_output()
        self.console.print(Panel(Text(message), title="⚠️ Error", border_style="red"))

    async def show_status(self, message: str) -> None:
        self.console.print(f"[dim]{message}[/]")


class ScriptedInterface(CLIInterface):
    """A ``CLIInterface`` whose input comes from ``messages``, then ends."""

    def __init__(self, messages: Iterable[str], console: Console | None = None) -> None:
        super().__init__(console)
        self.messages = list(messages)

    async def get_input(self, prompt: str = INPUT_PROMPT) -> str | None:
        await self.end_live_output()
        if not self.messages:
            return None
        message = self.messages.pop(0)
        self.console.print(f"[bold green]> {escape(prompt)}:[/] {escape(message)}")
        return message
