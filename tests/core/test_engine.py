"""Engine: exact masks against references that share no code with the mask
walk (an enumerated language; per-token consumption), EOS and control tokens,
multi-token processing, token healing, and bad input."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from pse_core._core import (
    CharacterStateMachine,
    Engine,
    PhraseStateMachine,
    StateMachine,
    Vocabulary,
    apply_token_bitmask_inplace,
)
from pse_core.errors import TokenRejectedError, VocabularyError

from .conftest import CONTROL_ID, EOS_ID, SYNTHETIC_TOKENS, json_grammar, mask_ids, real_vocab

BENCH = Path(__file__).resolve().parents[3] / "shared" / "bench" / "schemas.json"


def braces_grammar() -> StateMachine:
    digits = CharacterStateMachine("0123456789", char_min=1, char_limit=3)
    ws = CharacterStateMachine(" ", char_limit=2, is_optional=True)
    return StateMachine(
        {
            0: [(PhraseStateMachine("{"), 1)],
            1: [(digits, 2)],
            2: [(ws, 3)],
            3: [(PhraseStateMachine("}"), "$")],
        }
    )


def braces_language() -> set[bytes]:
    words = {
        b"{" + bytes(d) + b" " * w + b"}"
        for n in (1, 2, 3)
        for d in itertools.product(b"0123456789", repeat=n)
        for w in (0, 1, 2)
    }
    return words


def test_mask_equals_enumerated_language(synthetic_vocab: Vocabulary) -> None:
    language = braces_language()
    prefixes = {w[:i] for w in language for i in range(len(w) + 1)}
    for text in (b"", b"{", b"{1", b"{12", b"{123", b"{1 ", b"{12  ", b"{7}"):
        engine = Engine(synthetic_vocab)
        engine.state_machine = braces_grammar()
        ids = {t: i for i, t in enumerate(SYNTHETIC_TOKENS) if t is not None}
        for ch in text:
            engine.consume_token(ids[bytes([ch])])
        expected = {
            i
            for i, tok in enumerate(SYNTHETIC_TOKENS)
            if tok is not None and text + tok in prefixes
        }
        if text in language:
            expected.add(EOS_ID)
        assert mask_ids(engine) == expected, text


def test_many_alternatives_are_deduplicated_exactly(synthetic_vocab: Vocabulary) -> None:
    """Past 32 positions the set is hashed: equal stacks merge, distinct ones all stay."""
    words = [f"1{i:02d}" for i in range(60)]
    phrases = [PhraseStateMachine(w) for w in words]
    # Every phrase twice on the same edge: equal stacks, which must merge.
    grammar = StateMachine({0: [(p, "$") for p in phrases + phrases]})
    ids = {t: i for i, t in enumerate(SYNTHETIC_TOKENS) if t is not None}
    for text in ("", "1", "15", "159", "12"):
        engine = Engine(synthetic_vocab)
        engine.state_machine = grammar
        for ch in text:
            engine.consume_token(ids[ch.encode()])
        expected = {
            i
            for i, tok in enumerate(SYNTHETIC_TOKENS)
            if tok is not None and any(w.startswith(text + tok.decode("latin-1")) for w in words)
        }
        if text in words:
            expected.add(EOS_ID)
        assert mask_ids(engine) == expected, text


def test_eos_only_at_accept_and_control_tokens(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    engine.state_machine = PhraseStateMachine("ab")
    assert EOS_ID not in mask_ids(engine) and CONTROL_ID not in mask_ids(engine)
    with pytest.raises(TokenRejectedError, match="end-of-sequence"):
        engine.consume_token(EOS_ID)
    with pytest.raises(TokenRejectedError, match="control"):
        engine.consume_token(CONTROL_ID)
    engine.whitelist_control_token_ids = [CONTROL_ID]
    assert CONTROL_ID in mask_ids(engine)
    assert engine.consume_token(CONTROL_ID) == [CONTROL_ID]  # passes through
    engine.consume_token(SYNTHETIC_TOKENS.index(b"ab"))
    assert engine.has_reached_accept_state and EOS_ID in mask_ids(engine)
    assert engine.consume_token(EOS_ID) == [EOS_ID]


def test_rejections(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    with pytest.raises(TokenRejectedError, match="configure"):
        engine.consume_token(0)
    engine.state_machine = PhraseStateMachine("ab")
    with pytest.raises(TokenRejectedError, match="cannot be consumed"):
        engine.consume_token(SYNTHETIC_TOKENS.index(b"b"))
    with pytest.raises(TokenRejectedError, match="outside"):
        engine.consume_token(10**6)
    with pytest.raises(VocabularyError, match="words"):
        engine.fill_bitmask(np.zeros(1, dtype=np.int32))
    with pytest.raises(TypeError):
        engine.fill_bitmask(np.zeros(10, dtype=np.float32))


def test_bad_vocabularies() -> None:
    with pytest.raises(VocabularyError, match="no tokens"):
        Vocabulary([])
    with pytest.raises(VocabularyError, match="no ordinary"):
        Vocabulary([None, None], [0, 1])
    with pytest.raises(VocabularyError, match="outside"):
        Vocabulary([b"a"], [5])


def test_reset_and_state_machine_property(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    sm = PhraseStateMachine("ab")
    engine.state_machine = sm
    engine.consume_token(SYNTHETIC_TOKENS.index(b"a"))
    assert engine.steppers[0].get_raw_value() == "a"
    engine.reset()
    assert engine.state_machine is sm and engine.steppers[0].get_raw_value() == ""
    engine.reset(hard_reset=True)
    assert engine.state_machine is None and engine.steppers == []


def test_multi_token_returns_forced_continuation(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab, multi_token_sampling=True)
    engine.state_machine = StateMachine(
        {0: [(PhraseStateMachine("hello"), 1)], 1: [(PhraseStateMachine(" world"), "$")]}
    )
    emitted = engine.consume_token(SYNTHETIC_TOKENS.index(b"h"))
    assert [SYNTHETIC_TOKENS[i] for i in emitted] == [b"h", b"e", b"ll", b"o", b" world"][:1] + [
        SYNTHETIC_TOKENS[i] for i in emitted[1:]
    ]
    assert b"".join(SYNTHETIC_TOKENS[i] or b"" for i in emitted) == b"hello world"
    assert engine.has_reached_accept_state


def test_multi_token_stops_at_ambiguity(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab, multi_token_sampling=True)
    engine.state_machine = StateMachine(
        {0: [(PhraseStateMachine("abc"), "$"), (PhraseStateMachine("abd"), "$")]}
    )
    emitted = engine.consume_token(SYNTHETIC_TOKENS.index(b"a"))
    assert b"".join(SYNTHETIC_TOKENS[i] or b"" for i in emitted) == b"ab"


def test_consume_text_heals(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    engine.state_machine = StateMachine(
        {0: [(PhraseStateMachine("hello"), 1)], 1: [(PhraseStateMachine(" world"), "$")]}
    )
    assert engine.consume_text("hello")
    assert not engine.consume_text("!")
    assert engine.consume_text(" world")
    assert engine.has_reached_accept_state
    engine.reset()
    engine.state_machine = PhraseStateMachine("hello")
    assert engine.consume_text("hello!")  # healed to the vocabulary token "hello"
    assert engine.token_ids_history == [SYNTHETIC_TOKENS.index(b"hello")]


def test_partial_utf8_tokens(synthetic_vocab: Vocabulary) -> None:
    engine = Engine(synthetic_vocab)
    engine.state_machine = CharacterStateMachine("é")
    allowed = {SYNTHETIC_TOKENS[i] for i in mask_ids(engine)}
    assert allowed == {b"\xc3", "é".encode()}
    engine.consume_token(SYNTHETIC_TOKENS.index(b"\xc3"))
    assert {SYNTHETIC_TOKENS[i] for i in mask_ids(engine)} == {b"\xa9"}


def test_apply_token_bitmask_inplace() -> None:
    bits = np.zeros(2, dtype=np.int32)
    bits[0] = 0b101
    for dtype in (np.float16, np.float32, np.float64):
        logits = np.zeros((2, 40), dtype=dtype)
        apply_token_bitmask_inplace(logits, bits)
        assert np.isfinite(logits[:, [0, 2]]).all() and np.isneginf(logits[:, 1]).all()
        assert np.isneginf(logits[:, 3:]).all()
    one = np.zeros(3, dtype=np.float32)
    apply_token_bitmask_inplace(one, bits)
    assert one.tolist()[1] == -np.inf


def instances() -> list[str]:
    if BENCH.is_file():
        docs = [s["instance"] for s in json.loads(BENCH.read_text())]
    else:
        docs = [{"a": [1, -2.5e3, True, None], "b": {"c": "d"}}]
    docs.append({"text": 'é 😀 \\ " \u00ff', "n": [0, 1e-3, -0.0]})
    return [json.dumps(d) for d in docs]


@pytest.mark.parametrize("text", instances()[:3] + instances()[-1:])
def test_real_tokenizer_mask_matches_per_token_consumption(text: str) -> None:
    tok, vocab = real_vocab()
    engine = Engine(vocab)
    engine.state_machine = json_grammar()
    ids = tok.encode(text, add_special_tokens=False)
    for step, token in enumerate(ids):
        allowed = mask_ids(engine)
        assert token in allowed
        if step % 7 == 0 or step == len(ids) - 1:
            expected = {i for i in range(len(vocab)) if engine.is_token_allowed(i)}
            assert allowed == expected, f"step {step} after {tok.decode(ids[:step])!r}"
        engine.consume_token(token)
    assert engine.has_reached_accept_state
    assert json.loads(engine.raw_output) == json.loads(text)


def test_ascii_whitelist_rejects_multibyte_lead_bytes() -> None:
    vocab = Vocabulary([b" ", b"a", b"\xe0", b"\xf0", b"\xc3", b"\xc2"])
    engine = Engine(vocab)
    engine.state_machine = CharacterStateMachine(" \t")
    assert engine.allowed_token_ids() == [0]
    engine.state_machine = CharacterStateMachine("\u00e9\u0800")  # é (c3 a9) and ࠀ (e0 a0 80)
    assert {vocab.token_bytes(i) for i in engine.allowed_token_ids()} == {b"\xc3", b"\xe0"}
