"""Shortest completions: from any prefix, the engine knows the fewest bytes
(and tokens) that finish the structure, and they really finish it."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import (
    Engine,
    LoopStateMachine,
    NumberStateMachine,
    PhraseStateMachine,
    StateMachine,
    StringStateMachine,
)

from .conftest import json_grammar, real_vocab

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60)
@given(JSON, st.integers(min_value=0), st.booleans())
def test_prefix_plus_completion_is_valid_json(value: object, cut: int, compact: bool) -> None:
    tok, vocab = real_vocab()
    text = json.dumps(value, separators=(",", ":") if compact else None)
    ids = tok.encode(text, add_special_tokens=False)
    ids = ids[: cut % (len(ids) + 1)]
    engine = Engine(vocab)
    engine.state_machine = json_grammar()
    for t in ids:
        engine.consume_token(t)
    completion = engine.shortest_completion()
    assert completion is not None
    json.loads(tok.decode(ids) + completion)
    tokens = engine.completion_token_ids()
    assert tokens is not None and tok.decode(tokens) == completion
    for t in tokens:
        engine.consume_token(t)
    assert engine.has_reached_accept_state


def test_completion_respects_constraints() -> None:
    _, vocab = real_vocab()
    sm = StateMachine(
        {
            0: [(PhraseStateMachine("<"), 1)],
            1: [(StringStateMachine(min_length=3), 2)],
            2: [(LoopStateMachine(NumberStateMachine(), 2, -1, PhraseStateMachine(",")), 3)],
            3: [(PhraseStateMachine(">"), "$")],
        }
    )
    engine = Engine(vocab)
    engine.state_machine = sm
    completion = engine.shortest_completion()
    assert completion is not None and len(completion) == len('<"abc"0,0>')
    assert engine.consume_text(completion) and engine.has_reached_accept_state


def test_completion_after_a_token_and_when_complete() -> None:
    tok, vocab = real_vocab()
    engine = Engine(vocab)
    engine.state_machine = json_grammar()
    assert engine.shortest_completion() == "0"
    brace = tok.encode("{", add_special_tokens=False)[0]
    assert engine.completion_length_after(brace) == 1  # "}"
    engine.consume_token(brace)
    engine.consume_token(tok.encode("}", add_special_tokens=False)[0])
    assert engine.shortest_completion() == "" and engine.completion_token_ids() == []
    assert engine.completion_length_after(brace) is None  # not allowed any more
