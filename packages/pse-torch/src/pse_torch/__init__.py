"""PyTorch / Hugging Face ``transformers`` adapter for the Proxy Structuring Engine.

* :class:`PSETorchMixin` (also at ``pse.util.torch_mixin``): mix onto a causal-LM class.
* :class:`PSELogitsProcessor`: for ``model.generate(..., logits_processor=[...])``.
* :func:`make_custom_generate`: for ``model.generate(..., custom_generate=...)``.
* :mod:`pse_torch.mask`: ``allocate_token_bitmask`` / ``apply_token_bitmask_inplace``
  on torch tensors.
* :func:`pse_torch.model.load_model`: the embedded SmolLM2-135M-Instruct.
"""

from pse_torch.mask import allocate_token_bitmask, apply_token_bitmask_inplace
from pse_torch.mixin import PSETorchMixin
from pse_torch.processor import PSELogitsProcessor
from pse_torch.sampler import make_custom_generate, pse_sample

__all__ = [
    "PSELogitsProcessor",
    "PSETorchMixin",
    "allocate_token_bitmask",
    "apply_token_bitmask_inplace",
    "make_custom_generate",
    "pse_sample",
]
__version__ = "0.1.0"
