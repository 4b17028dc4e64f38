"""Fixtures for the pse-torch tests.

* ``tokenizer``: the real SmolLM2 tokenizer (offline, tests/_support).
* ``tiny_model`` / ``tiny_plain``: a randomly initialised one-layer Llama with
  SmolLM2's vocabulary, float32, with and without the mixin. Its logits are
  noise, so it exercises the decoding loop (masks, multi-token steps, batches,
  caches) in milliseconds per step; only the structure makes its output sensible.
* ``smollm``: the real SmolLM2-135M-Instruct (``model`` marker), converted once
  into ``$PSE_MODEL_CACHE`` (default ``~/.cache/pse/smollm2-135m-instruct-bf16``).
"""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from _support.tokenizers import smollm2_tokenizer  # noqa: E402
from pse_torch import PSETorchMixin  # noqa: E402
from transformers import LlamaConfig, LlamaForCausalLM  # noqa: E402


class PSE_Llama(PSETorchMixin, LlamaForCausalLM):  # noqa: N801 - the documented name
    pass


@pytest.fixture(scope="session")
def tokenizer() -> Any:
    tok = smollm2_tokenizer()
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    return tok


def _tiny(cls: type[Any], tok: Any) -> Any:
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=1024,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    model = cls(config).eval()
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    return model


@pytest.fixture()
def tiny_model(tokenizer: Any) -> Any:
    return _tiny(PSE_Llama, tokenizer)


@pytest.fixture()
def tiny_plain(tokenizer: Any) -> Any:
    return _tiny(LlamaForCausalLM, tokenizer)


@pytest.fixture(scope="session")
def smollm() -> tuple[Any, Any]:
    pytest.importorskip("gguf")
    from pse_torch.model import gguf_path, load_model

    try:
        gguf_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    return load_model(PSE_Llama)
