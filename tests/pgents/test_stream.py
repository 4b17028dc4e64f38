"""Streaming prefixes: ../shared/data/partial-json (partial-json-parser and jiter)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pgents import JsonRepairParser, StackBalancingParser
from pgents.strategies.incremental_ast import IncrementalParser
from pgents.stream import parse_partial_json


@pytest.mark.parametrize(
    ("policy", "reference"), [("trailing-strings", "jiter_trailing"), ("on", "jiter_on")]
)
def test_prefix_sweep_matches_jiter(
    prefix_sweep: list[dict[str, Any]], policy: Any, reference: str
) -> None:
    mismatches = []
    total = 0
    for doc in prefix_sweep:
        for prefix in doc["prefixes"]:
            total += 1
            got = parse_partial_json(doc["doc"][: prefix["len"]], policy)
            want = prefix[reference]["value"]
            if got is None or json.dumps(got.value) != json.dumps(want):
                mismatches.append((doc["doc"][: prefix["len"]], want))
    assert total > 9000
    assert mismatches == []


def test_stream_yields_a_partial_per_chunk(prefix_sweep: list[dict[str, Any]]) -> None:
    parser = JsonRepairParser().configure(stream_chunk_size=1)
    for doc in prefix_sweep:
        text = doc["doc"]
        chunks = [text[i : i + 3] for i in range(0, len(text), 3)]
        results = list(parser.parse_stream(iter(chunks)))
        assert len(results) == len(chunks) + 1
        for k, r in enumerate(results[:-1]):
            assert r.partial and r.stream_position == min(3 * (k + 1), len(text))
            assert r.confidence < 1.0
        assert results[-1].success and not results[-1].partial
        assert results[-1].value == json.loads(text)


def test_reference_unit_cases(partial_json_cases: list[dict[str, Any]]) -> None:
    for case in partial_json_cases:
        if case["api"] != "jiter.from_json" or case.get("input") is None:
            continue
        policy = "trailing-strings" if case["partial_mode"] == "trailing-strings" else "on"
        got = parse_partial_json(case["input"], policy)
        assert got is not None and got.value == case["expected"], case["source"]


def test_stack_balancing_every_prefix(prefix_sweep: list[dict[str, Any]]) -> None:
    parser = StackBalancingParser()
    for doc in prefix_sweep[:10]:
        text = doc["doc"]
        results = list(parser.parse_stream(iter(text)))
        assert results[-1].value == json.loads(text)
        assert all(r.partial for r in results[:-1])


def test_not_a_prefix() -> None:
    assert parse_partial_json("{'a'") is None
    assert parse_partial_json("") is None
    assert parse_partial_json('{"a": 1} x') is None


def test_incremental_parser_skips_tokens_that_are_not_json() -> None:
    from pgents.strategies.incremental_ast import IncrementalParser

    final = list(IncrementalParser().parse_stream(["[00, 1]"]))[-1]
    assert final.success and final.value is not None
    assert [c.value for c in final.value.children] == [1]
    assert final.repairs


def test_stream_chunk_size_groups_tokens() -> None:
    tokens = list('{"a": [1, 2, 3], "b": "xyz"}')
    for parser in (JsonRepairParser(), StackBalancingParser(), IncrementalParser()):
        grouped = list(parser.configure(stream_chunk_size=8).parse_stream(iter(tokens)))
        assert [r.stream_position for r in grouped[:-1]] == [8, 16, 24, 28]
        assert all(r.partial for r in grouped[:-1]) and not grouped[-1].partial
        assert len(list(parser.parse_stream(iter(tokens)))) == 2  # default 128 tokens
