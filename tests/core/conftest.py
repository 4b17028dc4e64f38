"""Fixtures for the native core: synthetic and real vocabularies, small grammars."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from _support.tokenizers import smollm2_tokenizer
from pse_core._core import (
    CharacterStateMachine,
    Engine,
    LoopStateMachine,
    NumberStateMachine,
    PhraseStateMachine,
    RefStateMachine,
    StateMachine,
    StringStateMachine,
    Vocabulary,
)

# A small vocabulary with the shapes that matter: single bytes, words, tokens
# that straddle structure ('{"', '":', '",'), whitespace runs, partial UTF-8
# ('\xc3' then '\xa9' is 'é'), a control token (None) and an end token.
SYNTHETIC_TOKENS: list[bytes | None] = [
    *(bytes([b]) for b in range(0x20, 0x7F)),
    b"true",
    b"tr",
    b"ue",
    b"fal",
    b"se",
    b"null",
    b'{"',
    b'":',
    b'",',
    b'"}',
    b'"]',
    b"  ",
    b"\n",
    b"\n  ",
    b"12",
    b"123",
    b"-1",
    b".5",
    b"e+",
    b"hello",
    b" world",
    b"\xc3",
    b"\xa9",
    "é".encode(),
    "😀".encode()[:2],
    "😀".encode()[2:],
    b"\\u00",
    b"\\n",
    b"ab",
    b"abc",
    b"abcd",
    b"```",
    b"```json\n",
    b"\n```",
    b"<a>",
    b"</a>",
    b"<",
    None,  # control token
    None,  # end of sequence
]
CONTROL_ID = len(SYNTHETIC_TOKENS) - 2
EOS_ID = len(SYNTHETIC_TOKENS) - 1


@pytest.fixture(scope="session")
def synthetic_vocab() -> Vocabulary:
    return Vocabulary(SYNTHETIC_TOKENS, [CONTROL_ID], [EOS_ID])


def _gpt2_byte_decoder() -> dict[str, int]:
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += range(ord("®"), ord("ÿ") + 1)
    chars = list(printable)
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


@functools.cache
def real_vocab() -> tuple[object, Vocabulary]:
    """SmolLM2's tokenizer and its Vocabulary (byte-level BPE decoded here,
    independently of pse.vocabulary)."""
    tok = smollm2_tokenizer()
    decode = _gpt2_byte_decoder()
    table = tok.get_vocab()
    size = max(max(table.values()) + 1, len(tok))
    special = set(tok.all_special_ids)
    special |= {i for i, t in tok.added_tokens_decoder.items() if t.special}
    tokens: list[bytes | None] = [None] * size
    for text, i in table.items():
        if i not in special:
            tokens[i] = bytes(decode[c] for c in text)
    return tok, Vocabulary(tokens, sorted(special), [tok.eos_token_id])


def json_grammar() -> StateMachine:
    """The any-JSON-value grammar built from native nodes only."""
    value = RefStateMachine()
    ws = CharacterStateMachine(" \t\n\r", char_limit=20, is_optional=True)

    def chain(*machines: StateMachine) -> StateMachine:
        graph = {i: [(m, i + 1)] for i, m in enumerate(machines)}
        return StateMachine(graph, 0, [len(machines)])

    sep = chain(ws, PhraseStateMachine(","), ws)
    pair = chain(StringStateMachine(), ws, PhraseStateMachine(":"), ws, value)
    obj = chain(
        PhraseStateMachine("{"), ws, LoopStateMachine(pair, 0, -1, sep), ws, PhraseStateMachine("}")
    )
    arr = chain(
        PhraseStateMachine("["),
        ws,
        LoopStateMachine(value, 0, -1, sep),
        ws,
        PhraseStateMachine("]"),
    )
    literals = [PhraseStateMachine(w) for w in ("true", "false", "null")]
    alternatives = [obj, arr, StringStateMachine(), NumberStateMachine(), *literals]
    target = StateMachine({0: [(m, "$") for m in alternatives]})
    value.set_target(target)
    target.seal()  # the reference becomes a back-edge: no cycle, freed with the root
    return target


def accepts(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text) if text else None
    if steppers is None:
        return any(s.has_reached_accept_state() for s in machine.get_steppers())
    return any(s.has_reached_accept_state() and s.remaining_input is None for s in steppers)


def prefix_ok(machine: StateMachine, text: str) -> bool:
    steppers = StateMachine.advance_all_basic(machine.get_steppers(), text)
    return any(s.remaining_input is None for s in steppers)


def mask_ids(engine: Engine) -> set[int]:
    """The token ids the engine's filled bitmask allows (its count checked too)."""
    bits = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    count = engine.fill_bitmask(bits)
    ids = set(np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little")).tolist())
    assert count == len(ids)
    return ids


def walk_checking_masks(engine: Engine, seed: int, steps: int, label: str = "") -> None:
    """Consume up to `steps` random allowed tokens; before each, the mask must be
    exactly the tokens ``is_token_allowed`` accepts (stops when only ends are left)."""
    rng = random.Random(seed)
    ends = set(engine.native_vocabulary.eos_token_ids)
    for step in range(steps):
        allowed = mask_ids(engine)
        expected = {i for i in range(engine.vocab_size) if engine.is_token_allowed(i)}
        assert allowed == expected, f"{label} step {step} after {engine.raw_output!r}"
        choices = sorted(allowed - ends)
        if not choices:
            break
        engine.consume_token(rng.choice(choices))
