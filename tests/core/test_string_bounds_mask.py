"""Masks of length-bounded JSON strings (filtered from one bound-free walk of
the vocabulary) against token-by-token consumption, on a real tokenizer."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pse_core._core import Engine, PhraseStateMachine, StateMachine, StringStateMachine

from .conftest import real_vocab


def allowed_ids(engine: Engine) -> set[int]:
    bits = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    engine.fill_bitmask(bits)
    return set(np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little")).tolist())


@pytest.mark.parametrize("bounds", [(0, None), (3, 5), (0, 1), (2, 2), (5, 12), (1, 40)])
def test_bounded_string_mask_matches_consumption(bounds: tuple[int, int | None]) -> None:
    _, vocab = real_vocab()
    low, high = bounds
    string = (
        StringStateMachine(min_length=low, max_length=high)
        if high
        else StringStateMachine(min_length=low)
    )
    # A second string after the first, so tokens that close one go on into the other.
    machine = StateMachine(
        {0: [(string, 1)], 1: [(PhraseStateMachine(","), 2)], 2: [(StringStateMachine(), 3)]},
        0,
        [3],
    )
    engine = Engine(vocab)
    engine.state_machine = machine
    rng = random.Random(sum(bounds[:1]) * 31 + (high or 0))
    for step in range(8):
        allowed = allowed_ids(engine)
        expected = {i for i in range(len(vocab)) if engine.is_token_allowed(i)}
        assert allowed == expected, f"step {step} after {engine.raw_output!r}"
        choices = sorted(allowed - set(vocab.eos_token_ids))
        if not choices:
            break
        engine.consume_token(rng.choice(choices))
