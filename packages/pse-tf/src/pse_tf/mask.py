"""Token bitmasks applied to TensorFlow tensors.

The native core fills a packed host ``int32[batch, ceil(vocab / 32)]`` bitmask
(bit ``i % 32`` of word ``i // 32`` set when token ``i`` is allowed).
:func:`apply_token_bitmask` sends the packed words (4 bytes per 32 tokens) to
the logits' device and unpacks them there, so no step moves the whole
vocabulary between host and device. It is made of TensorFlow ops only, so it
also runs inside ``tf.function`` (with or without XLA). TensorFlow tensors are
immutable: the masked logits are a new tensor.

Importing this module registers TensorFlow tensors with :mod:`pse.arrays`, so
``StructuringEngine.process_logits`` and ``sample`` return tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
from numpy.typing import NDArray

from pse.arrays import ArrayType, register_array_type

__all__ = ["apply_token_bitmask", "exclude_token", "unpack_token_bitmask"]


def unpack_token_bitmask(bitmask: Any, width: int) -> tf.Tensor:
    """``bool[..., width]``: True where the packed ``bitmask`` allows the token.

    Columns beyond the bitmask's ``32 * words`` bits are False.
    """
    words = tf.convert_to_tensor(bitmask, dtype=tf.int32)
    # An arithmetic shift copies bit 31 leftwards; masking with 1 keeps only bit j.
    bits = tf.bitwise.bitwise_and(tf.bitwise.right_shift(words[..., None], tf.range(32)), 1)
    allowed = tf.cast(tf.reshape(bits, tf.concat([tf.shape(words)[:-1], [-1]], 0)), tf.bool)
    have = int(bitmask.shape[-1]) * 32
    if have >= width:
        return allowed[..., :width]
    padding = [[0, 0]] * (len(bitmask.shape) - 1) + [[0, width - have]]
    return tf.pad(allowed, padding, constant_values=False)


def apply_token_bitmask(logits: Any, bitmask: NDArray[np.int32] | tf.Tensor) -> tf.Tensor:
    """``logits`` with forbidden tokens at ``-inf`` (a new tensor).

    Args:
        logits: ``[vocab]`` or ``[batch, vocab]`` floating-point logits.
        bitmask: packed ``int32[words]`` (applies to every row) or ``int32[batch, words]``.

    Raises:
        TypeError: the logits are not floating point.
    """
    logits = tf.convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        raise TypeError(f"logits must be floating point, got {logits.dtype.name}")
    allowed = unpack_token_bitmask(bitmask, int(logits.shape[-1]))
    if logits.shape.rank == 1 and allowed.shape.rank == 2:
        allowed = allowed[0]
    return tf.where(allowed, logits, tf.constant(-np.inf, dtype=logits.dtype))


def exclude_token(logits: tf.Tensor, token_id: int) -> tf.Tensor:
    """A copy of ``logits`` with ``token_id`` at ``-inf`` in every row."""
    width = int(logits.shape[-1])
    hit = tf.one_hot(token_id, width, on_value=True, off_value=False, dtype=tf.bool)
    return tf.where(hit, tf.constant(-np.inf, dtype=logits.dtype), logits)


def _to_numpy(value: Any) -> NDArray[Any]:
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value)


def _from_numpy(values: NDArray[Any], like: Any) -> tf.Tensor:
    return tf.convert_to_tensor(values, dtype=like.dtype)


def _token_ids(ids: list[int], like: Any) -> tf.Tensor:
    return tf.constant(ids, dtype=tf.int64)


register_array_type(
    ArrayType(
        name="tensorflow",
        is_instance=lambda value: isinstance(value, tf.Tensor | tf.Variable),
        to_numpy=_to_numpy,
        from_numpy=_from_numpy,
        apply_mask=apply_token_bitmask,
        token_ids=_token_ids,
        exclude=exclude_token,
    )
)
