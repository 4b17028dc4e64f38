"""A ``TFLogitsProcessor`` driven by a :class:`~pse.StructuringEngine`.

For TensorFlow's own ``generate`` loop, run eagerly or inside ``tf.function``
without XLA::

    processor = PSETFLogitsProcessor(engine)
    out = model.generate(input_ids, logits_processor=TFLogitsProcessorList([processor]),
                         max_new_tokens=100)

At each step the rows' engines advance with the tokens the loop appended
(:class:`pse.stock_loop.StockLoop`) and the packed bitmask is applied to the
logits; in a graph the host work runs through ``tf.numpy_function``. XLA
(``jit_compile=True``) cannot call the host, so there the processor raises;
:class:`~pse_tf.mixin.PSETFMixin` compiles the model step with XLA and runs
the engine between steps instead, with the budget and multi-token
continuations. The last token is seen by the engine only if the loop calls
the processor again; call :meth:`finalize` with the output to catch up.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from transformers.generation.tf_logits_process import TFLogitsProcessor

from pse.stock_loop import StockProcessor
from pse_tf.mask import apply_token_bitmask

__all__ = ["PSETFLogitsProcessor"]


class PSETFLogitsProcessor(StockProcessor, TFLogitsProcessor):  # type: ignore[misc]
    """Masks the logits of tokens the engine's structure forbids (see the module docs).

    ``engines`` lists the row engines (``engines[0]`` is the engine given).
    A call whose ``cur_len`` is not beyond the last one starts a new generation.

    Raises (from ``generate``):
        NoValidTokenError: a row allows no token at all (eagerly; in a graph
            TensorFlow reports it as an ``InvalidArgumentError`` naming it).
        RuntimeError: the loop is compiled with XLA.
    """

    def __call__(self, input_ids: tf.Tensor, scores: tf.Tensor, cur_len: Any) -> tf.Tensor:
        if self.engine.state_machine is None:
            return scores
        if tf.executing_eagerly():
            return apply_token_bitmask(scores, self.host_masks(input_ids.numpy(), cur_len))
        if _in_xla_context():
            raise RuntimeError(
                "PSETFLogitsProcessor runs the engine on the host, which XLA cannot call: "
                "generate without jit_compile, or use PSETFMixin (an XLA step with the "
                "engine between steps)"
            )
        bitmask = tf.numpy_function(self.host_masks, [input_ids, cur_len], tf.int32)
        words = -(-self.engine.vocab_size // 32)
        bitmask.set_shape((scores.shape[0], words))
        return apply_token_bitmask(scores, bitmask)


def _in_xla_context() -> bool:
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import control_flow_util

    return bool(control_flow_util.GraphOrParentsInXlaContext(ops.get_default_graph()))
