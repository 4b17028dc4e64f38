"""A logits processor for mlx-lm's ``logits_processors=[...]``.

::

    processor = PSELogitsProcessor(engine)
    text = mlx_lm.generate(model, tokenizer, prompt, logits_processors=[processor])

mlx-lm calls ``processor(tokens, logits)`` once per step with the token ids so
far and ``logits`` of shape ``(1, vocab)``. The processor advances the engine
with the ids appended since the last call (a call whose ids are not longer
starts afresh), fills the mask and returns the masked logits; tokens that
multi-token processing forces are allowed one per step. The bookkeeping is
:class:`pse.stock_loop.StockLoop`; pair it with :class:`pse_mlx.sampler.PSESampler`
for budget-aware choices, or use mlx-lm's own samplers.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np

from pse.stock_loop import StockLoop
from pse_mlx.mask import apply_token_bitmask

__all__ = ["PSELogitsProcessor"]


class PSELogitsProcessor:
    """Masks the logits of tokens the engine's structure forbids (mlx-lm convention).

    Batches (``(rows, length)`` ids, ``(rows, vocab)`` logits) get one engine
    state per row; ``engines[0]`` is the engine given.

    Raises (from ``__call__``):
        NoValidTokenError: a row allows no token at all.
    """

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.loop = StockLoop(engine)

    @property
    def engines(self) -> list[Any]:
        return self.loop.engines

    def reset(self) -> None:
        self.loop.reset()

    def __call__(self, tokens: mx.array, logits: mx.array) -> mx.array:
        if self.engine.state_machine is None:
            return logits
        batch, rows = self.loop.masks(tokens, logits.shape[0] if logits.ndim == 2 else 1)
        if not rows:
            return logits
        bitmask = batch.bitmask
        if len(rows) < batch.size:  # finished rows pass through
            bitmask = np.full_like(bitmask, -1)
            bitmask[rows] = batch.bitmask[rows]
        return apply_token_bitmask(logits, bitmask if logits.ndim == 2 else bitmask[0])
