"""pse_mlx.mask against the NumPy reference in pse_core, and the mx.array registration."""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
import pytest
from pse_core._core import apply_token_bitmask_inplace as numpy_apply
from pse_mlx.mask import apply_token_bitmask, unpack_token_bitmask

from pse import StructuringEngine
from pse.types.base.phrase import PhraseStateMachine


def _random_mask(rng: np.random.Generator, rows: int, vocab: int) -> np.ndarray:
    words = -(-vocab // 32)
    return rng.integers(0, 2**32, size=(rows, words), dtype=np.uint32).view(np.int32)


@pytest.mark.parametrize("vocab", [1, 31, 32, 33, 49152])
def test_unpack_matches_bit_layout(vocab: int) -> None:
    mask = _random_mask(np.random.default_rng(vocab), 2, vocab)
    bits = np.array(unpack_token_bitmask(mask, vocab))
    for row in range(2):
        words = mask[row].view(np.uint32)
        expected = [(int(words[i >> 5]) >> (i & 31)) & 1 == 1 for i in range(vocab)]
        assert bits[row].tolist() == expected


@pytest.mark.parametrize("width", [40, 49152, 49152 + 70])
@pytest.mark.parametrize("rows", [1, 3])
def test_apply_matches_numpy_reference(width: int, rows: int) -> None:
    rng = np.random.default_rng(width + rows)
    mask = _random_mask(rng, rows, min(width, 49152))
    logits = rng.normal(size=(rows, width)).astype(np.float32)
    expected = logits.copy()
    numpy_apply(expected, mask)
    got = apply_token_bitmask(mx.array(logits), mask)
    np.testing.assert_array_equal(np.array(got), expected)


def test_one_mask_row_for_every_row_and_dtypes() -> None:
    rng = np.random.default_rng(0)
    mask = _random_mask(rng, 1, 100)
    logits = rng.normal(size=(2, 100)).astype(np.float32)
    expected = logits.copy()
    numpy_apply(expected, mask[0])
    for dtype in (mx.float32, mx.float16, mx.bfloat16):
        got = apply_token_bitmask(mx.array(logits).astype(dtype), mask[0])
        assert got.dtype == dtype
        np.testing.assert_array_equal(
            np.isinf(np.array(got.astype(mx.float32))), np.isinf(expected)
        )
    with pytest.raises(TypeError, match="floating-point"):
        apply_token_bitmask(mx.array([[1, 2]]), mask)


def test_engine_returns_mx_arrays(tokenizer: Any) -> None:
    engine = StructuringEngine(tokenizer)
    engine.configure(PhraseStateMachine('{"a": 1}'))
    scores = mx.zeros((1, len(tokenizer)), dtype=mx.bfloat16)
    masked = engine.process_logits(None, scores)
    assert isinstance(masked, mx.array) and masked.dtype == mx.bfloat16
    allowed = np.flatnonzero(np.isfinite(np.array(masked.astype(mx.float32))[0])).tolist()
    assert allowed == engine.allowed_token_ids()
    ids = engine.sample(masked, lambda logprobs: mx.argmax(logprobs, axis=-1))
    assert isinstance(ids, mx.array) and ids.tolist() == [allowed[0]]
