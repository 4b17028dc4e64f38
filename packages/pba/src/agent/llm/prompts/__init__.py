"""System prompt templates: ``<name>.txt`` files beside this module.

A template may use ``{name}`` (the agent's name) and ``{state_prompt}`` (the
states and tools, from ``AgentStateMachine.prompt``); other braces are left
as written, so JSON examples need no escaping.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PROMPTS_DIRECTORY", "available_prompts", "load_prompt", "render_prompt"]

PROMPTS_DIRECTORY = Path(__file__).parent


def available_prompts() -> list[str]:
    """The template names (file names without ``.txt``), sorted."""
    return sorted(path.stem for path in PROMPTS_DIRECTORY.glob("*.txt"))


def load_prompt(name: str) -> str:
    """The text of template ``name``.

    Raises:
        FileNotFoundError: no such template (the message lists the available ones).
    """
    path = PROMPTS_DIRECTORY / f"{name}.txt"
    if not path.is_file():
        raise FileNotFoundError(
            f"no system prompt named {name!r} in {PROMPTS_DIRECTORY} "
            f"(available: {', '.join(available_prompts())})"
        )
    return path.read_text(encoding="utf-8")


def render_prompt(template: str, **values: str) -> str:
    """``template`` with each ``{key}`` of ``values`` replaced."""
    for key, value in values.items():
        template = template.replace("{" + key + "}", value)
    return template
