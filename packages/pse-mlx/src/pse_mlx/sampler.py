"""A sampler for mlx-lm's ``sampler=`` that chooses within the structure.

::

    processor = PSELogitsProcessor(engine)
    sampler = PSESampler(processor, make_sampler(temp=0.7), max_tokens=200)
    for response in mlx_lm.stream_generate(
        model, tokenizer, prompt, max_tokens=200, sampler=sampler, logits_processors=[processor]
    ):
        ...

mlx-lm calls ``sampler(logprobs)`` once per step, after the logits processors,
and appends the one token it returns. :class:`PSESampler` draws with the
given mlx-lm sampler (greedy by default) and advances the engine in the same
step (one native call, through :meth:`pse.batch.EngineBatch.choose`), so

* with ``max_tokens`` the output stays completable within the budget (one
  token is kept for the end-of-sequence token; see docs/budget.md);
* with multi-token sampling, the forced continuation is queued and the
  processor forces it one token per step (mlx-lm appends one token per step);
* once the structure is complete with nothing but end tokens left, the
  end-of-sequence token is queued, so generation stops.

Without a configured structure the given sampler runs unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mlx.core as mx

from pse.batch import token_budget
from pse_mlx.processor import PSELogitsProcessor

__all__ = ["PSESampler", "greedy"]

Sampler = Callable[[mx.array], mx.array]


def greedy(logprobs: mx.array) -> mx.array:
    """mlx-lm's default choice: the most likely token."""
    return mx.argmax(logprobs, axis=-1)


class PSESampler:
    """``sampler=`` for mlx-lm, paired with the :class:`PSELogitsProcessor` it shares state with.

    Args:
        processor: the processor passed in ``logits_processors``.
        sampler: the token choice on the masked log-probabilities, e.g.
            ``mlx_lm.sample_utils.make_sampler(temp=0.7, top_p=0.9)``; greedy
            by default.
        max_tokens: the generation's ``max_tokens``: enables budget-aware
            completion when the engine's ``budget_aware`` is true.
    """

    def __init__(
        self,
        processor: PSELogitsProcessor,
        sampler: Sampler | None = None,
        max_tokens: int | None = None,
    ) -> None:
        self.processor = processor
        self.sampler = sampler or greedy
        self.max_tokens = max_tokens

    def __call__(self, logprobs: mx.array) -> mx.array:
        engine = self.processor.engine
        batch = self.processor.loop.batch
        if engine.state_machine is None or batch is None:
            return self.sampler(logprobs)
        if logprobs.ndim == 2 and logprobs.shape[0] != 1:
            raise ValueError(
                "PSESampler chooses for one sequence; give each batch row its own "
                "processor and sampler (see pse_mlx.mixin.PSEMLXMixin.generate_batch)"
            )
        row_logprobs = logprobs[0] if logprobs.ndim == 2 else logprobs
        if batch.pending[0]:  # forced by the structure (and masked to it)
            return mx.array([batch.pending[0][0]], dtype=mx.uint32)
        history = len(engine.token_ids_history)
        if batch.done[0] or (self.max_tokens is not None and history >= self.max_tokens):
            return self.sampler(logprobs)  # past the end: mlx-lm computes one step ahead
        budget = token_budget(engine, self.max_tokens, history, finish=True)
        eos = engine.native_vocabulary.eos_token_ids
        finish = int(eos[0]) if eos else None
        ids = batch.choose(0, row_logprobs, self._choose, budget, finish)
        return mx.array([ids[0]], dtype=mx.uint32)

    def _choose(self, logprobs: Any) -> Any:
        return self.sampler(logprobs[None] if logprobs.ndim == 1 else logprobs)
