"""Utilities; the framework mixins live in the adapter packages.

``pse.util.torch_mixin``, ``pse.util.tf_mixin`` and ``pse.util.jax_mixin`` keep
the documented import paths working by re-exporting from ``pse-torch``,
``pse-tf`` and ``pse-jax``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["import_adapter"]


def import_adapter(module: str, name: str, distribution: str) -> Any:
    """Return ``module.name`` from an adapter package.

    Raises:
        ImportError: the adapter (or its framework) is not installed; the
            message names the distribution to install.
    """
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ImportError(
            f"{name} lives in the {distribution!r} package: install it with "
            f"`pip install {distribution}` (importing {module}.{name} failed: {exc})"
        ) from exc
