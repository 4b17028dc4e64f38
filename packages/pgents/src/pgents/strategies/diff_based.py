"""Diff-based patching (Phase 4.1): the model emits edits, the parser applies them."""

from __future__ import annotations

import re
from typing import Final

from pgents.confidence import BASE, with_repairs
from pgents.protocol import BaseParser
from pgents.result import ParseResult

__all__ = ["DiffBasedParser"]

_SED: Final = re.compile(r"^\s*s(?P<d>[/|#,@])(?P<body>.*)$")


def _split_sed(body: str, delim: str) -> list[str] | None:
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] in (delim, "\\"):
            current.append(body[i + 1])
            i += 2
            continue
        if ch == delim:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts if len(parts) >= 3 else None


class DiffBasedParser(BaseParser[str]):
    """Applies ``s/old/new/`` (flags ``g``; any of ``/|#,@`` as delimiter) edits
    to ``base_template``; other lines are filler and ignored.

    Deterministic: the same edits give the same document. Edits whose ``old``
    text is missing are skipped and recorded as repairs. Confidence 0.85.
    """

    name = "diff"

    def __init__(self, base_template: str) -> None:
        self.base_template = base_template

    def _parse(self, text: str) -> ParseResult[str]:
        doc = self.base_template
        applied = 0
        repairs: list[str] = []
        for lineno, line in enumerate(text.splitlines(), 1):
            m = _SED.match(line)
            if m is None:
                continue
            parts = _split_sed(m.group("body"), m.group("d"))
            if parts is None:
                repairs.append(f"skipped malformed edit on line {lineno}")
                continue
            old, new, flags = parts[0], parts[1], parts[2].strip()
            if not old or old not in doc:
                repairs.append(f"skipped edit on line {lineno}: {old!r} not found")
                continue
            doc = doc.replace(old, new) if "g" in flags else doc.replace(old, new, 1)
            applied += 1
        if applied == 0:
            return ParseResult.fail("no applicable edit found", self.name, repairs=repairs)
        return ParseResult.ok(
            doc,
            with_repairs(BASE["direct"], len(repairs)),
            self.name,
            repairs=repairs,
            metadata={"applied": applied},
        )
