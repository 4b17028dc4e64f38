"""Re-export of ``pse_jax.mixin.PSEFlaxMixin`` (install ``pse-jax``)."""

from pse.util import import_adapter

PSEFlaxMixin = import_adapter("pse_jax.mixin", "PSEFlaxMixin", "pse-jax")

__all__ = ["PSEFlaxMixin"]
