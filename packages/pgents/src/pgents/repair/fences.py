"""Markdown code fences: find the JSON an LLM wrapped in ```` ```json ... ``` ````."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["fenced_blocks"]

_FENCE_RE: Final = re.compile(r"(`{3,})[\w+.-]*[^\S\n]*\n?(.*?)\n?(?:\1|`{3,}|\Z)", re.DOTALL)


def fenced_blocks(text: str) -> list[str]:
    """The bodies of the fenced blocks in ``text`` (an unclosed last fence runs
    to the end of the text); empty when there is no fence. The line break
    before a closing fence belongs to the fence, not to the body."""
    if "```" not in text:
        return []
    return [m.group(2) for m in _FENCE_RE.finditer(text) if m.group(2).strip()]
