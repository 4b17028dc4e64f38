"""The examples of docs/grammar.md run as written, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "grammar.md"


def test_grammar_doc_examples_run() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```$", DOC.read_text(), re.DOTALL | re.MULTILINE)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
