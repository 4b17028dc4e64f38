"""JAX / Flax (``transformers`` 4.57) adapter for the Proxy Structuring Engine.

* :class:`PSEFlaxMixin` (also at ``pse.util.jax_mixin``): mix onto a Flax causal-LM class.
* :class:`PSEFlaxLogitsProcessor`: for Flax's ``generate(..., logits_processor=...)``.
* :func:`pse_generate`: the decoding loop (a Python loop around a jitted model step).
* :mod:`pse_jax.mask`: ``apply_token_bitmask`` on JAX arrays (importing it
  registers JAX arrays with :mod:`pse.arrays`).
* :func:`pse_jax.model.load_model`: the embedded SmolLM2-135M-Instruct.
"""

from pse_jax.mask import apply_token_bitmask, unpack_token_bitmask
from pse_jax.mixin import PSEFlaxMixin
from pse_jax.processor import PSEFlaxLogitsProcessor
from pse_jax.sampler import make_sampler, pse_generate

__all__ = [
    "PSEFlaxLogitsProcessor",
    "PSEFlaxMixin",
    "apply_token_bitmask",
    "make_sampler",
    "pse_generate",
    "unpack_token_bitmask",
]
__version__ = "0.1.0"
