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

import copy
from typing import Any

from pse_tf.sampler import Sampler, pse_generate

__all__ = ["PSETFMixin"]


def _is_engine_sample(sampler: Any, engine: Any) -> bool:
    return (
        getattr(sampler, "__name__", "") == "sample"
        and getattr(sampler, "__self__", None) is engine
    )


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
        if self.engine is None:
            return []
        return [self.engine, *getattr(self.engine, "_pse_tf_rows", [])]

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
        custom = None if _is_engine_sample(sampler, engine) else sampler
        if engine is None or (engine.state_machine is None and custom is None):
            return super().generate(  # type: ignore[misc]
                inputs, generation_config, logits_processor, seed, **kwargs
            )
        config = generation_config if generation_config is not None else self.generation_config
        config = copy.deepcopy(config)
        streamer = kwargs.pop("streamer", None)
        model_kwargs = config.update(**kwargs)
        attention_mask = model_kwargs.pop("attention_mask", None)
        if inputs is None:
            inputs = model_kwargs.pop("input_ids", None)
        self._validate_model_kwargs(dict(model_kwargs))  # type: ignore[attr-defined]
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
