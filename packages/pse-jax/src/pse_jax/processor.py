"""A ``FlaxLogitsProcessor`` driven by a :class:`~pse.StructuringEngine`.

Flax's ``generate`` compiles its loop, so the processor reaches the host-side
engine through ``jax.experimental.io_callback`` (ordered): at each step the
callback advances each row's engine with the tokens the loop appended
(:class:`pse.stock_loop.StockLoop`) and returns the packed bitmask, which is
unpacked and applied on the device::

    processor = PSEFlaxLogitsProcessor(engine)
    out = model.generate(input_ids, logits_processor=FlaxLogitsProcessorList([processor]),
                         max_new_tokens=100)

Flax's loop chooses the tokens (one per step, forced continuations included)
and knows nothing of the budget, so the structure is only complete if the
loop runs long enough; :class:`~pse_jax.mixin.PSEFlaxMixin` owns the loop and
does both. The last token is seen by the engine only if the loop calls the
processor again; call :meth:`finalize` with the output to catch up.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from jax.experimental import io_callback
from transformers.generation.flax_logits_process import FlaxLogitsProcessor

from pse.stock_loop import StockProcessor
from pse_jax.mask import apply_token_bitmask

__all__ = ["PSEFlaxLogitsProcessor"]


class PSEFlaxLogitsProcessor(StockProcessor, FlaxLogitsProcessor):  # type: ignore[misc]
    """Masks the logits of tokens the engine's structure forbids (see the module docs).

    ``engines`` lists the row engines (``engines[0]`` is the engine given).
    A call whose ``cur_len`` is not beyond the last one starts a new generation.

    Raises (from ``generate``, wrapped by XLA's runtime error):
        NoValidTokenError: a row allows no token at all.
    """

    def __call__(self, input_ids: jax.Array, scores: jax.Array, cur_len: Any) -> jax.Array:
        if self.engine.state_machine is None:
            return scores
        words = -(-self.engine.vocab_size // 32)
        shape = jax.ShapeDtypeStruct((scores.shape[0], words), jnp.int32)
        bitmask = io_callback(self.host_masks, shape, input_ids, cur_len, ordered=True)
        return apply_token_bitmask(scores, bitmask)
