"""``AgentState``: one state of the agent's state machine (the documented ABC)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from pse_core.state_machine import StateMachine

__all__ = ["AgentState"]


class AgentState(ABC):
    """A state of the agent: an identifier, a display name, the delimiters that
    fence its content, UI colour and emoji, a nested PSE state machine that
    enforces the content's structure, and the prompt that explains it.

    ``state_machine`` must return a machine whose ``identifier`` is this
    state's ``identifier``, so generated segments can be traced back to it.
    """

    def __init__(
        self,
        identifier: str,
        readable_name: str,
        delimiters: tuple[str, str],
        color: str,
        emoji: str,
    ):
        self.identifier = identifier
        self.readable_name = readable_name
        self.delimiters = delimiters
        self.color = color
        self.emoji = emoji

    @property
    @abstractmethod
    def state_machine(self) -> StateMachine:
        """A configured PSE state machine for this state's content."""

    @property
    @abstractmethod
    def state_prompt(self) -> str:
        """Instructions for the LLM: what the state is for and how to use it."""

    def format(self, string: str) -> str:
        """``string`` wrapped in this state's delimiters."""
        return f"{self.delimiters[0]}{string}{self.delimiters[1]}"

    def readable_format(self, string: str) -> str:
        """``string`` formatted for display (a markdown code block)."""
        return f"```markdown\n{string}\n```"

    def __str__(self) -> str:
        return f"{self.readable_name.title()}: {self.state_prompt}"
