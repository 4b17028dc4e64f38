"""pse_tf.mask against the bit layout, and TF tensors through pse.arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pse_tf.mask
import tensorflow as tf
from _support.adapter_cases import MaskCases, random_mask
from pse_core._core import apply_token_bitmask_inplace as numpy_apply


class TestTFMask(MaskCases):
    mask = pse_tf.mask

    def array(self, values: Any, dtype: str) -> Any:
        return tf.constant(values, dtype=getattr(tf, dtype))

    def test_mask_compiles_with_xla(self) -> None:
        mask = random_mask(np.random.default_rng(5), 2, 100)
        logits = np.random.default_rng(6).standard_normal((2, 100)).astype(np.float32)
        expected = logits.copy()
        numpy_apply(expected, mask)
        compiled = tf.function(self.mask.apply_token_bitmask, jit_compile=True)
        assert np.array_equal(compiled(tf.constant(logits), tf.constant(mask)).numpy(), expected)
