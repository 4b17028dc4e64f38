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
* :func:`choose_token` / :func:`token_budget`: what ``StructuringEngine.sample``
  and the adapters' loops share.

The loops around it: :mod:`pse.stock_loop` (loops that choose tokens
themselves: transformers' ``generate``, mlx-lm), :mod:`pse.host_loop` (pse-tf's
and pse-jax's loop around a compiled model step) and :mod:`pse.adapter_setup`
(what the mixins share before a loop runs).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pse_core._core import Engine, fill_masks
from pse_core.errors import BudgetError, NoValidTokenError, SamplingError, TokenRejectedError

from pse.arrays import exclude_token, to_numpy

__all__ = [
    "EngineBatch",
    "Sampler",
    "choose_token",
    "make_row_engine",
    "sampled_id",
    "token_budget",
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
        BudgetError: ``budget`` is below the shortest completion at the start of
            an output (later, it can only be one that lapsed: see docs/budget.md).
    """
    token = sampled_id(sampler(scores))
    step: Step = engine.advance_token(token, budget, out)
    if step[0]:
        return step
    plan: list[int] | None = None
    if budget is not None:
        plan = _plan(engine)
        if plan is not None and budget < len(plan):
            if not engine.raw_output:
                raise BudgetError(
                    f"a budget of {budget} token(s) cannot complete the structure: "
                    f"the shortest completion needs {len(plan)}"
                )
            # Mid-output, only a budget that could not be enforced earlier (no completion
            # was known there) falls short: go on without it rather than lose the output.
            plan = None
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
        _warn_unenforced_budget(engine)
        return _advance_alone(engine, token, out)
    excluded = scores
    for _ in range(max(engine.max_resample_attempts, 1) * 4):
        excluded = exclude_token(excluded, token)
        token = sampled_id(sampler(excluded))
        if not engine.is_token_allowed(token):
            break
        step = engine.advance_token(token, budget, out)
        if step[0]:
            return step
    if not plan:
        step = engine.advance_token(engine.native_vocabulary.eos_token_ids[0], None, out)
        return step
    return _emit_plan(engine, plan, out, whole=False)


def _plan(engine: Any) -> list[int] | None:
    """The tokens of the shortest completion: the native plan (the fewest tokens
    spelling the shortest bytes), or the rest of the plan the last step followed
    when that is shorter. After its own first token the native plan may be
    another completion, of fewer bytes but more tokens; the rest of the one
    followed still completes the structure, so the budget it fitted holds."""
    plan: list[int] | None = engine.completion_token_ids()
    kept: tuple[str, list[int]] | None = getattr(engine, "_pse_plan", None)
    if kept is None or kept[0] != engine.raw_output:
        return plan
    return list(kept[1]) if plan is None or len(kept[1]) < len(plan) else plan


def _keep_plan(engine: Any, rest: list[int]) -> None:
    """Remember ``rest``, the plan still to follow from the engine's output now."""
    with contextlib.suppress(AttributeError):  # a bare native Engine keeps nothing
        engine._pse_plan = (engine.raw_output, rest) if rest else None


def _warn_unenforced_budget(engine: Any) -> None:
    """Say once per engine that its structure has no known completion, so a budget
    cannot keep the output completable (Python-defined steppers, native checks)."""
    if getattr(engine, "_pse_budget_warned", False):
        return
    with contextlib.suppress(AttributeError):  # a bare native Engine warns every time
        engine._pse_budget_warned = True
    warnings.warn(
        "the token budget cannot be enforced: the structure has no known shortest "
        "completion (it holds Python-defined steppers or native checks such as "
        "uniqueItems), so the output may be cut off "
        "at the length limit",
        RuntimeWarning,
        stacklevel=3,
    )


def _advance_alone(engine: Any, token: int, out: NDArray[np.int32] | None) -> Step:
    """Advance on ``token`` without the forced continuation multi-token sampling
    would append: where the budget cannot be enforced, its length is still a cap."""
    multi, engine.multi_token_sampling = engine.multi_token_sampling, False
    try:
        step: Step = engine.advance_token(token, None, out)
    finally:
        engine.multi_token_sampling = multi
    return step


def _emit_plan(
    engine: Any, plan: list[int], out: NDArray[np.int32] | None, whole: bool | None = None
) -> Step:
    """Emit the shortest completion's first token, or all of it when ``whole``
    (default: with multi-token sampling), and keep the rest to follow."""
    emitted = plan if (engine.multi_token_sampling if whole is None else whole) else plan[:1]
    multi, engine.multi_token_sampling = engine.multi_token_sampling, False
    try:  # the plan is already the whole continuation: no forced extras
        step: Step = ([], 0, False)
        for i, token in enumerate(emitted):
            step = engine.advance_token(token, None, out if i == len(emitted) - 1 else None)
            if not step[0]:
                raise TokenRejectedError(f"token {token} of the shortest completion was rejected")
    finally:
        engine.multi_token_sampling = multi
    _keep_plan(engine, plan[len(emitted) :])
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
