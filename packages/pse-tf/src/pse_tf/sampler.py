"""Token choice and the PSE decoding loop for TensorFlow causal LMs (transformers 4.57).

TensorFlow runs a causal LM eagerly at a few tokens per second on a CPU; only
an XLA-compiled step is fast, and XLA cannot call the host-side engine. So
:func:`pse_generate` keeps the model step compiled and the loop in Python:

* the prompt runs once eagerly (any length, nothing to compile);
* the one-token step is ``tf.function(jit_compile=True)`` on the padded
  key/value cache that transformers' own XLA generation uses
  (``_update_model_kwargs_for_xla_generation``), compiled once per batch size
  and cache size (rounded up to :data:`CACHE_BUCKET` tokens, so prompts of
  different lengths share it);
* per step, the rows' engines fill the packed bitmask on the host
  (:class:`pse.host_loop.HostLoop`), :func:`~pse_tf.mask.apply_token_bitmask`
  masks the logits *before* the generation config's processors and warpers
  (temperature, top-k, top-p, ...), and each row's token is chosen with
  ``tf.argmax`` or ``tf.random.stateless_categorical`` through the engine
  (budget, resampling, multi-token continuations);
* forced continuations are fed one token per step, so the step keeps one shape;
* a row whose structure is complete gets EOS without another choice;
* a ``streamer`` (transformers' ``BaseStreamer`` protocol: ``put`` the
  prompt, then each step's new ids, then ``end``) sees the tokens as they come.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from transformers.generation.tf_logits_process import TFLogitsProcessorList

from pse.adapter_setup import transformers_processors
from pse.host_loop import HostLoop
from pse_tf.mask import apply_token_bitmask

__all__ = ["CACHE_BUCKET", "make_sampler", "pse_generate"]

Sampler = Callable[[Any], Any]
#: The compiled step's cache holds a multiple of this many tokens.
CACHE_BUCKET = 256


def make_sampler(do_sample: bool, seed: Any = None) -> Sampler:
    """The sampler the engine calls: a scores row -> token id (argmax or categorical).

    ``seed`` (an int or a pair of ints, as ``TFGenerationMixin.generate`` takes)
    makes sampling reproducible.
    """
    if not do_sample:
        return lambda scores: int(tf.argmax(scores, axis=-1))
    if seed is None:
        generator = tf.random.Generator.from_non_deterministic_state()
    else:
        generator = tf.random.Generator.from_seed(int(np.sum(np.asarray(seed, dtype=np.int64))))

    def sample(scores: Any) -> int:
        row = tf.reshape(scores, (1, -1))
        chosen = tf.random.stateless_categorical(row, 1, seed=generator.make_seeds(1)[:, 0])
        return int(chosen[0, 0])

    return sample


def _step(model: Any, batch_size: int, cache_length: int) -> Any:
    """The XLA-compiled one-token step for ``(batch_size, cache_length)``:
    ``(tokens, kwargs, length) -> (last logits, next kwargs)``."""
    steps = model.__dict__.setdefault("_pse_tf_steps", {})
    key = (batch_size, cache_length)
    if key not in steps:

        def step(tokens: tf.Tensor, kwargs: dict[str, Any], length: tf.Tensor) -> Any:
            inputs = model.prepare_inputs_for_generation(tokens, use_cache=True, **kwargs)
            outputs = model(**inputs, return_dict=True)
            following = model._update_model_kwargs_for_xla_generation(
                outputs, dict(kwargs), length + 1, cache_length, batch_size
            )
            return tf.cast(outputs.logits[:, -1], tf.float32), following

        steps[key] = tf.function(step, jit_compile=True)
    return steps[key]


def _prefill(model: Any, input_ids: tf.Tensor, attention_mask: tf.Tensor, cache_length: int) -> Any:
    """Run the prompt eagerly; return its last logits and the padded cache for the step."""
    batch_size, length = input_ids.shape
    inputs = model.prepare_inputs_for_generation(
        input_ids, attention_mask=attention_mask, use_cache=True
    )
    outputs = model(**inputs, return_dict=True)
    kwargs = model._update_model_kwargs_for_xla_generation(
        outputs, {"attention_mask": attention_mask}, length + 1, cache_length, batch_size
    )
    return tf.cast(outputs.logits[:, -1], tf.float32), kwargs


def _max_length(config: Any, prompt_length: int) -> int:
    """The total length limit, as ``TFGenerationMixin.generate`` computes it."""
    if config.max_new_tokens is not None:
        return int(config.max_new_tokens) + prompt_length
    return int(config.max_length)


def pse_generate(
    model: Any,
    input_ids: Any,
    generation_config: Any,
    *,
    engine: Any,
    sampler: Sampler | None = None,
    seed: Any = None,
    logits_processor: Any = None,
    streamer: Any = None,
    attention_mask: Any = None,
) -> tf.Tensor:
    """Greedy or sampled decoding constrained by ``engine`` (see the module docs).

    Returns ``int32[batch, length]``: the prompt and the new tokens, rows that
    ended early padded with the pad token (as TF's eager ``generate`` returns).
    Afterwards ``engine`` holds row 0's state and ``engine._pse_tf_rows`` the
    other rows' engines.

    Raises:
        NoValidTokenError: a row allows no token at all.
        BudgetError: ``max_new_tokens`` cannot complete the structure.
    """
    if model.config.is_encoder_decoder:
        raise NotImplementedError("pse-tf supports decoder-only models")
    config = copy.deepcopy(generation_config)
    input_ids = tf.convert_to_tensor(input_ids, dtype=tf.int32)
    batch_size, prompt_length = (int(n) for n in input_ids.shape)
    max_length = _max_length(config, prompt_length)
    if max_length <= prompt_length:
        raise ValueError(f"max_length {max_length} leaves no room after {prompt_length} tokens")
    cache_length = -(-(max_length + 1) // CACHE_BUCKET) * CACHE_BUCKET
    if attention_mask is None:
        attention_mask = tf.ones_like(input_ids)
    attention_mask = tf.cast(tf.convert_to_tensor(attention_mask), tf.int32)

    loop = HostLoop(engine, input_ids.numpy(), max_length, config, "_pse_tf_rows", streamer)
    choose = sampler or make_sampler(bool(config.do_sample), seed)
    processors, warpers = transformers_processors(
        model, config, prompt_length, logits_processor, TFLogitsProcessorList
    )

    def process(scores: tf.Tensor, sequences: np.ndarray, length: int) -> tf.Tensor:
        ids_so_far = tf.constant(sequences)
        return warpers(ids_so_far, processors(ids_so_far, scores, length), length)

    logits, kwargs = _prefill(model, input_ids, attention_mask, cache_length)
    step = _step(model, batch_size, cache_length)
    while True:
        tokens = loop.step(logits, apply_token_bitmask, process, choose)
        if loop.finished:
            break
        length = tf.constant(loop.length, tf.int32)
        logits, kwargs = step(tf.constant(tokens[:, None]), kwargs, length)
    loop.end()
    return tf.constant(loop.sequences[:, : loop.length])
