"""TensorFlow (``transformers`` 4.57) adapter for the Proxy Structuring Engine.

* :class:`PSETFMixin` (also at ``pse.util.tf_mixin``): mix onto a TF causal-LM class.
* :class:`PSETFLogitsProcessor`: for TensorFlow's ``generate(..., logits_processor=...)``
  (eager or graph mode, not XLA).
* :func:`pse_generate`: the decoding loop (a Python loop around an XLA-compiled step).
* :mod:`pse_tf.mask`: ``apply_token_bitmask`` on TF tensors (importing it
  registers TF tensors with :mod:`pse.arrays`).
* :func:`pse_tf.model.load_model`: the embedded SmolLM2-135M-Instruct as
  ``TFMistralForCausalLM``, without torch.
"""

from pse_tf.mask import apply_token_bitmask, unpack_token_bitmask
from pse_tf.mixin import PSETFMixin
from pse_tf.processor import PSETFLogitsProcessor
from pse_tf.sampler import make_sampler, pse_generate

__all__ = [
    "PSETFLogitsProcessor",
    "PSETFMixin",
    "apply_token_bitmask",
    "make_sampler",
    "pse_generate",
    "unpack_token_bitmask",
]
__version__ = "0.1.0"
