"""Masks of byte automata whose states read whole character classes (the
vocabulary's class index serves their runs) against token-by-token
consumption, on a real tokenizer."""

from __future__ import annotations

import pytest
from pse_core._core import DfaStateMachine, Engine, PhraseStateMachine, StateMachine

from .conftest import real_vocab, walk_checking_masks

DIGITS = b"0123456789"
LOWER = b"abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
WORD = DIGITS + LOWER + UPPER + b"_"
Part = tuple[bytes, int, int | None]  # bytes, at least, at most (None: unbounded)


def sequence_dfa(parts: list[Part], *, quoted: bool) -> DfaStateMachine:
    """An automaton for the concatenation of `parts` (bytes, at least, at most
    or None for unbounded), between double quotes when `quoted`."""
    rows: list[list[int]] = []
    accepting: list[bool] = []

    def state() -> int:
        rows.append([-1] * 256)
        accepting.append(False)
        return len(rows) - 1

    current = [state()]  # states from which the next part may start
    if quoted:
        after = state()
        rows[current[0]][ord('"')] = after
        current = [after]
    for chars, low, high in parts:
        ends: list[int] = []
        last = -1
        count = max(low, 1) if high is None else high
        for k in range(count):
            nxt = state()
            for s in current if k == 0 else [last]:
                for c in chars:
                    rows[s][c] = nxt
            last = nxt
            if k + 1 >= low:
                ends.append(nxt)
        if high is None and last >= 0:
            for c in chars:
                rows[last][c] = last
        current = (current if low == 0 else []) + ends
    if quoted:
        closed = state()
        for s in current:
            rows[s][ord('"')] = closed
        current = [closed]
    for s in current:
        accepting[s] = True
    return DfaStateMachine(rows, accepting)


CASES: dict[str, tuple[list[Part], bool]] = {
    "identifier": ([(LOWER, 1, 1), (DIGITS + LOWER + b"_", 2, 15)], True),
    "ticket": ([(UPPER, 3, 3), (b"-", 1, 1), (DIGITS, 4, 4)], True),
    "hex loop": ([(b"0123456789abcdef", 1, None)], False),
    "words then at": ([(WORD + b" .", 0, None), (b"@", 1, 1), (LOWER, 1, 3)], True),
    "digits": ([(DIGITS, 1, 12)], False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_class_runs_mask_matches_consumption(name: str) -> None:
    _, vocab = real_vocab()
    parts, quoted = CASES[name]
    dfa = sequence_dfa(parts, quoted=quoted)
    # Something after the automaton, so tokens that finish it go on.
    machine = StateMachine(
        {0: [(dfa, 1)], 1: [(PhraseStateMachine(","), 2)], 2: [(PhraseStateMachine("x"), 3)]},
        0,
        [3],
    )
    for seed in range(3):
        engine = Engine(vocab)
        engine.state_machine = machine
        walk_checking_masks(engine, seed=seed, steps=10, label=name)
