"""Token bitmasks applied to ``mx.array`` logits.

The native core fills a packed host ``int32[rows, ceil(vocab / 32)]`` bitmask
(bit ``i % 32`` of word ``i // 32`` set when token ``i`` is allowed). The
packed words (4 bytes per 32 tokens) become an ``mx.array`` and are unpacked
by MLX, so the masking is part of the same lazy graph as the model step, on
MLX's default device.

Importing this module registers ``mx.array`` with :mod:`pse.arrays`, so
``StructuringEngine.process_logits`` and ``sample`` return ``mx.array``.
"""

from __future__ import annotations

from typing import Any

import mlx.core as mx
import numpy as np
from numpy.typing import NDArray

from pse.arrays import ArrayType, register_array_type

__all__ = ["apply_token_bitmask", "unpack_token_bitmask"]

_SHIFTS = mx.arange(8, dtype=mx.uint8)


def unpack_token_bitmask(bitmask: NDArray[np.int32], width: int) -> mx.array:
    """``bool[rows, width]`` (or ``bool[width]`` for a 1-D mask): True where allowed.

    Columns beyond the bitmask's ``32 * words`` bits are False.
    """
    host = np.ascontiguousarray(bitmask, dtype=np.int32)
    octets = mx.array(host.view(np.uint8))  # little-endian: bit j is bit j % 8 of byte j // 8
    bits = (octets[..., None] >> _SHIFTS) & 1
    allowed = bits.reshape(*host.shape[:-1], -1).astype(mx.bool_)
    have = allowed.shape[-1]
    if have >= width:
        return allowed[..., :width]
    pad = mx.zeros((*allowed.shape[:-1], width - have), dtype=mx.bool_)
    return mx.concatenate([allowed, pad], axis=-1)


def apply_token_bitmask(logits: mx.array, bitmask: NDArray[np.int32]) -> mx.array:
    """``logits`` (``[vocab]`` or ``[rows, vocab]``) with forbidden tokens at ``-inf``.

    A single bitmask row applies to every logits row. MLX arrays are not
    masked in place: the masked logits are returned.
    """
    if not mx.issubdtype(logits.dtype, mx.floating):
        raise TypeError(f"logits must be a floating-point array, got {logits.dtype}")
    allowed = unpack_token_bitmask(bitmask, logits.shape[-1])
    if allowed.ndim == 2 and logits.ndim == 1:
        allowed = allowed[0]
    return mx.where(allowed, logits, mx.array(-mx.inf, dtype=logits.dtype))


def _to_numpy(value: mx.array) -> NDArray[Any]:
    if value.dtype == mx.bfloat16:  # NumPy has no bfloat16
        value = value.astype(mx.float32)
    return np.array(value)


def _from_numpy(values: NDArray[Any], like: mx.array) -> mx.array:
    return mx.array(values).astype(like.dtype)


def _token_ids(ids: list[int], like: mx.array) -> mx.array:
    return mx.array(ids, dtype=mx.int64)


def _exclude(logits: mx.array, token_id: int) -> mx.array:
    column = mx.arange(logits.shape[-1]) == token_id
    return mx.where(column, mx.array(-mx.inf, dtype=logits.dtype), logits)


register_array_type(
    ArrayType(
        name="mlx",
        is_instance=lambda value: isinstance(value, mx.array),
        to_numpy=_to_numpy,
        from_numpy=_from_numpy,
        apply_mask=apply_token_bitmask,
        token_ids=_token_ids,
        exclude=_exclude,
    )
)
