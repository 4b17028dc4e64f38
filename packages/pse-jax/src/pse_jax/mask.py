"""Token bitmasks applied to JAX arrays.

The native core fills a packed host ``int32[batch, ceil(vocab / 32)]`` bitmask
(bit ``i % 32`` of word ``i // 32`` set when token ``i`` is allowed).
:func:`apply_token_bitmask` copies the packed words (4 bytes per 32 tokens) to
the logits' device and unpacks them there in one jitted function, so no step
moves the whole vocabulary between host and device. JAX arrays are immutable:
the masked logits are a new array.

Importing this module registers JAX arrays with :mod:`pse.arrays`, so
``StructuringEngine.process_logits`` and ``sample`` return JAX arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import NDArray

from pse.arrays import ArrayType, register_array_type

__all__ = ["apply_token_bitmask", "exclude_token", "unpack_token_bitmask"]


def unpack_token_bitmask(bitmask: Any, width: int) -> jax.Array:
    """``bool[..., width]``: True where the packed ``bitmask`` allows the token.

    Columns beyond the bitmask's ``32 * words`` bits are False.
    """
    words = jax.lax.bitcast_convert_type(jnp.asarray(bitmask, dtype=jnp.int32), jnp.uint32)
    bits = (words[..., None] >> jnp.arange(32, dtype=jnp.uint32)) & 1
    allowed = bits.reshape(*words.shape[:-1], -1).astype(jnp.bool_)
    have = allowed.shape[-1]
    if have >= width:
        return allowed[..., :width]
    padding = [(0, 0)] * (allowed.ndim - 1) + [(0, width - have)]
    return jnp.pad(allowed, padding, constant_values=False)


def _mask(logits: jax.Array, bitmask: jax.Array) -> jax.Array:
    allowed = unpack_token_bitmask(bitmask, logits.shape[-1])
    if logits.ndim == 1 and allowed.ndim == 2:
        allowed = allowed[0]
    return jnp.where(allowed, logits, jnp.asarray(-jnp.inf, dtype=logits.dtype))


_masked: Callable[[jax.Array, jax.Array], jax.Array] = jax.jit(_mask)


def apply_token_bitmask(logits: Any, bitmask: NDArray[np.int32] | jax.Array) -> jax.Array:
    """``logits`` with forbidden tokens at ``-inf`` (a new array, on the logits' device).

    Args:
        logits: ``[vocab]`` or ``[batch, vocab]`` floating-point logits.
        bitmask: packed ``int32[words]`` (applies to every row) or ``int32[batch, words]``.

    Raises:
        TypeError: the logits are not floating point.
    """
    logits = jnp.asarray(logits)
    if not jnp.issubdtype(logits.dtype, jnp.floating):
        raise TypeError(f"logits must be floating point, got {logits.dtype}")
    return _masked(logits, jnp.asarray(bitmask, dtype=jnp.int32))


def exclude_token(logits: jax.Array, token_id: int) -> jax.Array:
    """A copy of ``logits`` with ``token_id`` at ``-inf`` in every row."""
    return logits.at[..., token_id].set(-jnp.inf)


def _from_numpy(values: NDArray[Any], like: Any) -> jax.Array:
    return jnp.asarray(values, dtype=like.dtype)


def _token_ids(ids: list[int], like: Any) -> jax.Array:
    # int64 needs jax_enable_x64; token ids are int32 in Flax models anyway.
    return jnp.asarray(ids, dtype=jnp.int64 if jax.config.jax_enable_x64 else jnp.int32)


register_array_type(
    ArrayType(
        name="jax",
        is_instance=lambda value: isinstance(value, jax.Array),
        to_numpy=np.asarray,
        from_numpy=_from_numpy,
        apply_mask=apply_token_bitmask,
        token_ids=_token_ids,
        exclude=exclude_token,
    )
)
