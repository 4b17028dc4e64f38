"""The README's Python code runs as written (``model`` marker; in ``nox -s tests-torch``).

Every ```` ```python ```` block of README.md is executed in a fresh namespace,
in order, with the real SmolLM2-135M-Instruct (the quickstart converts the
embedded GGUF once into ``$PSE_MODEL_CACHE``). A block that ends with a
structured result checks it: ``profile`` must be the Pydantic model instance
the block asked for.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("pse_torch")

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)

pytestmark = pytest.mark.model


def python_blocks(text: str) -> list[str]:
    return [match.group(1) for match in BLOCK.finditer(text)]


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_python_blocks() -> None:
    assert BLOCKS, "README.md has no python block"


@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=lambda i: f"block{i}")
def test_readme_block_runs(index: int) -> None:
    import torch

    code = BLOCKS[index]
    namespace: dict[str, Any] = {"__name__": f"readme_block_{index}"}
    torch.manual_seed(0)
    exec(compile(code, f"README.md python block {index}", "exec"), namespace)  # noqa: S102
    if "profile" in namespace and "UserProfile" in namespace:
        assert isinstance(namespace["profile"], namespace["UserProfile"])
