"""Fixtures for the ``pse`` tests: real tokenizers and a synthetic SentencePiece one."""

from __future__ import annotations

from typing import Any

import pytest
from _support.tokenizers import (
    llama3_tokenizer,
    sentencepiece_tokenizer,
    smollm2_tokenizer,
)


@pytest.fixture(scope="session")
def smollm2() -> Any:
    return smollm2_tokenizer()


@pytest.fixture(scope="session")
def llama3() -> Any:
    return llama3_tokenizer()


@pytest.fixture(scope="session", params=["smollm2", "llama3"])
def real_tokenizer(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="session", params=["llama2", "metaspace"])
def sp_tokenizer(request: pytest.FixtureRequest) -> Any:
    return sentencepiece_tokenizer(request.param)
