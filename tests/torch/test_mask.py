"""pse_torch.mask against the NumPy reference in pse_core."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from pse_core._core import apply_token_bitmask_inplace as numpy_apply
from pse_torch.mask import (
    allocate_token_bitmask,
    apply_token_bitmask_inplace,
    unpack_token_bitmask,
)


def _random_mask(rng: np.random.Generator, rows: int, vocab: int) -> torch.Tensor:
    mask = allocate_token_bitmask(rows, vocab)
    mask.numpy().view(np.uint32)[:] = rng.integers(0, 2**32, size=mask.shape, dtype=np.uint32)
    return mask


def test_allocate_shape_and_dtype() -> None:
    mask = allocate_token_bitmask(3, 49152 + 5)
    assert mask.shape == (3, 1537)
    assert mask.dtype == torch.int32
    assert not mask.any()


@pytest.mark.parametrize("vocab", [1, 31, 32, 33, 1000, 49152])
def test_unpack_matches_bit_layout(vocab: int) -> None:
    rng = np.random.default_rng(vocab)
    mask = _random_mask(rng, 2, vocab)
    allowed = unpack_token_bitmask(mask, vocab).numpy()
    words = mask.numpy().view(np.uint32)
    for row in range(2):
        expected = [(int(words[row, i // 32]) >> (i % 32)) & 1 == 1 for i in range(vocab)]
        assert allowed[row].tolist() == expected


@pytest.mark.parametrize("width", [100, 128, 200])
def test_apply_matches_numpy_reference(width: int) -> None:
    rng = np.random.default_rng(width)
    mask = _random_mask(rng, 1, 128)  # logits may be wider than the mask
    logits = torch.randn(3, width)
    reference = logits.numpy().copy()
    numpy_apply(reference, mask[0].numpy()[: -(-min(width, 128) // 32)].copy())
    if width > 128:
        reference[:, 128:] = -np.inf
    apply_token_bitmask_inplace(logits, mask)
    assert np.array_equal(logits.numpy(), reference)


def test_per_row_masks_and_indices() -> None:
    rng = np.random.default_rng(7)
    mask = _random_mask(rng, 2, 64)
    logits = torch.zeros(3, 64)
    apply_token_bitmask_inplace(logits, mask, indices=[0, 2])
    allowed = unpack_token_bitmask(mask, 64)
    assert torch.equal(torch.isfinite(logits[0]), allowed[0])
    assert torch.isfinite(logits[1]).all()  # untouched row
    assert torch.equal(torch.isfinite(logits[2]), allowed[1])


def test_one_dimensional_logits_and_dtypes() -> None:
    mask = allocate_token_bitmask(1, 40)
    mask[0, 0] = 0b101
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        logits = torch.zeros(40, dtype=dtype)
        apply_token_bitmask_inplace(logits, mask[0])
        assert torch.isfinite(logits).nonzero().flatten().tolist() == [0, 2]
    with pytest.raises(TypeError):
        apply_token_bitmask_inplace(torch.zeros(40, dtype=torch.int64), mask)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_apply_on_cuda_matches_cpu() -> None:
    rng = np.random.default_rng(3)
    mask = _random_mask(rng, 2, 49152)
    logits = torch.randn(2, 49152)
    expected = apply_token_bitmask_inplace(logits.clone(), mask)
    got = apply_token_bitmask_inplace(logits.cuda(), mask)
    assert got.device.type == "cuda"
    assert torch.equal(got.cpu(), expected)
