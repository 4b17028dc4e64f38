"""pse_jax.mask against the bit layout, and JAX arrays through pse.arrays."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import pse_jax.mask
from _support.adapter_cases import MaskCases


class TestJAXMask(MaskCases):
    mask = pse_jax.mask

    def array(self, values: Any, dtype: str) -> Any:
        return jnp.asarray(values, dtype=getattr(jnp, dtype))
