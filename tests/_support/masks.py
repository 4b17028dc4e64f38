"""A mask checked against the steppers: every token the mask allows, and only
those, can be consumed whole from the engine's position (real tokenizer)."""

from __future__ import annotations

from typing import Any

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


__all__ = ["assert_mask_is_what_steppers_consume"]
