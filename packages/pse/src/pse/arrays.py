"""Arrays in the caller's type, without importing a framework.

:meth:`pse.StructuringEngine.process_logits` and :meth:`~pse.StructuringEngine.sample`
return arrays of the type they were given: a torch tensor on its device and
dtype, an ``mx.array``, a TensorFlow or JAX array, a NumPy array. ``pse``
itself only knows NumPy; each framework adapter registers its array type when
it is imported::

    # in pse_xyz/mask.py (the adapter's tensor operations)
    from pse.arrays import ArrayType, register_array_type

    register_array_type(
        ArrayType(
            name="xyz",
            is_instance=lambda value: isinstance(value, xyz.Array),
            to_numpy=lambda value: np.asarray(value),  # host copy (ids, logits)
            from_numpy=lambda values, like: xyz.asarray(values, dtype=like.dtype),
            apply_mask=apply_token_bitmask,  # (logits, bitmask) -> masked logits
            token_ids=lambda ids, like: xyz.asarray(ids, dtype=xyz.int64),
        )
    )

Only ``name``, ``is_instance``, ``to_numpy`` and ``from_numpy`` are required:

* ``apply_mask(logits, bitmask)`` masks ``logits`` (``(vocab,)`` or
  ``(batch, vocab)``) with a packed host bitmask (NumPy ``int32[words]`` or
  ``int32[batch, words]``; bit ``i % 32`` of word ``i // 32`` set when token
  ``i`` is allowed; one row applies to every logits row; columns beyond the
  mask are forbidden) and returns the masked logits (in place or new). Without
  it, logits go through NumPy and back with ``from_numpy``.
* ``token_ids(ids, like)`` makes an int64 array of the ids on ``like``'s
  device (default: ``from_numpy`` of an int64 array).
* ``exclude(logits, token_id)`` returns a copy with one token at ``-inf``
  (used when a budget makes ``sample`` ask the sampler again; default: item
  assignment on a copy, else through NumPy).

Adapters that are installed but not imported are found too: the first array
whose type lives in a module registered with :func:`register_adapter_module`
(``torch`` -> ``pse_torch``, ``mlx`` -> ``pse_mlx``, ``tensorflow`` ->
``pse_tf``, ``jax``/``jaxlib`` -> ``pse_jax`` by default) imports that adapter,
which registers itself. Any other array goes through ``np.asarray`` and comes
back as NumPy.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ArrayType",
    "array_type_of",
    "exclude_token",
    "from_numpy",
    "mask_logits",
    "register_adapter_module",
    "register_array_type",
    "to_numpy",
    "token_ids",
]


@dataclass(frozen=True)
class ArrayType:
    """How ``pse`` handles one framework's arrays (see the module docs)."""

    name: str
    is_instance: Callable[[Any], bool]
    to_numpy: Callable[[Any], NDArray[Any]]
    from_numpy: Callable[[NDArray[Any], Any], Any]
    apply_mask: Callable[[Any, NDArray[np.int32]], Any] | None = None
    token_ids: Callable[[list[int], Any], Any] | None = None
    exclude: Callable[[Any, int], Any] | None = None


_lock = threading.Lock()
_registered: list[ArrayType] = []
_by_class: dict[type, ArrayType | None] = {}
_adapters: dict[str, str] = {
    "torch": "pse_torch",
    "mlx": "pse_mlx",
    "tensorflow": "pse_tf",
    "keras": "pse_tf",
    "jax": "pse_jax",
    "jaxlib": "pse_jax",
}
_tried: set[str] = set()


def register_array_type(array_type: ArrayType) -> None:
    """Register (or replace, by ``name``) the handling of a framework's arrays."""
    with _lock:
        _registered[:] = [t for t in _registered if t.name != array_type.name]
        _registered.append(array_type)
        _by_class.clear()


def register_adapter_module(framework_module: str, adapter_module: str) -> None:
    """Import ``adapter_module`` the first time an array from ``framework_module`` arrives."""
    with _lock:
        _adapters[framework_module] = adapter_module
        _tried.discard(framework_module)
        _by_class.clear()


def array_type_of(value: Any) -> ArrayType | None:
    """The registered type of ``value``; None for NumPy and unknown arrays."""
    cls = type(value)
    if cls is np.ndarray:
        return None
    try:
        return _by_class[cls]
    except KeyError:
        pass
    found = _lookup(value)
    if found is None and _import_adapter(cls):
        found = _lookup(value)
    with _lock:
        _by_class[cls] = found
    return found


def to_numpy(value: Any) -> NDArray[Any]:
    """A NumPy view or copy of ``value`` (any registered array, or anything array-like)."""
    kind = array_type_of(value)
    return kind.to_numpy(value) if kind is not None else np.asarray(value)


def from_numpy(values: NDArray[Any], like: Any) -> Any:
    """``values`` as an array of ``like``'s type, device and dtype (NumPy stays NumPy)."""
    kind = array_type_of(like)
    return kind.from_numpy(values, like) if kind is not None else values


def token_ids(ids: list[int], like: Any) -> Any:
    """An int64 array of ``ids`` in ``like``'s array type (NumPy when unregistered)."""
    values = np.asarray(ids, dtype=np.int64)
    kind = array_type_of(like)
    if kind is None:
        return values
    if kind.token_ids is not None:
        return kind.token_ids(list(ids), like)
    return kind.from_numpy(values, like)


def mask_logits(logits: Any, bitmask: NDArray[np.int32]) -> Any:
    """Forbidden tokens of a registered array type's ``logits`` set to ``-inf``.

    Raises:
        TypeError: ``logits`` is not a registered array type (NumPy masks natively).
    """
    kind = array_type_of(logits)
    if kind is None:
        raise TypeError(f"{type(logits).__name__} is not a registered array type")
    if kind.apply_mask is not None:
        return kind.apply_mask(logits, bitmask)
    from pse_core._core import apply_token_bitmask_inplace

    work = np.array(kind.to_numpy(logits), dtype=np.float32)
    apply_token_bitmask_inplace(work, bitmask)
    return kind.from_numpy(work, logits)


def exclude_token(logits: Any, token_id: int) -> Any:
    """A copy of ``logits`` with ``token_id`` set to ``-inf`` in every row."""
    kind = array_type_of(logits)
    if kind is not None and kind.exclude is not None:
        return kind.exclude(logits, token_id)
    if kind is None:
        copy = np.array(logits, copy=True)
        copy[..., token_id] = float("-inf")
        return copy
    values = np.array(kind.to_numpy(logits), copy=True)
    values[..., token_id] = float("-inf")
    return kind.from_numpy(values, logits)


def _lookup(value: Any) -> ArrayType | None:
    with _lock:
        candidates = list(_registered)
    for kind in reversed(candidates):
        if kind.is_instance(value):
            return kind
    return None


def _import_adapter(cls: type) -> bool:
    """Import the adapter registered for ``cls``'s framework once; True if it imported."""
    root = (cls.__module__ or "").split(".", 1)[0]
    with _lock:
        adapter = _adapters.get(root)
        if adapter is None or root in _tried:
            return False
        _tried.add(root)
    try:
        importlib.import_module(adapter)
    except ImportError:
        return False
    return True
