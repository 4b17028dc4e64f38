"""Framework-neutral batch bookkeeping shared by every adapter.

An adapter owns tensor operations (applying a packed bitmask to logits on
their device, choosing a token); everything else lives here:

* :class:`EngineBatch`: one engine state per batch row over the shared
  vocabulary (row 0 is the given engine, the others made by
  :func:`make_row_engine`), a host bitmask of ``int32[rows, words]``, the
  forced-token queues of multi-token sampling, done flags and the "only EOS is
  left" test.
* :meth:`EngineBatch.choose`: the sampling-loop step of a row: the sampler's
  token, the budget and the next mask in one native call
  (``Engine.advance_token``); with :meth:`EngineBatch.fill` (one
  ``Engine.fill_mask`` call, skipped when the last step already filled it) a
  row crosses into the core once or twice per step.
* :class:`StockLoop`: for loops that choose tokens themselves and call a
  logits processor with the token ids so far (transformers' stock
  ``generate``, mlx-lm's ``generate_step``): it advances each row's engine
  from the ids the loop appended and fills the masks.
* :func:`choose_token` / :func:`token_budget`: what ``StructuringEngine.sample``
  and the adapters' loops share.
* The adapters' common setup: :func:`reuse_batch` (row engines kept from the
  last call), :func:`end_ids` (stop, finish and pad ids), :func:`engine_sampler`,
  :func:`runs_engine` and :func:`is_engine_hook` (what ``generate`` runs, which
  hooks it replaces), :class:`StockProcessor` (the base of their logits
  processors) and :class:`HostLoop` (pse-tf's and pse-jax's one-token-per-step
  loop around a compiled model step).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pse_core._core import Engine, fill_masks
from pse_core.errors import BudgetError, NoValidTokenError, SamplingError, TokenRejectedError

from pse.arrays import exclude_token, to_numpy

__all__ = [
    "EndIds",
    "EngineBatch",
    "HostLoop",
    "StockLoop",
    "StockProcessor",
    "choose_rows",
    "choose_token",
    "end_ids",
    "engine_sampler",
    "generation_setup",
    "is_engine_hook",
    "make_row_engine",
    "reuse_batch",
    "row_engines",
    "runs_engine",
    "sampled_id",
    "token_budget",
    "transformers_processors",
]

Sampler = Callable[[Any], Any]
Step = tuple[list[int], int, bool]  # (emitted ids, allowed next, only end tokens left)


def make_row_engine(engine: Any) -> Any:
    """A fresh engine for another batch row, configured like ``engine``.

    It is built with ``type(engine)(engine.tokenizer, multi_token_sampling=...,
    max_resample_attempts=...)`` over the same tokenizer, so it shares the
    vocabulary (and its mask cache), and gets the same state machine and settings.
    """
    row = type(engine)(
        engine.tokenizer,
        multi_token_sampling=engine.multi_token_sampling,
        max_resample_attempts=engine.max_resample_attempts,
    )
    row.whitelist_control_token_ids = list(engine.whitelist_control_token_ids)
    row.multi_token_mapping = dict(engine.multi_token_mapping)
    row.budget_aware = getattr(engine, "budget_aware", True)
    if engine.state_machine is not None:
        row.state_machine = engine.state_machine
    return row


def token_budget(engine: Any, max_length: int | None, length: int, finish: bool) -> int | None:
    """Tokens a row may still emit (at least 1), keeping one for the end token
    when ``finish``; None without a length limit or when the engine is not
    ``budget_aware``."""
    if max_length is None or not getattr(engine, "budget_aware", True):
        return None
    return max(1, max_length - length - int(finish))


def sampled_id(sampled: Any) -> int:
    """The one token id a sampler returned (scalar, ``(1,)`` or ``(1, 1)``, any array type)."""
    if isinstance(sampled, int | np.integer):
        return int(sampled)
    ids = to_numpy(sampled).reshape(-1)
    if ids.size != 1:
        raise ValueError(
            f"the sampler returned {ids.size} token ids; a StructuringEngine tracks one "
            "sequence, so use one engine per batch row"
        )
    return int(ids[0])


def _custom_fill(engine: Any) -> bool:
    """A Python subclass overrides ``fill_bitmask``: masks must go through it."""
    return getattr(type(engine), "fill_bitmask", None) is not Engine.fill_bitmask


def choose_token(
    engine: Any,
    scores: Any,
    sampler: Sampler,
    budget: int | None = None,
    out: NDArray[np.int32] | None = None,
) -> Step:
    """Sample with ``sampler(scores)``, advance ``engine``, fill ``out`` with the next mask.

    Returns ``(emitted, allowed, only_end)`` as ``Engine.advance_token`` does.
    The usual step is one native call. A forbidden token is resampled up to
    ``max_resample_attempts`` times. With ``budget`` (tokens that may still be
    emitted, this one included) the output stays completable: a token after
    which the shortest completion no longer fits is excluded and the sampler
    asked again (bounded; then the shortest completion's first token); when no
    slack is left the shortest completion is emitted (all of it with
    multi-token sampling). See docs/budget.md.

    Raises:
        SamplingError: the sampler kept returning forbidden tokens.
        BudgetError: ``budget`` is below the shortest completion.
    """
    token = sampled_id(sampler(scores))
    step: Step = engine.advance_token(token, budget, out)
    if step[0]:
        return step
    plan: list[int] | None = None
    if budget is not None:
        plan = engine.completion_token_ids()
        if plan is not None and budget < len(plan):
            raise BudgetError(
                f"a budget of {budget} token(s) cannot complete the structure: "
                f"the shortest completion needs {len(plan)}"
            )
        if plan and budget == len(plan):  # no slack: finish now
            return _emit_plan(engine, plan, out)
    attempts = 0
    while not engine.is_token_allowed(token):
        if attempts >= engine.max_resample_attempts:
            raise SamplingError(
                f"sampled token {token} ({_token_text(engine, token)!r}) is not allowed "
                f"by the structure after {attempts} resample attempt(s)"
            )
        attempts += 1
        token = sampled_id(sampler(scores))
        step = engine.advance_token(token, budget, out)
        if step[0]:
            return step
    if plan is None:  # no completion is known: the budget cannot be enforced
        step = engine.advance_token(token, None, out)
        return step
    excluded = scores
    for _ in range(max(engine.max_resample_attempts, 1) * 4):
        excluded = exclude_token(excluded, token)
        token = sampled_id(sampler(excluded))
        if not engine.is_token_allowed(token):
            break
        step = engine.advance_token(token, budget, out)
        if step[0]:
            return step
    fallback = plan[0] if plan else engine.native_vocabulary.eos_token_ids[0]
    step = engine.advance_token(fallback, None, out)
    return step


def _emit_plan(engine: Any, plan: list[int], out: NDArray[np.int32] | None) -> Step:
    """Emit the shortest completion (all of it with multi-token sampling)."""
    emitted = plan if engine.multi_token_sampling else plan[:1]
    multi, engine.multi_token_sampling = engine.multi_token_sampling, False
    try:  # the plan is already the whole continuation: no forced extras
        step: Step = ([], 0, False)
        for i, token in enumerate(emitted):
            step = engine.advance_token(token, None, out if i == len(emitted) - 1 else None)
            if not step[0]:
                raise TokenRejectedError(f"token {token} of the shortest completion was rejected")
    finally:
        engine.multi_token_sampling = multi
    return list(emitted), step[1], step[2]


def _token_text(engine: Any, token: int) -> str:
    try:
        return str(engine.tokenizer.decode([token]))
    except Exception:  # noqa: BLE001 - out-of-range ids and odd tokenizers
        return "<unknown>"


class EngineBatch:
    """One engine state per batch row, plus the host bitmask they fill.

    Args:
        engine: row 0's engine; the others share its tokenizer and structure.
        batch_size: number of rows.
        spare: engines from an earlier batch to reuse for rows 1, 2, ...
        bitmask: a host ``int32[batch_size, words]`` buffer to fill (e.g. a
            pinned tensor's ``.numpy()`` view); allocated when omitted.

    Attributes:
        engines: the row engines; ``engines[0]`` is the engine given.
        bitmask: the host bitmask, one row per batch row.
        pending: per row, tokens the engine has consumed but the sequence
            does not hold yet (multi-token processing); each is forced in turn.
        done: per row, the sequence has ended.
        eos_ids: the vocabulary's end-of-sequence ids.
    """

    def __init__(
        self,
        engine: Any,
        batch_size: int,
        spare: Sequence[Any] | None = None,
        bitmask: NDArray[np.int32] | None = None,
    ) -> None:
        spare = list(spare or [])
        self.engines = [engine]
        for _ in range(batch_size - 1):
            self.engines.append(spare.pop(0) if spare else make_row_engine(engine))
        for row in self.engines[1:]:  # the template may have been reconfigured since
            if row.state_machine is not engine.state_machine and engine.state_machine is not None:
                row.state_machine = engine.state_machine
            row.multi_token_sampling = engine.multi_token_sampling
        words = -(-engine.vocab_size // 32)
        if bitmask is None:
            bitmask = np.zeros((batch_size, words), dtype=np.int32)
        elif bitmask.shape != (batch_size, words) or bitmask.dtype != np.int32:
            raise ValueError(
                f"bitmask must be int32[{batch_size}, {words}], "
                f"got {bitmask.dtype}{list(bitmask.shape)}"
            )
        self.bitmask = bitmask
        self.eos_ids = frozenset(int(i) for i in engine.native_vocabulary.eos_token_ids)
        self._special = sorted(self.eos_ids | set(engine.whitelist_control_token_ids))
        self._custom = _custom_fill(engine)
        self.pending: list[list[int]] = [[] for _ in range(batch_size)]
        self.done = [False] * batch_size
        self._ending = [False] * batch_size  # done once ``pending`` is drained
        self._filled = [False] * batch_size  # bitmask row already holds the current mask
        self._allowed = [0] * batch_size
        self._only_end = [False] * batch_size

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
        self.done = [False] * self.size
        self._ending = [False] * self.size
        self._filled = [False] * self.size
        self._allowed = [0] * self.size
        self._only_end = [False] * self.size

    def sampling_rows(self) -> list[int]:
        """Rows that need a new token chosen: not done, nothing pending."""
        return [r for r in range(self.size) if not self.done[r] and not self.pending[r]]

    # ---------------------------------------------------------------- masking

    def fill(self, rows: Sequence[int]) -> None:
        """Fill the bitmask rows of ``rows`` (a forced token, or the engine's mask).

        Raises:
            NoValidTokenError: a row allows no token at all.
        """
        unfilled = []
        for row in rows:
            words = self.bitmask[row]
            pending = self.pending[row]
            if pending:
                words[:] = 0
                token = pending[0]
                words.view(np.uint32)[token >> 5] = np.uint32(1 << (token & 31))
                self._filled[row] = False  # overwritten: refill once the queue is drained
            elif not self._filled[row]:
                unfilled.append(row)
        self._fill_engines(unfilled)
        for row in rows:
            if self.pending[row]:
                continue
            self._filled[row] = False  # the next step needs a new mask
            if self._allowed[row] == 0:
                raise NoValidTokenError(
                    f"batch row {row}: no token is allowed by the structure at this step "
                    "(the structure cannot continue and is not complete)"
                )

    def only_end(self, row: int) -> bool:
        """``row``'s structure is complete with only end tokens (EOS, whitelisted)
        left, as of its last filled mask."""
        return self._only_end[row]

    def _fill_engines(self, rows: list[int]) -> None:
        """Fill the engines' masks of ``rows``: several native engines in one
        ``fill_masks`` call (parallel threads, the GIL released), else row by row."""
        if len(rows) > 1 and not self._custom and self.bitmask.flags.c_contiguous:
            engines = [self.engines[row] for row in rows]
            for row, (allowed, only_end) in zip(
                rows, fill_masks(engines, self.bitmask, rows), strict=True
            ):
                self._allowed[row], self._only_end[row] = int(allowed), bool(only_end)
            return
        for row in rows:
            self._allowed[row], self._only_end[row] = self._fill_engine(row)

    def _fill_engine(self, row: int) -> tuple[int, bool]:
        engine = self.engines[row]
        words = self.bitmask[row]
        if not self._custom:
            allowed, only_end = engine.fill_mask(words)
            return int(allowed), bool(only_end)
        allowed = int(engine.fill_bitmask(words))
        bits = words.view(np.uint32)
        special = sum(1 for i in self._special if (int(bits[i >> 5]) >> (i & 31)) & 1)
        return allowed, allowed > 0 and allowed == special and engine.has_reached_accept_state

    # ------------------------------------------------------------- advancing

    def advance(self, row: int, token: int) -> None:
        """Record that ``row``'s sequence now holds ``token`` (the loop chose it).

        Raises:
            TokenRejectedError: the token is not one the structure allows here.
        """
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
            self.done[row] = token in self.eos_ids
            return
        if token in self.eos_ids:
            self.done[row] = True
            return
        engine = self.engines[row]
        out = None if self._custom else self.bitmask[row]
        emitted, allowed, only_end = engine.advance_token(token, None, out)
        if not emitted:
            engine.consume_token(token)  # raises with the reason
        pending.extend(int(t) for t in emitted[1:])
        if out is not None:
            self._filled[row] = True
            self._allowed[row], self._only_end[row] = int(allowed), bool(only_end)

    def choose(
        self,
        row: int,
        scores: Any,
        sampler: Sampler,
        budget: int | None = None,
        finish_id: int | None = None,
    ) -> list[int]:
        """Choose ``row``'s next token(s) from its masked ``scores`` row and advance.

        Returns the ids to append, also queued in ``pending[row]`` for
        :meth:`take`: the sampled token, the continuation that multi-token
        sampling forces, and ``finish_id`` when the structure is then complete
        with only end tokens left (without ``finish_id`` the row just ends).
        The next mask is filled in the same native call. See
        :func:`choose_token` for ``budget``.
        """
        engine = self.engines[row]
        out = None if self._custom else self.bitmask[row]
        emitted, allowed, only_end = choose_token(engine, scores, sampler, budget, out)
        ids = [int(t) for t in emitted]
        ended = ids[-1] in self.eos_ids
        if not ended:
            if out is None:
                allowed, only_end = self._fill_engine(row)
            self._filled[row] = True
            self._allowed[row], self._only_end[row] = int(allowed), bool(only_end)
            if only_end:
                ended = True
                if finish_id is not None:
                    ids.append(finish_id)
        self._ending[row] = ended
        self.pending[row].extend(ids)
        return ids

    def take(self, rows: Sequence[int], limit: int | None = None) -> list[list[int]]:
        """Pop the same number of queued ids from each of ``rows`` (the fewest any
        of them holds, at most ``limit`` and at least one) for the loop to append;
        a row whose structure ended is done once its queue is empty."""
        count = min(len(self.pending[r]) for r in rows) if rows else 0
        if limit is not None:
            count = max(1, min(count, limit))
        chunks = []
        for r in rows:
            chunks.append(self.pending[r][:count])
            del self.pending[r][:count]
            if self._ending[r] and not self.pending[r]:
                self.done[r] = True
        return chunks


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


# ------------------------------------------------------------ adapters' setup


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


def row_engines(engine: Any, rows_attr: str) -> list[Any]:
    """``engine`` and the other rows' engines of its last generation (none without an engine)."""
    if engine is None:
        return []
    return [engine, *getattr(engine, rows_attr, [])]


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


def engine_sampler(sampler: Sampler | None, engine: Any) -> Sampler | None:
    """A mixin's ``generate(sampler=...)``: ``engine.sample`` (the documented manual
    hook, which the PSE loops already imply) is None, any other sampler replaces
    the default token choice."""
    bound = getattr(sampler, "__name__", "") == "sample"
    return None if bound and getattr(sampler, "__self__", None) is engine else sampler


def runs_engine(engine: Any, sampler: Sampler | None) -> bool:
    """A mixin's ``generate`` runs the PSE loop: an engine is attached and has a
    structure configured, or a sampler was given; otherwise the framework's own
    ``generate`` runs unchanged."""
    return engine is not None and (engine.state_machine is not None or sampler is not None)


def is_engine_hook(processor: Any) -> bool:
    """A logits processor the PSE loops replace (they mask the logits themselves): a
    PSE processor or an engine's own ``process_logits``."""
    if isinstance(processor, StockProcessor):
        return True
    owner = getattr(processor, "__self__", None)
    return getattr(processor, "__name__", "") == "process_logits" and hasattr(owner, "fill_bitmask")


def generation_setup(
    model: Any, generation_config: Any, kwargs: dict[str, Any]
) -> tuple[Any, Any, dict[str, Any]]:
    """transformers' ``generate`` preamble for a PSE loop: a copy of the generation
    config (the model's when None) updated with ``kwargs``; returns it, the
    ``streamer`` taken out of ``kwargs`` and the other model kwargs, which the
    model validates (``_validate_model_kwargs``)."""
    config = generation_config if generation_config is not None else model.generation_config
    config = copy.deepcopy(config)
    streamer = kwargs.pop("streamer", None)
    model_kwargs: dict[str, Any] = config.update(**kwargs)
    model._validate_model_kwargs(dict(model_kwargs))
    return config, streamer, model_kwargs


def transformers_processors(
    model: Any, config: Any, prompt_length: int, logits_processor: Any, list_type: type
) -> tuple[Any, Any]:
    """transformers 4.x TF/Flax: the generation config's logits processors (with the
    caller's, less the engine's hooks) and, when sampling, its warpers, as ``list_type``."""
    custom = list_type(p for p in logits_processor or [] if not is_engine_hook(p))
    processors = model._get_logits_processor(config, prompt_length, custom)
    warpers = model._get_logits_warper(config) if config.do_sample else list_type()
    return processors, warpers


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
