"""Token choice and the PSE decoding loop for Flax causal LMs (transformers 4.57).

Flax's ``generate`` traces its whole loop (``lax.while_loop``) into one XLA
program, so a host-side engine cannot choose tokens inside it. :func:`pse_generate`
keeps the model step compiled and the loop in Python:

* one jitted forward pass (``model(tokens, params=..., past_key_values=...)``
  on a static-size cache, as Flax's own loop uses), compiled once per prompt
  shape and once for the one-token step; prompts are left-padded (masked) to a
  multiple of :data:`PROMPT_BUCKET` tokens and the cache rounded up to a
  multiple of :data:`CACHE_BUCKET`, so calls with other prompts and lengths
  reuse the compiled programs;
* per step, the rows' engines fill the packed bitmask on the host
  (:class:`pse.host_loop.HostLoop`), :func:`~pse_jax.mask.apply_token_bitmask`
  masks the logits on the device *before* the generation config's processors
  and warpers (temperature, top-k, top-p, ...), and each row's token is chosen
  with ``jnp.argmax`` or ``jax.random.categorical`` through the engine
  (budget, resampling, multi-token continuations);
* forced continuations are fed one token per step, so the step keeps one shape;
* a row whose structure is complete gets EOS without another choice;
* a ``streamer`` (transformers' ``BaseStreamer`` protocol: ``put`` the
  prompt, then each step's new ids, then ``end``) sees the tokens as they come.

The cost of the host loop is one device-to-host transfer of the chosen ids per
step plus the engine's work (microseconds); ``benchmarks/bench_e2e.py
--framework jax`` measures it against the same loop without an engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from transformers.generation.flax_logits_process import FlaxLogitsProcessorList
from transformers.generation.flax_utils import FlaxGreedySearchOutput, FlaxSampleOutput

from pse.adapter_setup import transformers_processors
from pse.host_loop import HostLoop
from pse_jax.mask import apply_token_bitmask

__all__ = [
    "CACHE_BUCKET",
    "PROMPT_BUCKET",
    "make_sampler",
    "max_length_for",
    "pse_generate",
    "zero_cache",
]

Sampler = Callable[[Any], Any]
#: Prompts are left-padded to a multiple of this many tokens.
PROMPT_BUCKET = 64
#: The key/value cache holds a multiple of this many tokens.
CACHE_BUCKET = 256


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def make_sampler(do_sample: bool, prng_key: jax.Array | None = None) -> Sampler:
    """The sampler the engine calls: a scores row -> token id (argmax or categorical).

    Sampling splits ``prng_key`` (default ``PRNGKey(0)``) at every call, so a
    seeded key gives a reproducible output.
    """
    if not do_sample:
        return lambda scores: int(jnp.argmax(scores, axis=-1))
    state = {"key": prng_key if prng_key is not None else jax.random.PRNGKey(0)}

    def sample(scores: Any) -> int:
        state["key"], key = jax.random.split(state["key"])
        return int(jax.random.categorical(key, scores, axis=-1))

    return sample


def max_length_for(generation_config: Any, prompt_length: int, explicit_max_length: bool) -> int:
    """The total length limit, as Flax's ``generate`` computes it."""
    if generation_config.max_new_tokens is not None:
        return int(generation_config.max_new_tokens) + prompt_length
    limit = int(generation_config.max_length)
    if not explicit_max_length and limit == 20:  # the model-agnostic default: 20 new tokens
        return limit + prompt_length
    return limit


def zero_cache(model: Any, batch_size: int, max_length: int, init_cache: Any = None) -> Any:
    """The model's empty key/value cache for ``(batch_size, max_length)``.

    Flax's ``init_cache`` initializes the whole model op by op to get the
    cache's structure (seconds per call on a CPU); its shapes are computed once
    per size with ``jax.eval_shape`` and the cache is made of zeros, which is
    what ``init_cache`` returns.
    """
    shapes = model.__dict__.setdefault("_pse_jax_cache_shapes", {})
    key = (batch_size, max_length)
    if key not in shapes:
        init = init_cache or model.init_cache
        shapes[key] = jax.eval_shape(lambda: init(batch_size, max_length))
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes[key])


def _forward(model: Any) -> Any:
    """The model's jitted step: ``(params, tokens, kwargs) -> (last logits, next kwargs)``."""
    step = model.__dict__.get("_pse_jax_step")
    if step is None:

        def forward(params: Any, tokens: jax.Array, kwargs: dict[str, Any]) -> Any:
            outputs = model(tokens, params=params, **kwargs)
            logits = outputs.logits[:, -1].astype(jnp.float32)
            return logits, model.update_inputs_for_generation(outputs, dict(kwargs))

        step = model.__dict__["_pse_jax_step"] = jax.jit(forward)
    return step


def pse_generate(
    model: Any,
    input_ids: Any,
    generation_config: Any,
    *,
    engine: Any,
    sampler: Sampler | None = None,
    prng_key: jax.Array | None = None,
    params: Any = None,
    logits_processor: Any = None,
    streamer: Any = None,
    explicit_max_length: bool = False,
    **model_kwargs: Any,
) -> FlaxGreedySearchOutput | FlaxSampleOutput:
    """Greedy or sampled decoding constrained by ``engine`` (see the module docs).

    Returns Flax's output type, ``sequences`` of shape ``(batch, max_length)``
    padded with the pad token, as ``FlaxGenerationMixin.generate`` does.
    Afterwards ``engine`` holds row 0's state and ``engine._pse_jax_rows`` the
    other rows' engines.

    Raises:
        NoValidTokenError: a row allows no token at all.
        BudgetError: ``max_new_tokens`` cannot complete the structure.
    """
    if model.config.is_encoder_decoder:
        raise NotImplementedError("pse-jax supports decoder-only models")
    config = generation_config
    input_ids = jnp.asarray(input_ids, dtype=jnp.int32)
    prompt_length = input_ids.shape[1]
    max_length = max_length_for(config, prompt_length, explicit_max_length)
    if max_length <= prompt_length:
        raise ValueError(f"max_length {max_length} leaves no room after {prompt_length} tokens")

    prompt = np.asarray(input_ids)
    loop = HostLoop(engine, prompt, max_length, config, "_pse_jax_rows", streamer)
    choose = sampler or make_sampler(bool(config.do_sample), prng_key)
    processors, warpers = transformers_processors(
        model, config, prompt_length, logits_processor, FlaxLogitsProcessorList
    )

    def process(scores: jax.Array, sequences: np.ndarray, length: int) -> jax.Array:
        return warpers(None, processors(jnp.asarray(sequences), scores, length), length)

    mask = model_kwargs.get("attention_mask")
    mask = np.ones_like(prompt) if mask is None else np.asarray(mask)
    padding = _round_up(prompt_length, PROMPT_BUCKET) - prompt_length
    padded_ids = np.pad(prompt, ((0, 0), (padding, 0)))
    padded_mask = np.pad(mask.astype(np.int32), ((0, 0), (padding, 0)))
    cache_length = _round_up(max_length + padding, CACHE_BUCKET)
    forward = _forward(model)
    params = params if params is not None else model.params
    kwargs = model.prepare_inputs_for_generation(
        jnp.asarray(padded_ids), cache_length, attention_mask=jnp.asarray(padded_mask)
    )
    logits, kwargs = forward(params, jnp.asarray(padded_ids), kwargs)
    while True:
        tokens = loop.step(logits, apply_token_bitmask, process, choose)
        if loop.finished:
            break
        logits, kwargs = forward(params, jnp.asarray(tokens)[:, None], kwargs)
    loop.end()
    output = FlaxSampleOutput if config.do_sample else FlaxGreedySearchOutput
    return output(sequences=jnp.asarray(loop.sequences))
