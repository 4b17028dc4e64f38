"""Every runnable Python block of the documentation pages (docs/**/*.md) runs as written.

The conventions (also in docs/contributing.md):

* A fenced block whose info string is ``python`` runs. The blocks of one page run
  in order in one namespace, so a later block may use names an earlier one made.
* A ```` ```text ```` block that directly follows a Python block (only blank lines
  between) is that block's expected standard output, compared line by line
  (trailing spaces ignored).
* An HTML comment on the line just before a block marks it:
  ``<!-- docs-test: skip REASON -->`` never runs (a fragment, or it needs a GPU
  or a network); ``<!-- docs-test: requires MODULE -->`` runs only where MODULE
  imports (a framework), else it is reported as skipped with the module's name;
  ``<!-- docs-test: model -->`` loads the embedded SmolLM2 model (pytest marker
  ``model``). Markers combine: ``<!-- docs-test: model requires torch -->``.

Pages whose examples another test already runs are left out here (``OWNED``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"

# Pages whose blocks another engineer's test executes; running them twice here
# would only duplicate that test.
OWNED = {
    "grammar.md": "tests/pse/grammar/test_lark_docs.py",
    "grammar_languages.md": "tests/pse/grammar/test_fenced_code.py",
}

FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*docs-test:\s*(.*?)\s*-->$")


@dataclass
class Block:
    page: str
    line: int
    code: str
    expected: str | None = None
    skip: str | None = None
    requires: list[str] = field(default_factory=list)
    model: bool = False


def parse_page(path: Path) -> list[Block]:
    """The Python blocks of one page, with their markers and expected output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(DOCS).as_posix()
    blocks: list[Block] = []
    pending: Block | None = None  # the last Python block, until a non-blank line
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            if lines[index].strip():
                pending = None
            index += 1
            continue
        fence, language = opening.groups()
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != fence:
            end += 1
        if end == len(lines):
            raise ValueError(f"{page}:{index + 1}: unclosed code fence")
        body = "\n".join(lines[index + 1 : end])
        if language == "python":
            block = Block(page, index + 1, body + "\n")
            _apply_marker(block, _previous_line(lines, index))
            blocks.append(block)
            pending = block
        elif language == "text" and pending is not None:
            pending.expected = body
            pending = None
        else:
            pending = None
        index = end + 1
    return blocks


def _previous_line(lines: list[str], index: int) -> str:
    return lines[index - 1].strip() if index > 0 else ""


def _apply_marker(block: Block, line: str) -> None:
    match = MARKER.match(line)
    if match is None:
        return
    words = match.group(1).split()
    if not words:
        raise ValueError(f"{block.page}:{block.line}: empty docs-test marker")
    position = 0
    while position < len(words):
        word = words[position]
        if word == "skip":
            block.skip = " ".join(words[position + 1 :]) or "marked skip"
            return
        if word == "model":
            block.model = True
        elif word == "requires" and position + 1 < len(words):
            position += 1
            block.requires.append(words[position])
        else:
            raise ValueError(f"{block.page}:{block.line}: unknown docs-test marker {word!r}")
        position += 1


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if p.relative_to(DOCS).as_posix() not in OWNED)


def _cases() -> list[Any]:
    cases = []
    for path in _pages():
        for block in parse_page(path):
            marks = [pytest.mark.model] if block.model else []
            cases.append(pytest.param(block, id=f"{block.page}:{block.line}", marks=marks))
    return cases


def _installed(module: str) -> bool:
    """Whether ``module`` imports as a real package (tests/torch, tests/tf, ... on
    pytest's path are namespace packages of the same names and do not count)."""
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.origin not in (None, "namespace")


# One namespace per page; blocks run in file order (pytest keeps parameter order).
_NAMESPACES: dict[str, dict[str, Any]] = {}


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.mark.parametrize("block", _cases())
def test_block(block: Block) -> None:
    if block.skip is not None:
        pytest.skip(f"docs/{block.page}:{block.line}: marked skip: {block.skip}")
    missing = [name for name in block.requires if not _installed(name)]
    if missing:
        pytest.skip(f"docs/{block.page}:{block.line}: needs {', '.join(missing)} (not installed)")
    namespace = _NAMESPACES.setdefault(block.page, {"__name__": "docs_example"})
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = compile(block.code, f"docs/{block.page}:{block.line}", "exec", dont_inherit=True)
        exec(code, namespace)
    if block.expected is not None:
        assert _normalise(captured.getvalue()) == _normalise(block.expected)


def test_owned_pages_exist() -> None:
    """The pages left to other tests are still there, and so are those tests."""
    root = DOCS.parent
    for page, test in OWNED.items():
        assert (DOCS / page).is_file(), page
        assert (root / test).is_file(), test
