"""pse.vocabulary: token ids -> exact bytes, control and EOS ids, caching."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from _support.tokenizers import sentencepiece_tokenizer
from pse_core._core import Vocabulary

from pse.errors import VocabularyError
from pse.vocabulary import load_vocabulary, token_bytes_list


def _decode(tokenizer: Any, token_id: int) -> str:
    return tokenizer.decode([token_id], clean_up_tokenization_spaces=False)


def _sample_ids(size: int, count: int = 3000) -> list[int]:
    rng = random.Random(1234)
    return sorted({*range(0, min(size, 600)), *rng.sample(range(size), min(size, count))})


class TestRealTokenizers:
    def test_builds_native_vocabulary(self, real_tokenizer: Any) -> None:
        vocabulary = load_vocabulary(real_tokenizer)
        assert isinstance(vocabulary, Vocabulary)
        assert len(vocabulary) == len(real_tokenizer)

    def test_bytes_round_trip_through_decode(self, real_tokenizer: Any) -> None:
        tokens, control, _ = token_bytes_list(real_tokenizer)
        control_set = set(control)
        for token_id in _sample_ids(len(tokens)):
            data = tokens[token_id]
            if token_id in control_set:
                assert data is None
                continue
            assert data is not None, token_id
            assert _decode(real_tokenizer, token_id) == data.decode("utf-8", errors="replace"), (
                token_id
            )

    def test_native_bytes_match(self, real_tokenizer: Any) -> None:
        tokens, _, _ = token_bytes_list(real_tokenizer)
        vocabulary = load_vocabulary(real_tokenizer)
        for token_id in _sample_ids(len(tokens), 500):
            if tokens[token_id] is not None:
                assert vocabulary.token_bytes(token_id) == tokens[token_id]

    def test_partial_utf8_tokens_keep_raw_bytes(self, real_tokenizer: Any) -> None:
        tokens, _, _ = token_bytes_list(real_tokenizer)
        partial = []
        for token_id, data in enumerate(tokens):
            if data is None:
                continue
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                partial.append(token_id)
        assert len(partial) > 50
        for token_id in partial[:50]:
            data = tokens[token_id]
            assert data is not None
            assert "\ufffd" in _decode(real_tokenizer, token_id)
            assert _decode(real_tokenizer, token_id) == data.decode("utf-8", errors="replace")
        # a multi-byte character split over two tokens joins back into the character
        ids = real_tokenizer.encode("日本語の文字列 é ü 🙂", add_special_tokens=False)
        joined = b"".join(tokens[i] or b"" for i in ids)
        assert joined.decode("utf-8") == "日本語の文字列 é ü 🙂"

    def test_space_token(self, real_tokenizer: Any) -> None:
        tokens, _, _ = token_bytes_list(real_tokenizer)
        (space_id,) = real_tokenizer.encode(" the", add_special_tokens=False)
        assert tokens[space_id] == b" the"
        (newline_id,) = real_tokenizer.encode("\n", add_special_tokens=False)
        assert tokens[newline_id] == b"\n"

    def test_control_tokens(self, real_tokenizer: Any) -> None:
        vocabulary = load_vocabulary(real_tokenizer)
        tokens, control, _ = token_bytes_list(real_tokenizer)
        assert set(real_tokenizer.all_special_ids) <= set(control)
        specials = {i for i, t in real_tokenizer.added_tokens_decoder.items() if t.special}
        assert specials <= set(control)
        assert set(vocabulary.control_token_ids) == set(control)
        assert all(tokens[i] is None for i in control)

    def test_eos(self, real_tokenizer: Any) -> None:
        vocabulary = load_vocabulary(real_tokenizer)
        assert list(vocabulary.eos_token_ids) == [real_tokenizer.eos_token_id]

    def test_known_eos_ids(self, smollm2: Any, llama3: Any) -> None:
        assert load_vocabulary(smollm2).eos_token_ids == [2]
        assert load_vocabulary(llama3).eos_token_ids == [128009]
        assert len(load_vocabulary(smollm2)) == 49152
        assert len(load_vocabulary(llama3)) == 128256

    def test_cached_per_tokenizer(self, real_tokenizer: Any) -> None:
        first = load_vocabulary(real_tokenizer)
        assert load_vocabulary(real_tokenizer) is first

    def test_build_is_fast(self, llama3: Any) -> None:
        """A guard against a quadratic build, in CPU time (wall time on a loaded
        machine measures the load)."""
        start = time.process_time()
        tokens, _, _ = token_bytes_list(llama3)
        elapsed = time.process_time() - start
        assert len(tokens) == 128256
        assert elapsed < 3.0, f"building the 128k vocabulary took {elapsed:.2f} s of CPU"


class TestSentencePiece:
    def test_metaspace_and_byte_fallback(self, sp_tokenizer: Any) -> None:
        vocab = sp_tokenizer.get_vocab()
        tokens, control, eos = token_bytes_list(sp_tokenizer)
        assert tokens[vocab["▁hello"]] == b" hello"
        assert tokens[vocab["▁"]] == b" "
        assert tokens[vocab["hello"]] == b"hello"
        assert tokens[vocab["<0x0A>"]] == b"\n"
        assert tokens[vocab["<0xE2>"]] == b"\xe2"
        assert set(control) == {0, 1, 2}
        assert eos == [2]
        assert tokens[2] is None

    def test_native_vocabulary(self, sp_tokenizer: Any) -> None:
        vocabulary = load_vocabulary(sp_tokenizer)
        assert vocabulary.token_bytes(sp_tokenizer.get_vocab()["▁hello"]) == b" hello"
        assert vocabulary.eos_token_ids == [2]

    def test_distinct_tokenizers_get_distinct_vocabularies(self) -> None:
        first, second = sentencepiece_tokenizer(), sentencepiece_tokenizer()
        assert load_vocabulary(first) is load_vocabulary(first)
        assert load_vocabulary(first) is not load_vocabulary(second)


class _DuckTokenizer:
    """A minimal tokenizer: plain strings, a hole and two EOS ids."""

    __slots__ = ("vocab",)
    eos_token_id = [3, 4]

    def __init__(self) -> None:
        self.vocab = {"a": 0, "b": 1, "ab": 2, "<eos>": 3, "<end>": 4, "é": 6}

    def get_vocab(self) -> dict[str, int]:
        return dict(self.vocab)

    def __len__(self) -> int:
        return 7


class _IdsOnlyTokenizer:
    def convert_ids_to_tokens(self, ids: list[int]) -> list[str]:
        return [["x", "y", "xy"][i] for i in ids]

    def __len__(self) -> int:
        return 3


class TestDuckTyping:
    def test_plain_tokenizer_with_hole(self) -> None:
        tokenizer = _DuckTokenizer()
        tokens, control, eos = token_bytes_list(tokenizer)
        assert tokens == [b"a", b"b", b"ab", None, None, None, "é".encode()]
        assert control == []
        assert eos == [3, 4]
        vocabulary = load_vocabulary(tokenizer)  # not weak-referenceable: id-keyed cache
        assert load_vocabulary(tokenizer) is vocabulary
        assert len(vocabulary) == 7

    def test_convert_ids_to_tokens_only(self) -> None:
        tokens, _, eos = token_bytes_list(_IdsOnlyTokenizer())
        assert tokens == [b"x", b"y", b"xy"]
        assert eos == []

    @pytest.mark.parametrize("obj", [object(), 42, "gpt2", None, [1, 2]])
    def test_non_tokenizers_raise(self, obj: Any) -> None:
        with pytest.raises(VocabularyError, match="get_vocab"):
            load_vocabulary(obj)

    def test_empty_vocabulary_raises(self) -> None:
        class Empty:
            def get_vocab(self) -> dict[str, int]:
                return {}

            def __len__(self) -> int:
                return 0

        with pytest.raises(VocabularyError, match="empty vocabulary"):
            load_vocabulary(Empty())

    def test_error_is_a_type_error(self) -> None:
        with pytest.raises(TypeError):
            load_vocabulary(object())
