"""``PSEFlaxMixin``: structured generation for ``transformers`` Flax causal LMs.

::

    class PSE_FlaxLlama(PSEFlaxMixin, FlaxLlamaForCausalLM):
        pass

    model = PSE_FlaxLlama.from_pretrained(path, from_pt=True)
    model.engine = StructuringEngine(tokenizer)
    model.engine.configure(UserProfile)
    output = model.generate(input_ids, max_new_tokens=150, do_sample=True,
                            prng_key=jax.random.PRNGKey(0))
    model.engine.get_structured_output(UserProfile)

With an engine that has a structure configured, ``generate`` runs
:func:`pse_jax.sampler.pse_generate` (a Python loop around a jitted model
step, since the engine runs on the host); otherwise (no engine, nothing
configured) Flax's own ``generate`` runs unchanged.
"""

from __future__ import annotations

from typing import Any

from pse.adapter_setup import engine_sampler, generation_setup, row_engines, runs_engine
from pse_jax.sampler import Sampler, pse_generate, zero_cache

__all__ = ["PSEFlaxMixin"]


class PSEFlaxMixin:
    """Mix in before a ``FlaxGenerationMixin`` causal-LM class; attach ``model.engine``.

    ``generate()`` then masks the logits with the engine, chooses tokens
    through ``engine`` and stops when the structure is complete, for greedy
    (``do_sample=False``) and sampled decoding (``prng_key``, temperature,
    top-k, top-p from the generation config). ``generate(sampler=fn)``
    replaces the token choice (``fn(scores_row) -> token id``); ``streamer=``
    takes a transformers ``BaseStreamer`` (as the PyTorch ``generate`` does);
    ``sampler=model.engine.sample`` is accepted and already implied.

    Batches get one engine state per row: ``model.engine`` is row 0,
    :attr:`engines` lists all rows after a call.
    """

    engine: Any = None
    generation_config: Any  # the model class's

    @property
    def engines(self) -> list[Any]:
        """The row engines of the last ``generate`` call (``[engine]`` for one row)."""
        return row_engines(self.engine, "_pse_jax_rows")

    def init_cache(self, batch_size: int, max_length: int) -> Any:
        """Flax's empty cache, without initializing the model each time (see ``zero_cache``)."""
        return zero_cache(self, batch_size, max_length, super().init_cache)  # type: ignore[misc]

    def generate(
        self,
        input_ids: Any,
        generation_config: Any = None,
        prng_key: Any = None,
        trace: bool = True,
        params: Any = None,
        logits_processor: Any = None,
        *,
        sampler: Sampler | None = None,
        **kwargs: Any,
    ) -> Any:
        engine = self.engine
        custom = engine_sampler(sampler, engine)
        if not runs_engine(engine, custom):
            return super().generate(  # type: ignore[misc]
                input_ids,
                generation_config,
                prng_key=prng_key,
                trace=trace,
                params=params,
                logits_processor=logits_processor,
                **kwargs,
            )
        config, streamer, model_kwargs = generation_setup(self, generation_config, kwargs)
        return pse_generate(
            self,
            input_ids,
            config,
            engine=engine,
            sampler=custom,
            prng_key=prng_key,
            params=params,
            logits_processor=logits_processor,
            streamer=streamer,
            explicit_max_length=kwargs.get("max_length") is not None,
            **model_kwargs,
        )
