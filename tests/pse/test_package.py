"""The pse package: import hygiene, errors, documented re-export paths."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pse_core.errors
import pytest

import pse
from pse import errors

FRAMEWORKS = ("torch", "tensorflow", "jax", "flax", "mlx", "transformers")


def test_exports_engine() -> None:
    from pse.structuring_engine import StructuringEngine

    assert pse.StructuringEngine is StructuringEngine


def test_import_pulls_in_no_framework() -> None:
    code = (
        "import sys, pse, pse.vocabulary, pse.structuring_engine, pse.errors, pse.util\n"
        f"loaded = [m for m in {FRAMEWORKS!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_errors_are_the_core_classes() -> None:
    for name in pse_core.errors.__all__:
        assert getattr(errors, name) is getattr(pse_core.errors, name)
    assert set(errors.__all__) == set(pse_core.errors.__all__)


@pytest.mark.parametrize(
    ("module", "adapter", "name", "distribution"),
    [
        ("pse.util.torch_mixin", "pse_torch", "PSETorchMixin", "pse-torch"),
        ("pse.util.tf_mixin", "pse_tf", "PSETFMixin", "pse-tf"),
        ("pse.util.jax_mixin", "pse_jax", "PSEFlaxMixin", "pse-jax"),
    ],
)
def test_mixin_paths(module: str, adapter: str, name: str, distribution: str) -> None:
    sys.modules.pop(module, None)
    try:
        installed = importlib.util.find_spec(adapter) is not None
    except ImportError:
        installed = False
    if installed:
        try:
            mixin = getattr(importlib.import_module(f"{adapter}.mixin"), name)
        except ImportError:
            pytest.skip(f"{adapter} is installed but its framework is not")
        assert getattr(importlib.import_module(module), name) is mixin
    else:
        with pytest.raises(ImportError, match=f"pip install {distribution}"):
            importlib.import_module(module)
