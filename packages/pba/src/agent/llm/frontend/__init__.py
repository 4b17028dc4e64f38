"""``Frontend``: the interface every LLM backend implements for the agent.

A frontend loads a model and its :class:`~agent.llm.tokenizer.Tokenizer` and
runs constrained generation with a ``StructuringEngine``, yielding token ids
as they are produced. The backends (``torch``, ``mlx``) are imported only when
chosen, by :meth:`Frontend.from_path`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent.llm.tokenizer import Tokenizer
from pse import StructuringEngine

__all__ = ["FRONTENDS", "Frontend"]

# name -> (module, class)
FRONTENDS: dict[str, tuple[str, str]] = {
    "torch": ("agent.llm.frontend.torch", "TorchInference"),
    "mlx": ("agent.llm.frontend.mlx", "MLXInference"),
}


class Frontend(ABC):
    """A loaded model that generates under a ``StructuringEngine``."""

    tokenizer: Tokenizer

    @abstractmethod
    def inference(
        self, prompt: list[int], engine: StructuringEngine, **kwargs: Any
    ) -> Iterator[int]:
        """Generate after ``prompt`` (token ids) under ``engine``; yield each new token id.

        Keyword arguments: ``max_tokens``, ``temp`` (0: greedy), ``seed``,
        ``top_k``, ``top_p``; backends may accept more.
        """

    def supports_reusing_prompt_cache(self) -> bool:
        """Whether :meth:`save_cache_to_file`/:meth:`load_cache_from_file` work."""
        return False

    def save_cache_to_file(self, cache_file: str | Path) -> None:
        raise NotImplementedError(f"{type(self).__name__} keeps no prompt cache")

    def load_cache_from_file(self, cache_file: str | Path) -> None:
        raise NotImplementedError(f"{type(self).__name__} keeps no prompt cache")

    @staticmethod
    def from_path(
        model_path: str | Path | None,
        frontend: str = "torch",
        say: Callable[[str], None] | None = None,
        **options: Any,
    ) -> Frontend:
        """Load ``model_path`` (``None``: the embedded SmolLM2-135M-Instruct) with ``frontend``.

        ``say`` receives progress messages; ``options`` go to the frontend's
        constructor (``num_threads`` for torch).

        Raises:
            ValueError: an unknown frontend name.
            FileNotFoundError: ``model_path`` is not a model directory.
            ImportError: the frontend's adapter is not installed (names the extra).
        """
        if frontend not in FRONTENDS:
            raise ValueError(
                f"unknown frontend {frontend!r}; available: {', '.join(sorted(FRONTENDS))}"
            )
        if model_path is not None:
            check_model_path(model_path)
        module_name, class_name = FRONTENDS[frontend]
        # The module raises an ImportError naming the extra when its adapter is missing.
        factory: Callable[..., Frontend] = getattr(importlib.import_module(module_name), class_name)
        return factory(model_path, say=say, **options)


def check_model_path(model_path: str | Path) -> Path:
    """``model_path`` as a directory holding a Hugging Face model, or a clear error."""
    path = Path(model_path).expanduser()
    if not path.exists():
        raise FileNotFoundError(f"model path {str(path)!r} does not exist")
    if not path.is_dir():
        raise FileNotFoundError(
            f"model path {str(path)!r} is not a directory (expected a Hugging Face model "
            "directory with config.json and the weights)"
        )
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"{str(path)!r} has no config.json: not a Hugging Face model")
    return path
