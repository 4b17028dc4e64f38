"""Re-export of ``pse_torch.mixin.PSETorchMixin`` (install ``pse-torch``)."""

from pse.util import import_adapter

PSETorchMixin = import_adapter("pse_torch.mixin", "PSETorchMixin", "pse-torch")

__all__ = ["PSETorchMixin"]
