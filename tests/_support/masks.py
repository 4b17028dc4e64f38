"""Masks checked against a reference at the engine's position (real tokenizer):
the steppers (every token the mask allows, and only those, can be consumed
whole), or a grammar's ``validate`` along a text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from pse_core._core import StateMachine


def assert_mask_is_what_steppers_consume(
    tokenizer: Any, schema: Any, prefix: str
) -> NDArray[np.int32]:
    """Configure ``schema``, consume ``prefix``'s tokens, fill the mask and compare
    it with ``advance_all_basic`` on every token that decodes to text (control
    and added tokens, and byte fragments, left out). Returns the mask."""
    from pse import StructuringEngine  # noqa: PLC0415

    engine = StructuringEngine(tokenizer)
    engine.configure(schema)
    for token_id in tokenizer.encode(prefix, add_special_tokens=False):
        engine.consume_token(token_id)
    mask = np.zeros((engine.vocab_size + 31) // 32, dtype=np.int32)
    engine.fill_bitmask(mask)
    special = set(tokenizer.all_special_ids) | set(tokenizer.get_added_vocab().values())
    for token_id in range(engine.vocab_size):
        text = tokenizer.decode([token_id])
        if token_id in special or not text or "\ufffd" in text:
            continue
        allowed = bool((int(mask[token_id >> 5]) >> (token_id & 31)) & 1)
        consumed = bool(StateMachine.advance_all_basic(engine.steppers, text))
        assert allowed == consumed, (prefix, text)
    return mask


class _Validating(Protocol):
    def validate(self, code: bytes, /) -> bool: ...


def allowed_ids(engine: Any) -> set[int]:
    """The token ids the engine's current mask allows."""
    bits = engine.token_bitmask()
    return set(np.flatnonzero(np.unpackbits(bits.view(np.uint8), bitorder="little")).tolist())


def assert_masks_follow_validate(
    engine: Any, grammar: _Validating, text: str, tried: Iterable[int]
) -> None:
    """Walk ``text``'s tokens: each is in the mask, and each token of ``tried`` is in
    the mask exactly when the text so far with it is a valid prefix for ``grammar``.
    The walk ends in an accept state."""
    vocab = engine.native_vocabulary
    tried = list(tried)
    done = b""
    for tid in engine.tokenizer.encode(text, add_special_tokens=False):
        ids = allowed_ids(engine)
        assert tid in ids, (done, vocab.token_bytes(tid))
        for j in tried:
            tok = vocab.token_bytes(j)
            if tok:
                assert (j in ids) == grammar.validate(done + tok), (done, tok)
        engine.consume_token(tid)
        done += vocab.token_bytes(tid) or b""
    assert engine.has_reached_accept_state


__all__ = ["allowed_ids", "assert_mask_is_what_steppers_consume", "assert_masks_follow_validate"]
