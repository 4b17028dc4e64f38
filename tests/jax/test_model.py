"""The real SmolLM2-135M-Instruct in Flax under PSE (``model`` marker).

The cases all adapters share (``tests/_support/adapter_cases.py``): the
converted model computes what transformers' PyTorch Llama computes; greedy
and sampled outputs parse and validate with ``jsonschema`` and end within
``max_new_tokens``; a batch of two different prompts; the budget; the bad
inputs (no engine, nothing configured, nothing allowed, a budget below the
shortest completion). Here: the ``FlaxLogitsProcessor`` inside Flax's compiled
loop. The 8 bench schemas and a MaskBench/BFCL sample are ``slow``
(``nox -s tests-jax -- -m slow``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _support.adapter_cases import ModelCases
from pse_jax import PSEFlaxLogitsProcessor
from transformers.generation.flax_logits_process import FlaxLogitsProcessorList

from pse import StructuringEngine

pytestmark = pytest.mark.model


class TestJAXModel(ModelCases):
    adapter = "pse_jax"
    documented = "pse.util.jax_mixin"
    mixin = "PSEFlaxMixin"

    def run_generate(
        self, model: Any, ids: np.ndarray, seed: int | None = None, **kwargs: Any
    ) -> np.ndarray:
        key = None if seed is None else jax.random.PRNGKey(seed)
        return np.asarray(model.generate(ids, prng_key=key, **kwargs).sequences)

    def argmax(self, scores: Any) -> int:
        return int(jnp.argmax(scores))

    # Each case compiles Flax's own generate loop (about a minute on 2 cores): the
    # unconfigured engine, which takes the same fallback path, runs with `-m slow`.
    @pytest.mark.parametrize(
        "engine", ["none", pytest.param("unconfigured", marks=pytest.mark.slow)]
    )
    def test_without_a_structure_flax_generate_runs(
        self, smollm: tuple[Any, Any], engine: str
    ) -> None:
        """Flax's own loop runs without a structure."""
        self.check_fallback(smollm, engine, new_tokens=6)

    def test_logits_processor_inside_flax_generate(self, smollm: tuple[Any, Any]) -> None:
        """The processor reaches the engine from Flax's compiled loop (io_callback)."""
        engine = StructuringEngine(smollm[1])
        processors = FlaxLogitsProcessorList([PSEFlaxLogitsProcessor(engine)])
        self.check_processor(smollm, engine, processors, new_tokens=12)
