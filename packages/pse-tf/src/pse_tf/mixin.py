"""``PSETFMixin``: structured generation for ``transformers`` TensorFlow causal LMs.

::

    class PSE_TFMistral(PSETFMixin, TFMistralForCausalLM):
        pass

    model, tokenizer = pse_tf.model.load_model(PSE_TFMistral)   # SmolLM2, no torch
    model.engine = StructuringEngine(tokenizer)
    model.engine.configure(UserProfile)
    output_ids = model.generate(input_ids, max_new_tokens=150, do_sample=True, seed=[0, 1])
    model.engine.get_structured_output(UserProfile)

With an engine that has a structure configured, ``generate`` runs
:func:`pse_tf.sampler.pse_generate` (a Python loop around an XLA-compiled
model step, since the engine runs on the host); otherwise (no engine,
nothing configured) TensorFlow's own ``generate`` runs unchanged.
"""

from __future__ import annotations

from typing import Any

from pse.adapter_setup import engine_sampler, generation_setup, row_engines, runs_engine
from pse_tf.sampler import Sampler, pse_generate

__all__ = ["PSETFMixin"]


class PSETFMixin:
    """Mix in before a ``TFGenerationMixin`` causal-LM class; attach ``model.engine``.

    ``generate()`` then masks the logits with the engine, chooses tokens
    through ``engine`` and stops when the structure is complete, for greedy
    (``do_sample=False``) and sampled decoding (``seed``, temperature, top-k,
    top-p from the generation config). ``generate(sampler=fn)`` replaces the
    token choice (``fn(scores_row) -> token id``); ``sampler=model.engine.sample``
    is accepted and already implied.

    Batches get one engine state per row: ``model.engine`` is row 0,
    :attr:`engines` lists all rows after a call.
    """

    engine: Any = None
    generation_config: Any  # the model class's

    @property
    def engines(self) -> list[Any]:
        """The row engines of the last ``generate`` call (``[engine]`` for one row)."""
        return row_engines(self.engine, "_pse_tf_rows")

    def generate(
        self,
        inputs: Any = None,
        generation_config: Any = None,
        logits_processor: Any = None,
        seed: Any = None,
        *,
        sampler: Sampler | None = None,
        **kwargs: Any,
    ) -> Any:
        engine = self.engine
        custom = engine_sampler(sampler, engine)
        if not runs_engine(engine, custom):
            return super().generate(  # type: ignore[misc]
                inputs, generation_config, logits_processor, seed, **kwargs
            )
        config, streamer, model_kwargs = generation_setup(self, generation_config, kwargs)
        attention_mask = model_kwargs.pop("attention_mask", None)
        if inputs is None:
            inputs = model_kwargs.pop("input_ids", None)
        return pse_generate(
            self,
            inputs,
            config,
            engine=engine,
            sampler=custom,
            seed=seed,
            logits_processor=logits_processor,
            attention_mask=attention_mask,
            streamer=streamer,
        )
