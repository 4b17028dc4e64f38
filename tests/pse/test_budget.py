"""Budget-aware completion: with a token budget, sampling never leaves the
structure unfinished, and a budget below the minimum is refused up front."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _support.tokenizers import smollm2_tokenizer
from pse_core.errors import BudgetError

from pse import StructuringEngine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine


def run(engine: StructuringEngine, budget: int, seed: int, greedy: bool) -> list[int]:
    rng = np.random.default_rng(seed)
    vocab = engine.vocab_size
    emitted: list[int] = []
    # A model that loves to open strings and keep writing: the hard case.
    bias = np.zeros(vocab, dtype=np.float32)
    tok = engine.tokenizer
    for text in ('"', ' "', "{", "["):
        bias[tok.encode(text, add_special_tokens=False)[0]] = 4.0

    def sampler(scores: np.ndarray) -> int:
        if greedy:
            return int(np.argmax(scores))
        p = np.exp(scores - scores.max())
        return int(rng.choice(len(p), p=p / p.sum()))

    while len(emitted) < budget and not engine.has_reached_accept_state:
        logits = rng.normal(size=vocab).astype(np.float32) + bias
        masked = engine.process_logits(None, logits)
        emitted += engine.sample(masked, sampler, budget - len(emitted)).tolist()
    return emitted


@pytest.mark.parametrize("greedy", [True, False], ids=["greedy", "sampled"])
@pytest.mark.parametrize("budget", [1, 2, 3, 5, 8, 13, 21, 40])
def test_json_always_complete_within_budget(budget: int, greedy: bool) -> None:
    tok = smollm2_tokenizer()
    for seed in range(3):
        engine = StructuringEngine(tok)
        engine.configure(JsonStateMachine())
        emitted = run(engine, budget, seed, greedy)
        assert len(emitted) <= budget
        assert engine.has_reached_accept_state
        json.loads(tok.decode(emitted))


def test_budget_below_the_minimum_is_refused() -> None:
    tok = smollm2_tokenizer()
    engine = StructuringEngine(tok)
    engine.configure(PhraseStateMachine("The quick brown fox jumps over the lazy dog."))
    minimum = len(engine.completion_token_ids() or [])
    assert minimum >= 5
    with pytest.raises(BudgetError, match="shortest completion"):
        engine.sample(np.zeros(engine.vocab_size, dtype=np.float32), np.argmax, minimum - 1)


def test_large_budget_changes_nothing() -> None:
    tok = smollm2_tokenizer()
    outputs = []
    for budget in (None, 10_000):
        engine = StructuringEngine(tok)
        engine.configure(JsonStateMachine())
        rng = np.random.default_rng(7)
        emitted: list[int] = []
        while not engine.has_reached_accept_state and len(emitted) < 200:
            masked = engine.process_logits(
                None, rng.normal(size=engine.vocab_size).astype(np.float32)
            )
            emitted += engine.sample(masked, np.argmax, budget).tolist()
        outputs.append(emitted)
    assert outputs[0] == outputs[1]


def test_forced_completion_with_multi_token_sampling() -> None:
    tok = smollm2_tokenizer()
    engine = StructuringEngine(tok, multi_token_sampling=True)
    engine.configure(JsonStateMachine())
    engine.consume_text('{"a": [{"b": "text')
    plan = engine.completion_token_ids()
    assert plan
    emitted = engine.sample(np.zeros(engine.vocab_size, dtype=np.float32), np.argmax, len(plan))
    assert emitted.tolist() == plan and engine.has_reached_accept_state
