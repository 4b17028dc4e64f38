"""A ``transformers`` logits processor driven by a :class:`~pse.StructuringEngine`.

:class:`PSELogitsProcessor` works with the stock generation loop::

    processor = PSELogitsProcessor(engine)
    out = model.generate(input_ids, logits_processor=[processor], max_new_tokens=200)

The stock loop picks one token per step, so the processor advances the engine
from ``input_ids`` (the token chosen at the previous step) and masks the
logits; tokens that multi-token processing forces are allowed one per step.
The bookkeeping (one engine per batch row, forced-token queues, done flags)
is :class:`pse.stock_loop.StockLoop`; this module only moves the packed masks onto
the logits' device. ``logits_processor=[engine.process_logits]`` does the
same through the engine itself.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers import LogitsProcessor

from pse.stock_loop import StockProcessor
from pse_torch.mask import allocate_token_bitmask, apply_token_bitmask_inplace

__all__ = ["PSELogitsProcessor"]


class PSELogitsProcessor(StockProcessor, LogitsProcessor):  # type: ignore[misc]
    """Masks the logits of tokens the engine's structure forbids.

    Use one processor per ``generate`` call, or call :meth:`reset` in between
    (a call whose ``input_ids`` are not longer than the last ones also starts
    afresh). Batches get one engine state per row: ``engines[0]`` is the
    engine given, the others are made on demand. The processor advances the
    engines with the tokens the loop appends, so the last token of a sequence
    is only consumed if the loop calls the processor again; after generation
    ends for another reason than EOS call :meth:`finalize` with the output.

    Raises (from ``__call__``):
        NoValidTokenError: a row allows no token at all.
    """

    def __init__(self, engine: Any) -> None:
        super().__init__(
            engine, lambda rows: allocate_token_bitmask(rows, engine.vocab_size).numpy()
        )

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.engine.state_machine is None:
            return scores
        batch, rows = self.loop.masks(input_ids, scores.shape[0])
        bitmask = torch.from_numpy(batch.bitmask)  # a view of the (pinned) host buffer
        if len(rows) == batch.size:
            apply_token_bitmask_inplace(scores, bitmask)
        elif rows:
            apply_token_bitmask_inplace(scores, bitmask[rows], indices=rows)
        return scores
