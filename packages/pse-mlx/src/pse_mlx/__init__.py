"""MLX / mlx-lm adapter for the Proxy Structuring Engine.

* :class:`PSELogitsProcessor`: for ``logits_processors=[...]`` of
  ``mlx_lm.generate`` / ``stream_generate`` / ``generate_step``.
* :class:`PSESampler`: for ``sampler=`` of the same functions (budget-aware,
  multi-token), paired with the processor.
* :class:`PSEMLXMixin`: mix onto an mlx-lm model class loaded with
  ``mlx_lm.utils.load_model(..., get_model_classes=...)``.
* :mod:`pse_mlx.mask`: packed bitmasks on ``mx.array`` logits (importing
  the package registers ``mx.array`` with :mod:`pse.arrays`).
* :func:`pse_mlx.model.load_model`: the embedded SmolLM2-135M-Instruct.
"""

from pse_mlx.mask import apply_token_bitmask, unpack_token_bitmask
from pse_mlx.mixin import PSEMLXMixin
from pse_mlx.processor import PSELogitsProcessor
from pse_mlx.sampler import PSESampler

__all__ = [
    "PSELogitsProcessor",
    "PSEMLXMixin",
    "PSESampler",
    "apply_token_bitmask",
    "unpack_token_bitmask",
]
__version__ = "0.1.0"
