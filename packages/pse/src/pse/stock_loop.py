"""Loops that choose tokens themselves and ask for masks with the ids so far.

transformers' stock ``generate`` and mlx-lm's ``generate_step`` call a logits
processor with every token id so far; :class:`StockLoop` advances each row's
engine from the ids appended since the last call and fills the masks of an
:class:`~pse.batch.EngineBatch`. :class:`StockProcessor` is the base of the
adapters' logits processors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pse.arrays import to_numpy
from pse.batch import EngineBatch

__all__ = ["StockLoop", "StockProcessor"]


class StockLoop:
    """Drive an :class:`EngineBatch` from a loop that chooses tokens itself.

    The loop calls :meth:`masks` with all token ids so far (``(length,)`` or
    ``(batch, length)``, any array type or lists) before each choice; the
    rows' engines advance with the ids appended since the last call and the
    masks of the live rows are filled. A call whose ids are not longer than
    the last ones starts afresh (a new generation); so does :meth:`reset`.
    Tokens a sampler already consumed through :meth:`EngineBatch.choose` go
    into ``batch.pending`` and are matched, not consumed again.
    """

    def __init__(self, engine: Any, bitmask_factory: Callable[[int], Any] | None = None) -> None:
        self.engine = engine
        self.batch: EngineBatch | None = None
        self.seen: int | None = None
        self._factory = bitmask_factory

    @property
    def engines(self) -> list[Any]:
        return self.batch.engines if self.batch is not None else [self.engine]

    def reset(self) -> None:
        self.seen = None

    def masks(self, input_ids: Any, batch_size: int) -> tuple[EngineBatch, list[int]]:
        """Sync the engines with ``input_ids`` and fill the masks; return the batch and
        the rows still generating (the others' bitmask rows are left as they were)."""
        ids = _ids_2d(input_ids)
        if ids is not None and ids.shape[0] != batch_size:
            raise ValueError(f"input_ids have {ids.shape[0]} rows but the logits have {batch_size}")
        batch = self.batch
        if batch is None or batch.size != batch_size:
            spare = batch.engines[1:] if batch is not None else None
            host = self._factory(batch_size) if self._factory is not None else None
            batch = self.batch = EngineBatch(self.engine, batch_size, spare, host)
            self.seen = None
        if ids is not None:
            if self.seen is None or ids.shape[1] <= self.seen:
                batch.reset()
                self.seen = ids.shape[1]
            else:
                self.sync(ids)
        rows = [row for row in range(batch_size) if not batch.done[row]]
        batch.fill(rows)
        return batch, rows

    def sync(self, input_ids: Any) -> None:
        """Advance the engines with the ids they have not seen yet."""
        ids = _ids_2d(input_ids)
        if self.batch is None or self.seen is None or ids is None:
            return
        length = ids.shape[1]
        if length <= self.seen:
            return
        new = ids[:, self.seen :].tolist()
        self.seen = length
        for row, tokens in enumerate(new):
            for token in tokens:
                self.batch.advance(row, int(token))


def _ids_2d(input_ids: Any) -> NDArray[np.int64] | None:
    if input_ids is None:
        return None
    ids = to_numpy(input_ids) if not isinstance(input_ids, list | tuple) else np.asarray(input_ids)
    ids = ids.astype(np.int64, copy=False)
    if ids.ndim == 1:
        return ids.reshape(1, -1)
    if ids.ndim != 2:
        raise ValueError(f"input_ids must have shape (length,) or (batch, length), got {ids.shape}")
    return ids


class StockProcessor:
    """What the adapters' logits processors share: a :class:`StockLoop` over
    ``engine`` (``engines[0]`` is the engine given); subclasses add ``__call__`` in
    their framework's convention."""

    def __init__(self, engine: Any, bitmask_factory: Callable[[int], Any] | None = None) -> None:
        self.engine = engine
        self.loop = StockLoop(engine, bitmask_factory)

    @property
    def engines(self) -> list[Any]:
        return self.loop.engines

    def reset(self) -> None:
        """Start a new generation at the next call."""
        self.loop.reset()

    def host_masks(self, input_ids: Any, length: Any) -> NDArray[np.int32]:
        """A copy of the packed masks after the first ``length`` ids of every row
        (for a compiled loop's callback to the host)."""
        ids = np.asarray(input_ids)[:, : int(length)]
        batch, _ = self.loop.masks(ids, ids.shape[0])
        return np.array(batch.bitmask, copy=True)

    def finalize(self, sequences: Any) -> None:
        """Advance the engines with tokens of ``sequences`` they have not seen yet
        (padding after an end token is ignored)."""
        self.loop.sync(sequences)
