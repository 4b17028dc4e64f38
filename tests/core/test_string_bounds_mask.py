"""Masks of length-bounded JSON strings (filtered from one bound-free walk of
the vocabulary) against token-by-token consumption, on a real tokenizer."""

from __future__ import annotations

import pytest
from pse_core._core import Engine, PhraseStateMachine, StateMachine, StringStateMachine

from .conftest import real_vocab, walk_checking_masks


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
    walk_checking_masks(engine, seed=low * 31 + (high or 0), steps=8)
