"""pse_tf.mask against the bit layout, and TF tensors through pse.arrays."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from pse_core._core import apply_token_bitmask_inplace as numpy_apply
from pse_tf.mask import apply_token_bitmask, unpack_token_bitmask

from pse import arrays


def _random_mask(rng: np.random.Generator, rows: int, vocab: int) -> np.ndarray:
    words = rng.integers(0, 2**32, size=(rows, -(-vocab // 32)), dtype=np.uint32)
    return words.view(np.int32)


@pytest.mark.parametrize("vocab", [1, 31, 32, 33, 1000, 49152])
def test_unpack_matches_bit_layout(vocab: int) -> None:
    mask = _random_mask(np.random.default_rng(vocab), 2, vocab)
    allowed = np.asarray(unpack_token_bitmask(mask, vocab))
    words = mask.view(np.uint32)
    for row in range(2):
        expected = [(int(words[row, i // 32]) >> (i % 32)) & 1 == 1 for i in range(vocab)]
        assert allowed[row].tolist() == expected


@pytest.mark.parametrize("width", [100, 128, 200])
def test_apply_matches_numpy_reference(width: int) -> None:
    rng = np.random.default_rng(width)
    mask = _random_mask(rng, 3, 128)
    logits = rng.standard_normal((3, width)).astype(np.float32)
    expected = logits.copy()
    numpy_apply(expected, mask)
    assert np.array_equal(np.asarray(apply_token_bitmask(tf.constant(logits), mask)), expected)


def test_one_mask_row_applies_to_every_row() -> None:
    mask = _random_mask(np.random.default_rng(1), 1, 64)[0]
    logits = tf.zeros((2, 64), dtype=tf.bfloat16)
    masked = tf.cast(apply_token_bitmask(logits, mask), tf.float32).numpy()
    assert masked.dtype == np.float32
    assert np.array_equal(masked[0], masked[1])
    assert np.isinf(masked[0]).sum() == 64 - int(np.unpackbits(mask.view(np.uint8)).sum())


def test_mask_compiles_with_xla() -> None:
    mask = _random_mask(np.random.default_rng(5), 2, 100)
    logits = np.random.default_rng(6).standard_normal((2, 100)).astype(np.float32)
    expected = logits.copy()
    numpy_apply(expected, mask)
    compiled = tf.function(apply_token_bitmask, jit_compile=True)
    assert np.array_equal(compiled(tf.constant(logits), tf.constant(mask)).numpy(), expected)


def test_integer_logits_are_refused() -> None:
    with pytest.raises(TypeError, match="floating point"):
        apply_token_bitmask(tf.zeros(32, dtype=tf.int32), np.zeros(1, dtype=np.int32))


def test_tf_tensors_are_registered() -> None:
    logits = tf.range(64, dtype=tf.float32)
    mask = np.zeros(2, dtype=np.int32)
    mask[1] = 1 << 3  # token 35
    masked = arrays.mask_logits(logits, mask)
    assert isinstance(masked, type(logits))
    assert int(tf.argmax(masked)) == 35
    assert np.isneginf(np.asarray(arrays.exclude_token(logits, 7))[7])
    assert arrays.token_ids([1, 2], logits).numpy().tolist() == [1, 2]
