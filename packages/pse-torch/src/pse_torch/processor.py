"""A ``transformers`` logits processor driven by a :class:`~pse.StructuringEngine`.

:class:`PSELogitsProcessor` works with the stock generation loop::

    processor = PSELogitsProcessor(engine)
    out = model.generate(input_ids, logits_processor=[processor], max_new_tokens=200)

The stock loop picks one token per step, so the processor advances the engine
from ``input_ids`` (the token chosen at the previous step) and masks the
logits. Tokens that multi-token processing forces are allowed one per step.
:class:`EngineBatch` holds one engine per batch row (the first is the given
engine; the others share its tokenizer, vocabulary and mask cache).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from pse_core.errors import NoValidTokenError, TokenRejectedError
from transformers import LogitsProcessor

from pse_torch.mask import allocate_token_bitmask, apply_token_bitmask_inplace

__all__ = ["EngineBatch", "PSELogitsProcessor", "make_row_engine"]


def make_row_engine(engine: Any) -> Any:
    """A fresh engine for another batch row, configured like ``engine``.

    It is built over the same tokenizer, so it shares the vocabulary (and its
    mask cache), and it gets the same state machine and settings.
    """
    from pse import StructuringEngine

    settings = {
        "multi_token_sampling": engine.multi_token_sampling,
        "max_resample_attempts": engine.max_resample_attempts,
    }
    try:
        row = type(engine)(engine.tokenizer, **settings)
    except TypeError:  # a subclass with another constructor
        row = StructuringEngine(engine.tokenizer, **settings)
    row.whitelist_control_token_ids = list(engine.whitelist_control_token_ids)
    row.multi_token_mapping = dict(engine.multi_token_mapping)
    if engine.state_machine is not None:
        row.state_machine = engine.state_machine
    return row


class EngineBatch:
    """One engine state per batch row, plus the host bitmask they fill.

    Attributes:
        engines: the row engines; ``engines[0]`` is the engine given.
        pending: per row, forced tokens the engine has consumed but the
            sequence does not hold yet (multi-token processing).
        done: per row, the sequence has ended (EOS chosen).
    """

    def __init__(self, engine: Any, batch_size: int, spare: list[Any] | None = None) -> None:
        spare = list(spare or [])
        self.engines = [engine]
        for _ in range(batch_size - 1):
            self.engines.append(spare.pop(0) if spare else make_row_engine(engine))
        for row in self.engines[1:]:  # the template may have been reconfigured since
            if row.state_machine is not engine.state_machine and engine.state_machine is not None:
                row.state_machine = engine.state_machine
            row.multi_token_sampling = engine.multi_token_sampling
        vocabulary = engine.native_vocabulary
        self.eos_ids = set(vocabulary.eos_token_ids)
        self.special_ids = sorted(self.eos_ids | set(engine.whitelist_control_token_ids))
        self.bitmask = allocate_token_bitmask(batch_size, engine.vocab_size)
        self.pending: list[list[int]] = [[] for _ in range(batch_size)]
        self.done = [False] * batch_size

    @property
    def size(self) -> int:
        return len(self.engines)

    @property
    def constrained(self) -> bool:
        return self.engines[0].state_machine is not None

    def reset(self) -> None:
        """Start every row again at the root of the structure."""
        for engine in self.engines:
            engine.reset()
        self.pending = [[] for _ in self.engines]
        self.done = [False] * len(self.engines)

    # ---------------------------------------------------------------- masking

    def fill_row(self, row: int) -> int:
        """Fill the bitmask row of ``row`` from its engine (or its next forced token)."""
        words = self.bitmask[row].numpy()
        if self.pending[row]:
            words[:] = 0
            token = self.pending[row][0]
            words.view(np.uint32)[token >> 5] = np.uint32(1 << (token & 31))
            return 1
        return int(self.engines[row].fill_bitmask(words))

    def mask_(self, scores: torch.Tensor, rows: list[int]) -> torch.Tensor:
        """Mask ``scores`` in place for ``rows``; raise when a row allows nothing."""
        if not self.constrained or not rows:
            return scores
        for row in rows:
            if self.fill_row(row) == 0:
                raise NoValidTokenError(
                    f"batch row {row}: no token is allowed by the structure at this step "
                    "(the structure cannot continue and is not complete)"
                )
        if len(rows) == self.size:
            apply_token_bitmask_inplace(scores, self.bitmask)
        else:
            apply_token_bitmask_inplace(scores, self.bitmask[rows], indices=rows)
        return scores

    def is_complete(self, row: int) -> bool:
        """The structure of ``row`` is complete: only EOS (or whitelisted tokens) may follow."""
        engine = self.engines[row]
        if not engine.has_reached_accept_state:
            return False
        words = self.bitmask[row].numpy()
        count = int(engine.fill_bitmask(words))
        special = sum(1 for i in self.special_ids if (int(words[i >> 5]) >> (i & 31)) & 1)
        return count - special == 0

    # ------------------------------------------------------------- advancing

    def advance(self, row: int, token: int) -> None:
        """Record that ``row``'s sequence now holds ``token`` (stock-loop mode)."""
        if self.done[row] or not self.constrained:
            return
        pending = self.pending[row]
        if pending:
            expected = pending.pop(0)
            if token != expected:
                raise TokenRejectedError(
                    f"batch row {row}: token {token} was chosen "
                    f"where the structure forces {expected}"
                )
            return
        if token in self.eos_ids:
            self.done[row] = True
            return
        emitted = self.engines[row].consume_token(token)
        pending.extend(int(t) for t in emitted[1:])


class PSELogitsProcessor(LogitsProcessor):
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
        self.engine = engine
        self._batch: EngineBatch | None = None
        self._seen: int | None = None

    @property
    def engines(self) -> list[Any]:
        return self._batch.engines if self._batch is not None else [self.engine]

    def reset(self) -> None:
        self._seen = None

    def _sync(self, input_ids: torch.Tensor) -> None:
        assert self._batch is not None and self._seen is not None
        length = input_ids.shape[1]
        if length <= self._seen:
            return
        new = input_ids[:, self._seen :].tolist()
        self._seen = length
        for row, tokens in enumerate(new):
            for token in tokens:
                self._batch.advance(row, int(token))

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        batch_size = scores.shape[0]
        if self._batch is None or self._batch.size != batch_size:
            spare = self._batch.engines[1:] if self._batch is not None else None
            self._batch = EngineBatch(self.engine, batch_size, spare)
            self._seen = None
        if self._seen is None or input_ids.shape[1] <= self._seen:
            self._batch.reset()
            self._seen = input_ids.shape[1]
        else:
            self._sync(input_ids)
        rows = [row for row in range(batch_size) if not self._batch.done[row]]
        return self._batch.mask_(scores, rows)

    def finalize(self, sequences: torch.Tensor) -> None:
        """Advance the engines with tokens of ``sequences`` they have not seen yet."""
        if self._batch is not None and self._seen is not None:
            self._sync(sequences)
