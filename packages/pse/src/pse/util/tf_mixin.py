"""Re-export of ``pse_tf.mixin.PSETFMixin`` (install ``pse-tf``)."""

from pse.util import import_adapter

PSETFMixin = import_adapter("pse_tf.mixin", "PSETFMixin", "pse-tf")

__all__ = ["PSETFMixin"]
