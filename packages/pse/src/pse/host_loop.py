"""The host decoding loop of pse-tf and pse-jax, and the end ids of a loop.

:class:`HostLoop` feeds one token per row per step to a compiled model step:
it masks, processes and chooses on the host through the rows'
:class:`~pse.batch.EngineBatch`. :func:`end_ids` and :func:`choose_rows` are
shared with pse-torch's sampling loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pse.arrays import to_numpy
from pse.batch import EngineBatch, Sampler, sampled_id, token_budget

__all__ = ["EndIds", "HostLoop", "choose_rows", "end_ids", "reuse_batch"]


def reuse_batch(
    engine: Any, batch_size: int, rows_attr: str, bitmask: NDArray[np.int32] | None = None
) -> EngineBatch:
    """A reset :class:`EngineBatch` for a new generation; the other rows' engines are
    kept on ``engine`` as ``rows_attr`` (what the mixins' ``engines`` lists) and
    reused by the next call."""
    batch = EngineBatch(engine, batch_size, getattr(engine, rows_attr, None), bitmask)
    batch.reset()
    setattr(engine, rows_attr, batch.engines[1:])
    return batch


@dataclass(frozen=True)
class EndIds:
    """The end-of-sequence ids of a decoding loop.

    Attributes:
        stop: ids that end a row: the generation config's EOS ids and the vocabulary's.
        finish: the id appended when a row's structure is complete (the config's
            first EOS id, else the vocabulary's lowest); None when there is none.
        pad: the id after a row's end (the config's pad id, else ``finish``, else 0).
    """

    stop: frozenset[int]
    finish: int | None
    pad: int


def end_ids(eos_token_id: Any, pad_token_id: Any, vocabulary_eos: Iterable[int]) -> EndIds:
    """:class:`EndIds` from a generation config's ``eos_token_id`` (an id, a list of ids
    or an array of them; None) and ``pad_token_id`` (an id or a one-element array; None)."""
    eos = [] if eos_token_id is None else [int(t) for t in to_numpy(eos_token_id).reshape(-1)]
    vocabulary = frozenset(int(t) for t in vocabulary_eos)
    finish = eos[0] if eos else (min(vocabulary) if vocabulary else None)
    pad = finish or 0 if pad_token_id is None else int(to_numpy(pad_token_id).reshape(-1)[0])
    return EndIds(frozenset(eos) | vocabulary, finish, pad)


def choose_rows(
    batch: EngineBatch,
    rows: Sequence[int],
    scores: Any,
    sampler: Sampler,
    budget: int | None,
    finish_id: int | None,
) -> None:
    """Queue each row's next token(s) chosen from its row of processed ``scores``:
    through its engine (:meth:`EngineBatch.choose`) when the batch is constrained,
    else the sampler's token as it is."""
    for r in rows:
        if batch.constrained:
            batch.choose(r, scores[r], sampler, budget, finish_id)
        else:
            batch.pending[r].append(sampled_id(sampler(scores[r])))


Process = Callable[[Any, NDArray[np.int32], int], Any]


class HostLoop:
    """A decoding loop on the host that feeds one token per row per step to a
    compiled model step (pse-tf, pse-jax): the rows' engines, their end ids, the
    output ids and a streamer.

    Args:
        engine: row 0's engine; the other rows' engines are kept on it as
            ``rows_attr`` (see :func:`reuse_batch`).
        prompt_ids: ``int[batch, prompt_length]``.
        max_length: the total length limit.
        generation_config: its ``eos_token_id`` and ``pad_token_id`` give the
            end ids (see :func:`end_ids`).
        streamer: transformers' ``BaseStreamer`` protocol: ``put`` the prompt,
            then each step's ids, then ``end``.

    Attributes:
        sequences: ``int32[batch, max_length]``, the prompt and the tokens so far,
            then the pad id.
        length: the ids so far in every row.
    """

    def __init__(
        self,
        engine: Any,
        prompt_ids: NDArray[Any],
        max_length: int,
        generation_config: Any,
        rows_attr: str,
        streamer: Any = None,
    ) -> None:
        batch_size, prompt_length = prompt_ids.shape
        self.engine = engine
        self.batch = reuse_batch(engine, batch_size, rows_attr)
        config = generation_config
        self.ends = end_ids(config.eos_token_id, config.pad_token_id, self.batch.eos_ids)
        self.max_length = max_length
        self.length = prompt_length
        self.sequences = np.full((batch_size, max_length), self.ends.pad, dtype=np.int32)
        self.sequences[:, :prompt_length] = prompt_ids
        self.streamer = streamer
        if streamer is not None:
            streamer.put(self.sequences[:, :prompt_length])

    @property
    def finished(self) -> bool:
        """Every row has ended, or the length limit is reached."""
        return all(self.batch.done) or self.length >= self.max_length

    def step(
        self, logits: Any, apply_mask: Callable[[Any, Any], Any], process: Process, sampler: Sampler
    ) -> NDArray[np.int32]:
        """The next token of every row, from the model's last ``logits`` (``[batch, vocab]``).

        Rows that need a new choice are masked first (``apply_mask(logits,
        bitmask)``), then processed (``process(scores, sequences, length)``: the
        generation config's processors and warpers) and choose through their
        engines; rows with queued ids take the next one; ended rows get the pad
        id. Returns ``int32[batch]``, also appended to :attr:`sequences` and streamed.

        Raises:
            NoValidTokenError: a row allows no token at all.
            BudgetError: the length limit cannot complete the structure.
        """
        batch, ends = self.batch, self.ends
        rows = batch.sampling_rows()
        if rows:
            scores = logits
            if batch.constrained:
                batch.fill(rows)
                scores = apply_mask(scores, batch.bitmask)
            scores = process(scores, self.sequences, self.length)
            finish = ends.finish is not None
            budget = token_budget(self.engine, self.max_length, self.length, finish)
            choose_rows(batch, rows, scores, sampler, budget, ends.finish)
        live = [r for r in range(batch.size) if not batch.done[r]]
        tokens = np.full((batch.size,), ends.pad, dtype=np.int32)
        for r, chunk in zip(live, batch.take(live, 1), strict=True):
            tokens[r] = chunk[0]
            if chunk[0] in ends.stop:
                batch.done[r] = True
        self.sequences[:, self.length] = tokens
        self.length += 1
        if self.streamer is not None:
            self.streamer.put(tokens)
        return tokens

    def end(self) -> None:
        """Tell the streamer the generation has ended."""
        if self.streamer is not None:
            self.streamer.end()
