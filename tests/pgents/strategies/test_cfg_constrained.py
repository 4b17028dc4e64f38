"""CFG-constrained generation through pse: valid JSON whatever the logits."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from pgents import CFGConstrainedParser


def random_logits(vocab: int, seed: int) -> Any:
    def logits(ids: Sequence[int]) -> Any:
        rng = np.random.default_rng(seed * 1_000_003 + len(ids))
        return rng.normal(size=vocab).astype(np.float32)

    return logits


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    from _support.tokenizers import smollm2_tokenizer

    return smollm2_tokenizer()


@pytest.mark.parametrize("seed", range(4))
def test_output_is_valid_json_whatever_the_logits(tokenizer: Any, seed: int) -> None:
    from pse.types.json.json_value import JsonStateMachine

    vocab = len(tokenizer.get_vocab())
    parser = CFGConstrainedParser(
        tokenizer, random_logits(vocab, seed), JsonStateMachine(), max_tokens=24
    )
    result = parser.parse("Answer in JSON: ")
    text = result.metadata["text"]
    assert json.loads(text) == result.value  # valid JSON; null is a failed result
    assert result.success or result.value is None
    assert not result.success or result.confidence == 1.0 or result.repairs


def test_object_machine(tokenizer: Any) -> None:
    from pse.types.object import ObjectStateMachine

    vocab = len(tokenizer.get_vocab())
    parser = CFGConstrainedParser(
        tokenizer, random_logits(vocab, 7), ObjectStateMachine(), max_tokens=16
    )
    result = parser.parse("")
    assert result.success, result.error
    assert isinstance(result.value, dict)


def test_logits_function_errors_become_failures(tokenizer: Any) -> None:
    from pse.types.json.json_value import JsonStateMachine

    def broken(ids: Sequence[int]) -> Any:
        raise RuntimeError("model crashed")

    result = CFGConstrainedParser(tokenizer, broken, JsonStateMachine()).parse("x")
    assert not result.success and "model crashed" in (result.error or "")
