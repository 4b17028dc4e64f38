"""The real SmolLM2-135M-Instruct in TensorFlow under PSE (``model`` marker).

The cases all adapters share (``tests/_support/adapter_cases.py``): the
converted model computes what transformers' PyTorch Llama computes; greedy
and sampled outputs parse and validate with ``jsonschema`` and end within
``max_new_tokens``; a batch of two different prompts; the budget; the bad
inputs (no engine, nothing configured, nothing allowed, a budget below the
shortest completion). Here: the ``TFLogitsProcessor`` inside TensorFlow's own
(eager) loop, and refused under XLA. The 8 bench schemas and a MaskBench/BFCL
sample are ``slow`` (``nox -s tests-tf -- -m slow``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tensorflow as tf
from _support.adapter_cases import ModelCases
from pse_tf import PSETFLogitsProcessor
from transformers.generation.tf_logits_process import TFLogitsProcessorList

from pse import StructuringEngine
from pse.types.base.phrase import PhraseStateMachine

pytestmark = pytest.mark.model


class TestTFModel(ModelCases):
    adapter = "pse_tf"
    documented = "pse.util.tf_mixin"
    mixin = "PSETFMixin"

    def run_generate(
        self, model: Any, ids: np.ndarray, seed: int | None = None, **kwargs: Any
    ) -> np.ndarray:
        out = model.generate(ids, seed=None if seed is None else [seed, 0], **kwargs)
        return np.asarray(out)

    def argmax(self, scores: Any) -> int:
        return int(tf.argmax(scores))

    @pytest.mark.parametrize("engine", ["none", "unconfigured"])
    def test_without_a_structure_tf_generate_runs(
        self, smollm: tuple[Any, Any], engine: str
    ) -> None:
        """TensorFlow's own (eager) loop runs without a structure."""
        self.check_fallback(smollm, engine, new_tokens=4)

    def test_logits_processor_inside_tf_generate(self, smollm: tuple[Any, Any]) -> None:
        """The processor masks TensorFlow's own (eager) loop."""
        engine = StructuringEngine(smollm[1], multi_token_sampling=True)
        processors = TFLogitsProcessorList([PSETFLogitsProcessor(engine)])
        self.check_processor(smollm, engine, processors, new_tokens=10)

    def test_logits_processor_refuses_xla(self, smollm: tuple[Any, Any]) -> None:
        _, tok = smollm
        engine = StructuringEngine(tok)
        engine.configure(PhraseStateMachine("x"))
        processor = PSETFLogitsProcessor(engine)
        compiled = tf.function(lambda ids, scores: processor(ids, scores, 1), jit_compile=True)
        with pytest.raises(RuntimeError, match="XLA"):
            compiled(tf.zeros((1, 4), tf.int32), tf.zeros((1, len(tok)), tf.float32))
