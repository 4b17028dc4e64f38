"""One message in the agent's memory: who said it, what, and how to show it."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from enum import Enum
from typing import Any


class Interaction:
    """A message from the user, the agent, the system or a tool.

    ``content`` is what goes into the prompt; ``title``, ``subtitle``, ``color``
    and ``emoji`` only change how an interface shows it. ``metadata`` carries
    anything else (for example a tool's name or the state that produced it).
    """

    class Role(Enum):
        """Who an interaction comes from (the chat-template role)."""

        ASSISTANT = "assistant"
        SYSTEM = "system"
        TOOL = "tool"
        USER = "user"

    def __init__(
        self,
        role: Interaction.Role = Role.SYSTEM,
        content: Any = "",
        *,
        title: str | None = None,
        subtitle: str | None = None,
        color: str | None = None,
        emoji: str | None = None,
        image_url: str | None = None,
        metadata: dict[str, Any] | None = None,
        interaction_id: str | None = None,
    ) -> None:
        self.role = role
        self.content = content
        self.title = title
        self.subtitle = subtitle
        self.color = color
        self.emoji = emoji
        self.image_url = image_url
        self.metadata: dict[str, Any] = dict(metadata or {})
        self.interaction_id = interaction_id or uuid.uuid4().hex
        self.created_at = datetime.now(timezone.utc)

    @property
    def is_error(self) -> bool:
        """Whether this interaction reports a failure (``metadata["error"]``)."""
        return bool(self.metadata.get("error"))

    def to_dict(self) -> dict[str, Any]:
        """The chat-template message: ``{"role": ..., "content": ...}``."""
        return {"role": self.role.value, "content": str(self.content)}

    def __repr__(self) -> str:
        text = str(self.content)
        short = text if len(text) <= 60 else text[:57] + "..."
        return f"Interaction(role={self.role.value}, title={self.title!r}, content={short!r})"


__all__ = ["Interaction"]
