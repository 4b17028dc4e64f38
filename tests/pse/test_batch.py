"""pse.batch (rows, forced queues, the one-call step) and pse.arrays (caller's array type)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from pse_core._core import StateMachine, Stepper
from pse_core.errors import BudgetError, NoValidTokenError, TokenRejectedError

from pse import StructuringEngine
from pse.arrays import ArrayType, register_array_type
from pse.batch import EngineBatch, choose_token, token_budget
from pse.stock_loop import StockLoop
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine

PHRASE = '{"greeting": "hello world", "answer": 42}'


def _reference_only_end(engine: StructuringEngine) -> bool:
    """The slow test the native flag replaces: complete, and nothing but end tokens allowed."""
    if not engine.has_reached_accept_state:
        return False
    special = set(engine.native_vocabulary.eos_token_ids) | set(engine.whitelist_control_token_ids)
    return set(engine.allowed_token_ids()) <= special


def _random_walk(engine: StructuringEngine, seed: int, steps: int = 40) -> None:
    """advance_token against consume_token and fill_bitmask on a copy of the state."""
    rng = np.random.default_rng(seed)
    words = np.zeros(-(-engine.vocab_size // 32), dtype=np.int32)
    for _ in range(steps):
        allowed, only_end = engine.fill_mask(words)
        assert allowed == engine.fill_bitmask(np.zeros_like(words))
        assert only_end == _reference_only_end(engine)
        choices = [
            t for t in engine.allowed_token_ids() if t not in engine.native_vocabulary.eos_token_ids
        ]
        if not choices:
            return
        token = int(rng.choice(choices))
        twin = StructuringEngine(engine.tokenizer)
        twin.configure(engine.state_machine)
        twin.steppers = engine.steppers
        expected = twin.consume_token(token)
        emitted, allowed, only_end = engine.advance_token(token, None, words)
        assert emitted == expected
        assert allowed == twin.fill_bitmask(np.zeros_like(words))
        assert only_end == _reference_only_end(twin)


@pytest.mark.parametrize("seed", range(4))
def test_advance_token_matches_consume_and_fill(smollm2: Any, seed: int) -> None:
    engine = StructuringEngine(smollm2)
    engine.configure(JsonStateMachine())
    _random_walk(engine, seed)


def test_advance_token_rejects_without_changing_the_engine(smollm2: Any) -> None:
    engine = StructuringEngine(smollm2)
    engine.configure(PhraseStateMachine(PHRASE))
    bad = smollm2.encode("}", add_special_tokens=False)[0]
    assert engine.advance_token(bad) == ([], 0, False)
    assert engine.token_ids_history == []
    plan = engine.completion_token_ids()
    assert plan
    # A budget of exactly the plan fits its first token, one less does not.
    assert engine.advance_token(plan[0], len(plan) - 1) == ([], 0, False)
    assert engine.advance_token(plan[0], len(plan))[0] == [plan[0]]


def test_rows_are_independent_and_end_with_finish(smollm2: Any) -> None:
    engine = StructuringEngine(smollm2, multi_token_sampling=False)
    engine.configure(JsonStateMachine())
    batch = EngineBatch(engine, 3)
    assert batch.engines[0] is engine
    assert batch.engines[1].native_vocabulary is engine.native_vocabulary
    batch.reset()
    rng = np.random.default_rng(0)
    eos = smollm2.eos_token_id
    out: list[list[int]] = [[] for _ in range(3)]
    for _ in range(300):
        rows = batch.sampling_rows()
        batch.fill(rows)
        for r in rows:
            scores = rng.normal(size=engine.vocab_size).astype(np.float32)
            scores[~_allowed(batch.bitmask[r], engine.vocab_size)] = -np.inf
            budget = token_budget(engine, 60, len(out[r]), finish=True)
            batch.choose(r, scores, np.argmax, budget, finish_id=eos)
        live = [r for r in range(3) if not batch.done[r]]
        if not live:
            break
        for r, chunk in zip(live, batch.take(live), strict=True):
            out[r] += chunk
    assert all(batch.done)
    for r in range(3):
        assert out[r][-1] == eos and len(out[r]) <= 60
        json.loads(smollm2.decode(out[r][:-1]))
        assert batch.engines[r].token_ids_history == out[r][:-1]


def _allowed(words: NDArray[np.int32], vocab: int) -> NDArray[np.bool_]:
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")
    return bits[:vocab].astype(bool)


def test_stock_loop_forces_queued_tokens_and_matches_sampled_ones(smollm2: Any) -> None:
    engine = StructuringEngine(smollm2, multi_token_sampling=True)
    engine.configure(PhraseStateMachine(PHRASE))
    loop = StockLoop(engine)
    prompt = [1, 2, 3]
    ids = list(prompt)
    for _ in range(60):
        batch, rows = loop.masks(ids, 1)
        if not rows:
            break
        allowed = np.flatnonzero(_allowed(batch.bitmask[0], engine.vocab_size))
        assert allowed.size >= 1
        if engine.has_reached_accept_state and not batch.pending[0]:
            break
        ids.append(int(allowed[0]))  # the loop's own choice: one token per step
    assert smollm2.decode(ids[len(prompt) :]) == PHRASE
    with pytest.raises(TokenRejectedError, match="forces|cannot be consumed"):
        loop.masks([*prompt, smollm2.encode("x", add_special_tokens=False)[0]], 1)
        loop.masks([*prompt, 99, 99], 1)


def test_sample_then_process_logits_consumes_once(smollm2: Any) -> None:
    engine = StructuringEngine(smollm2, multi_token_sampling=True)
    engine.configure(PhraseStateMachine(PHRASE))
    ids = [1]
    while not engine.has_reached_accept_state:
        masked = engine.process_logits(ids, np.zeros(engine.vocab_size, dtype=np.float32))
        ids += engine.sample(masked, np.argmax).tolist()
    assert smollm2.decode(ids[1:]) == PHRASE


def test_nothing_allowed_names_the_row(smollm2: Any) -> None:
    class Stuck(StructuringEngine):
        def fill_bitmask(self, out: Any) -> int:
            out[:] = 0
            return 0

    engine = Stuck(smollm2)
    engine.configure(PhraseStateMachine(PHRASE))
    batch = EngineBatch(engine, 2)
    with pytest.raises(NoValidTokenError, match="batch row 0"):
        batch.fill([0, 1])


class Boxed:
    """An array type pse does not know: a box around a NumPy array."""

    def __init__(self, values: NDArray[Any]) -> None:
        self.values = values

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.values.shape)


def test_registered_array_type_round_trips(smollm2: Any) -> None:
    register_array_type(
        ArrayType(
            name="boxed-test",
            is_instance=lambda value: isinstance(value, Boxed),
            to_numpy=lambda value: value.values,
            from_numpy=lambda values, like: Boxed(values.astype(like.values.dtype)),
        )
    )
    engine = StructuringEngine(smollm2)
    engine.configure(PhraseStateMachine(PHRASE))
    masked = engine.process_logits(None, Boxed(np.zeros((2, engine.vocab_size), np.float64)))
    assert isinstance(masked, Boxed) and masked.values.dtype == np.float64
    for row in masked.values:
        assert np.flatnonzero(np.isfinite(row)).tolist() == engine.allowed_token_ids()
    ids = engine.sample(masked, lambda scores: Boxed(np.array([np.argmax(scores.values[0])])))
    assert isinstance(ids, Boxed) and ids.values.tolist() == [engine.token_ids_history[0]]
    masked = engine.process_logits(None, Boxed(np.zeros((1, engine.vocab_size), np.float32)))
    step = choose_token(engine, masked, lambda scores: np.argmax(scores.values[0]))
    assert step[0] == engine.token_ids_history[1:]


@pytest.mark.parametrize("budget", [8, 9, 13, 21, 40])  # 8: the minimum
def test_multi_token_continuations_respect_the_budget(smollm2: Any, budget: int) -> None:
    """A forced continuation tokenized greedily can need more tokens than the fewest
    that spell it: it is kept only when the completion still fits."""
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "tags": {"type": "array"}},
        "required": ["name", "tags"],
    }
    for seed in range(3):
        engine = StructuringEngine(smollm2, multi_token_sampling=True)
        engine.configure(schema)
        rng = np.random.default_rng(seed)
        emitted: list[int] = []
        while not engine.has_reached_accept_state:
            scores = engine.process_logits(None, rng.normal(size=engine.vocab_size))
            emitted += choose_token(engine, scores, np.argmax, budget - len(emitted))[0]
        assert len(emitted) <= budget
        json.loads(smollm2.decode(emitted))


class _DigitsStepper(Stepper):
    """Exactly three ASCII digits, a Python-defined stepper (no known completion)."""

    def __init__(self, machine: StateMachine, count: int = 0) -> None:
        super().__init__(machine)
        self.count = count

    def consume(self, token: str) -> list[Stepper]:
        if not token.isdigit() or self.count + len(token) > 3:
            return []
        return [_DigitsStepper(self.state_machine, self.count + len(token))]

    def has_reached_accept_state(self) -> bool:
        return self.count == 3


class _Digits(StateMachine):
    def get_new_stepper(self, state: int | str | None = None) -> Stepper:
        return _DigitsStepper(self)


@pytest.mark.parametrize(
    ("structure", "text", "why"),
    [
        (_Digits, "7", "Python-defined steppers"),
        ({"type": "array", "items": {"type": "string"}, "uniqueItems": True}, "[", "uniqueItems"),
    ],
    ids=["python-stepper", "native-check"],
)
def test_unenforceable_budget_warns_once(smollm2: Any, structure: Any, text: str, why: str) -> None:
    """A budget over a structure with no known completion (Python-defined steppers, a
    native check such as uniqueItems) cannot be enforced: say so, once per engine."""
    engine = StructuringEngine(smollm2)
    # The machine is built here: held as a parameter, it would stay alive at exit.
    engine.configure(structure() if isinstance(structure, type) else structure)
    assert engine.completion_token_ids() is None
    token = smollm2.convert_tokens_to_ids(text)
    scores = np.zeros(engine.vocab_size, dtype=np.float32)
    scores[token] = 1.0
    with pytest.warns(RuntimeWarning, match=f"budget cannot be enforced.*{why}"):
        emitted, _, _ = choose_token(engine, scores, lambda s: int(np.argmax(s)), budget=5)
    assert emitted == [token]
    scores[:] = 0.0
    scores[engine.allowed_token_ids()[0]] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        choose_token(engine, scores, lambda s: int(np.argmax(s)), budget=5)


def test_unenforceable_budget_still_caps_forced_continuations(smollm2: Any) -> None:
    """Where the budget cannot be enforced, multi-token sampling does not append a
    forced continuation beyond it (the long fuzz run emitted 12 tokens for 7)."""
    schema = {
        "type": "object",
        "properties": {"identifiers": {"type": "array", "uniqueItems": True}},
        "required": ["identifiers"],
        "additionalProperties": False,
    }
    engine = StructuringEngine(smollm2, multi_token_sampling=True)
    engine.configure(schema)
    assert engine.completion_token_ids() is None
    scores = np.zeros(engine.vocab_size, dtype=np.float32)
    (brace_quote,) = smollm2.encode('{"')  # the key that follows is forced
    scores[brace_quote] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        emitted, _, _ = choose_token(engine, scores, lambda s: int(np.argmax(s)), budget=2)
    assert len(emitted) <= 2
    unbounded = StructuringEngine(smollm2, multi_token_sampling=True)
    unbounded.configure(schema)
    assert len(unbounded.sample(scores, lambda s: int(np.argmax(s)))) > 2


def test_a_lapsed_budget_does_not_raise_mid_output(smollm2: Any) -> None:
    """A budget not enforced before a native check can fall short of the completion
    known after it: generation goes on (warned) instead of losing the output, and
    BudgetError stays for the start of an output (the long fuzz run raised it after
    tokens were emitted)."""
    schema = {
        "type": "object",
        "properties": {
            "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
            "name": {"type": "string"},
        },
        "required": ["ids", "name"],
        "additionalProperties": False,
    }
    engine = StructuringEngine(smollm2)
    engine.configure(schema)
    assert engine.completion_token_ids() is None
    assert engine.consume_text('{"ids": []')
    plan = engine.completion_token_ids()
    assert plan is not None and len(plan) > 1
    scores = np.zeros(engine.vocab_size, dtype=np.float32)
    scores[smollm2.encode(",")[0]] = 1.0
    with pytest.warns(RuntimeWarning, match="budget cannot be enforced"):
        emitted, _, _ = choose_token(engine, scores, lambda s: int(np.argmax(s)), budget=1)
    assert len(emitted) == 1
    fresh = StructuringEngine(smollm2)
    fresh.configure({"type": "object", "required": ["name"], "additionalProperties": False,
                     "properties": {"name": {"type": "string"}}})  # fmt: skip
    with pytest.raises(BudgetError, match="shortest completion"):
        choose_token(fresh, scores, lambda s: int(np.argmax(s)), budget=1)
