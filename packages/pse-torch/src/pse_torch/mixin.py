"""``PSETorchMixin``: structured generation for any ``transformers`` causal LM.

::

    class PSE_Llama(PSETorchMixin, LlamaForCausalLM):
        pass

    model = PSE_Llama.from_pretrained(path)
    model.engine = StructuringEngine(tokenizer)
    model.engine.configure(UserProfile)
    output_ids = model.generate(input_ids, max_new_tokens=150, do_sample=True)
    model.engine.get_structured_output(UserProfile)

``generate()`` in transformers 5.x looks the decoding loop up as
``type(self)._sample`` for both greedy decoding and sampling, so overriding
``_sample`` is the narrowest hook: argument preparation, generation config,
logits warpers and stopping criteria stay transformers' own. With an engine
that has a structure configured, ``_sample`` runs :func:`pse_torch.sampler.pse_sample`;
otherwise (no engine, nothing configured) the stock loop runs unchanged.
"""

from __future__ import annotations

from typing import Any

from pse.adapter_setup import engine_sampler, row_engines, runs_engine
from pse_torch.sampler import Sampler, pse_sample

__all__ = ["PSETorchMixin"]


class PSETorchMixin:
    """Mix in before a ``transformers`` causal-LM class; attach the engine as ``model.engine``.

    ``generate()`` then masks the logits with the engine, chooses tokens with
    ``engine.sample`` and stops when the structure is complete, for greedy
    (``do_sample=False``) and sampled decoding, with the usual generation
    settings. ``generate(sampler=fn)`` replaces the token choice
    (``fn(scores_row) -> token id``); ``sampler=model.engine.sample`` and
    ``logits_processor=[model.engine.process_logits]`` (the documented manual
    hooks) are accepted and already implied.

    Batches get one engine state per row: ``model.engine`` is row 0,
    :attr:`engines` lists all rows after a call.
    """

    engine: Any = None
    _pse_sampler: Sampler | None = None

    @property
    def engines(self) -> list[Any]:
        """The row engines of the last ``generate`` call (``[engine]`` for one row)."""
        return row_engines(self.engine, "_pse_torch_rows")

    def generate(self, *args: Any, sampler: Sampler | None = None, **kwargs: Any) -> Any:
        previous = self._pse_sampler
        self._pse_sampler = engine_sampler(sampler, self.engine)
        try:
            return super().generate(*args, **kwargs)  # type: ignore[misc]
        finally:
            self._pse_sampler = previous

    def _sample(
        self,
        input_ids: Any,
        logits_processor: Any,
        stopping_criteria: Any,
        generation_config: Any,
        synced_gpus: bool = False,
        streamer: Any = None,
        **model_kwargs: Any,
    ) -> Any:
        engine = self.engine
        if not runs_engine(engine, self._pse_sampler):
            return super()._sample(  # type: ignore[misc]
                input_ids,
                logits_processor,
                stopping_criteria,
                generation_config,
                synced_gpus=synced_gpus,
                streamer=streamer,
                **model_kwargs,
            )
        return pse_sample(
            self,
            input_ids,
            logits_processor,
            stopping_criteria,
            generation_config,
            synced_gpus,
            streamer,
            engine=engine,
            sampler=self._pse_sampler,
            **model_kwargs,
        )
