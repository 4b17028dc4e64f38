"""``PSEMLXMixin``: structured generation for mlx-lm model classes.

::

    from mlx_lm.models import llama
    from mlx_lm.utils import load_model

    class PSE_Llama(PSEMLXMixin, llama.Model):
        pass

    model, _ = load_model(path, get_model_classes=lambda config: (PSE_Llama, llama.ModelArgs))
    model.engine = StructuringEngine(tokenizer)
    model.engine.configure(UserProfile)
    ids = model.generate(prompt_ids, max_tokens=150, sampler=make_sampler(temp=0.7))
    model.engine.get_structured_output(UserProfile)

The model stays an ordinary mlx-lm model (``mlx_lm.generate`` and friends
take it as before); the mixin adds :meth:`~PSEMLXMixin.generate`,
:meth:`~PSEMLXMixin.stream` and :meth:`~PSEMLXMixin.generate_batch`, which
run mlx-lm's own loops (``generate_step``, ``BatchGenerator``) with the
engine's processor and sampler. With no engine attached, or nothing
configured, they generate unconstrained, as pse-torch's mixin does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import mlx.core as mx
from mlx_lm.generate import BatchGenerator, generate_step

from pse.batch import make_row_engine
from pse_mlx.processor import PSELogitsProcessor
from pse_mlx.sampler import PSESampler, Sampler

__all__ = ["PSEMLXMixin"]


class PSEMLXMixin:
    """Mix in before an mlx-lm ``Model`` class; attach the engine as ``model.engine``.

    ``sampler`` arguments are mlx-lm samplers (``make_sampler(temp=...)``;
    greedy by default) that choose among the allowed tokens; ``prompt_cache``
    is an mlx-lm prompt cache (``make_prompt_cache``, ``load_prompt_cache``)
    holding a prefix of the prompt, updated in place as in ``generate_step``.
    """

    engine: Any = None

    @property
    def engines(self) -> list[Any]:
        """The row engines of the last call (``[engine]`` for one row)."""
        if self.engine is None:
            return []
        return [self.engine, *getattr(self.engine, "_pse_mlx_rows", [])]

    def stream(
        self,
        prompt: Sequence[int] | mx.array,
        *,
        max_tokens: int = 256,
        sampler: Sampler | None = None,
        logits_processors: Sequence[Any] = (),
        prompt_cache: Any = None,
        **kwargs: Any,
    ) -> Iterator[int]:
        """Yield the generated token ids (the end-of-sequence token included) as
        ``generate_step`` produces them; other keyword arguments go to it.

        Raises:
            NoValidTokenError: the structure allows no token at some step.
            BudgetError: ``max_tokens`` cannot hold the shortest completion.
        """
        engine = self.engine
        processors = list(logits_processors)
        if engine is not None and engine.state_machine is not None:
            processor = PSELogitsProcessor(engine)
            processors.insert(0, processor)
            sampler = PSESampler(processor, sampler, max_tokens)
        eos = set(engine.native_vocabulary.eos_token_ids) if engine is not None else set()
        prompt_ids = prompt if isinstance(prompt, mx.array) else mx.array(list(prompt))
        steps = generate_step(
            prompt_ids,
            self,
            max_tokens=max_tokens,
            sampler=sampler,
            logits_processors=processors or None,
            prompt_cache=prompt_cache,
            **kwargs,
        )
        for token, _ in steps:
            yield int(token)
            if token in eos:
                return

    def generate(self, prompt: Sequence[int] | mx.array, **kwargs: Any) -> list[int]:
        """The generated token ids (see :meth:`stream` for the arguments)."""
        return list(self.stream(prompt, **kwargs))

    def generate_batch(
        self,
        prompts: Sequence[Sequence[int]],
        *,
        max_tokens: int = 256,
        sampler: Sampler | None = None,
        **kwargs: Any,
    ) -> list[list[int]]:
        """Generate for several prompts at once with mlx-lm's ``BatchGenerator``.

        Each row gets its own engine state (``engines[0]`` is ``model.engine``),
        processor and sampler. Returns each row's token ids (end token included).
        Other keyword arguments go to ``BatchGenerator``.
        """
        engine = self.engine
        rows = len(prompts)
        samplers: list[Any] | None = None
        processors: list[list[Any]] | None = None
        stop: list[list[int]] = []
        if engine is not None:
            stop = [[int(t)] for t in engine.native_vocabulary.eos_token_ids]
        if engine is not None and engine.state_machine is not None:
            spare = list(getattr(engine, "_pse_mlx_rows", []))
            engines = [engine] + [
                spare.pop(0) if spare else make_row_engine(engine) for _ in range(rows - 1)
            ]
            engine._pse_mlx_rows = engines[1:]
            for row in engines:
                row.state_machine = engine.state_machine
            row_processors = [PSELogitsProcessor(row) for row in engines]
            processors = [[p] for p in row_processors]
            samplers = [PSESampler(p, sampler, max_tokens) for p in row_processors]
        generator = BatchGenerator(
            self,
            max_tokens=max_tokens,
            stop_tokens=stop or None,
            sampler=sampler,
            **kwargs,
        )
        try:
            uids = generator.insert(
                [list(p) for p in prompts],
                [max_tokens] * rows,
                samplers=samplers,
                logits_processors=processors,
            )
            out: dict[int, list[int]] = {uid: [] for uid in uids}
            while responses := generator.next_generated():
                for response in responses:
                    out[response.uid].append(int(response.token))
        finally:
            generator.close()
        return [out[uid] for uid in uids]
