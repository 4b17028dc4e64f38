"""The P-gents laws as property tests (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgents import (
    BaseParser,
    FallbackParser,
    JsonRepairParser,
    ParseResult,
    SequentialParser,
    StackBalancingParser,
)
from pgents.confidence import BASE

from .parsers import all_parsers

PARSERS = all_parsers()
IDS = [type(p).__name__ + str(i) for i, p in enumerate(PARSERS)]

JSONISH = st.text(alphabet=st.sampled_from(list("{}[]()\",:'0123456789.-eE truefalsnNTF\\/*#`\n")))
TEXT = st.one_of(
    st.text(),
    JSONISH,
    st.binary().map(lambda b: b.decode("latin-1")),
    st.text(max_size=5).map(lambda t: "Here you go:\n```json\n{" + t),
)


def check(result: ParseResult[Any]) -> None:
    assert isinstance(result, ParseResult)
    if result.success:
        assert result.value is not None and result.confidence > 0
    else:
        assert result.error is not None
    if result.partial:
        assert result.confidence < 1.0
    if result.repairs:
        assert result.confidence < 1.0


@pytest.mark.parametrize("parser", PARSERS, ids=IDS)
@settings(max_examples=60)
@given(text=TEXT)
def test_never_raises_and_keeps_invariants(parser: BaseParser[Any], text: str) -> None:
    check(parser.parse(text))


@pytest.mark.parametrize("parser", PARSERS, ids=IDS)
@settings(max_examples=15)
@given(chunks=st.lists(TEXT, max_size=6))
def test_streams_never_raise(parser: BaseParser[Any], chunks: list[str]) -> None:
    results = list(parser.parse_stream(iter(chunks)))
    assert results, "a stream always ends with a final result"
    for r in results[:-1]:
        assert r.partial
        check(r)
    assert not results[-1].partial or not results[-1].success
    check(results[-1])


@pytest.mark.parametrize("parser", PARSERS, ids=IDS)
def test_huge_and_hostile_inputs(parser: BaseParser[Any]) -> None:
    for text in ["[" * 50_000, "{" * 50_000 + "}", '"' * 100_000, "x" * 1_000_000, "\x00\ud800"]:
        check(parser.parse(text))
    small = parser.configure(max_input_chars=10)
    assert not small.parse("x" * 11).success
    check(parser.parse(None))  # type: ignore[arg-type]


@settings(max_examples=200)
@given(text=TEXT)
def test_repairs_imply_a_penalty(text: str) -> None:
    result = JsonRepairParser().parse(text)
    if result.success and result.repairs:
        assert result.confidence < BASE["direct"]
    if result.success and not result.repairs:
        assert result.confidence == BASE["direct"]


@settings(max_examples=100)
@given(text=TEXT)
def test_sequential_composition_never_raises_confidence(text: str) -> None:
    base = JsonRepairParser()
    inner = base.parse(text)
    fallback = FallbackParser(StackBalancingParser(), base).parse(text)
    if fallback.success and fallback.metadata.get("fallback_index") == 1:
        assert fallback.confidence <= inner.confidence

    def stage(value: Any) -> ParseResult[Any]:
        return ParseResult.ok(value, 0.9, "stage")

    chained = SequentialParser(base, stage, stage).parse(text)
    if chained.success:
        assert chained.confidence <= min(inner.confidence, 0.9)
