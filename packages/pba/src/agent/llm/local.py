"""``LocalInference``: the agent's model (through a ``Frontend``) and its ``StructuringEngine``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent.llm.frontend import Frontend
from pse import StructuringEngine

__all__ = ["LocalInference"]


class LocalInference:
    """Loads ``model_path`` (``None``: the embedded SmolLM2-135M-Instruct) with
    ``frontend`` and makes the engine the agent configures.

    ``say`` receives progress messages while the model loads or converts;
    ``frontend_options`` go to the frontend (``num_threads`` for torch).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        frontend: str = "torch",
        say: Callable[[str], None] | None = None,
        multi_token_sampling: bool = False,
        **frontend_options: Any,
    ) -> None:
        self.frontend = Frontend.from_path(model_path, frontend, say=say, **frontend_options)
        self.engine = StructuringEngine(
            self.frontend.tokenizer.hf, multi_token_sampling=multi_token_sampling
        )

    def run_inference(
        self, prompt: str | list[dict[str, Any]], **inference_kwargs: Any
    ) -> Iterator[int]:
        """Encode ``prompt`` (chat messages use the chat template) and yield new token ids."""
        encoded = self.frontend.tokenizer.encode(prompt)
        self.engine.reset()
        yield from self.frontend.inference(encoded, self.engine, **inference_kwargs)
