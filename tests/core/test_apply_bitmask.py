"""apply_token_bitmask_inplace against a NumPy reference, on random masks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core._core import apply_token_bitmask_inplace

WORDS = st.sampled_from([0, -1, 1, 0x55555555, -0x80000000, 0x7FFFFFFF])


def reference(logits: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """-inf where the bit is clear or the column lies past the bitmask."""
    rows = logits.reshape(-1, logits.shape[-1])
    bits2 = bits.reshape(-1, bits.shape[-1])
    out = rows.copy()
    for r in range(rows.shape[0]):
        row_bits = bits2[0 if bits2.shape[0] == 1 else r].view(np.uint32)
        allowed = np.unpackbits(row_bits.view(np.uint8), bitorder="little").astype(bool)
        keep = np.zeros(rows.shape[1], dtype=bool)
        n = min(rows.shape[1], allowed.size)
        keep[:n] = allowed[:n]
        out[r, ~keep] = -np.inf
    return out.reshape(logits.shape)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 3),
    cols=st.integers(1, 200),
    words=st.integers(1, 8),
    per_row=st.booleans(),
    dtype=st.sampled_from([np.float16, np.float32, np.float64]),
    data=st.data(),
)
def test_matches_reference(
    rows: int, cols: int, words: int, per_row: bool, dtype: type, data: st.DataObject
) -> None:
    bit_rows = rows if per_row else 1
    bits = np.array(
        data.draw(
            st.lists(
                WORDS | st.integers(-(2**31), 2**31 - 1),
                min_size=bit_rows * words,
                max_size=bit_rows * words,
            )
        ),
        dtype=np.int32,
    ).reshape(bit_rows, words)
    logits = np.arange(rows * cols, dtype=dtype).reshape(rows, cols)
    expected = reference(logits, bits)
    apply_token_bitmask_inplace(logits, bits if per_row else bits[0])
    np.testing.assert_array_equal(logits, expected)
