"""Fixtures for the pse-mlx tests.

* ``tokenizer``: the real SmolLM2 tokenizer (offline, tests/_support).
* ``smollm``: the real SmolLM2-135M-Instruct as an mlx-lm model with the PSE
  mixin (``model`` marker), converted once by ``pse.util.model_files``.
  MLX runs on the CPU on Linux (a few tokens per second on 2 cores), so the
  model tests stay short; the full sweep is ``benchmarks/bench_e2e.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

mx = pytest.importorskip("mlx.core")
pytest.importorskip("mlx_lm")

from _support.tokenizers import smollm2_tokenizer  # noqa: E402


@pytest.fixture(scope="session")
def tokenizer() -> Any:
    return smollm2_tokenizer()


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    from pse.util.model_files import gguf_path

    try:
        gguf_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    pytest.importorskip("gguf")
    pytest.importorskip("safetensors")
    from pse_mlx.model import load_model

    return load_model()
