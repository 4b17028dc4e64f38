"""Regression tests for what the fuzzers in this folder found.

A test marked ``xfail(strict=True)`` records a bug that is not fixed yet (the
owner is named in the reason): it fails loudly once the bug is fixed, so the
mark comes off and the test guards the fix.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support.tokenizers import smollm2_tokenizer
from hardening.promise import LogitSource, check_case, run_case, validator
from pse_core.errors import SchemaError

from pse import StructuringEngine

#: U+40000: UTF-8 F1 80 80 80. SmolLM2's byte-level vocabulary has no token
#: holding the byte F1, so a key with it is written with a JSON escape.
PLANE4_KEY = "0\U00040000"


@pytest.mark.xfail(
    strict=True,
    reason="completion.cc: the shortest completion is chosen in bytes without the "
    "vocabulary; raw bytes no token spells make it unknown, and the budget is not "
    "enforced (the escaped spelling would do). Reported to the board.",
)
def test_budget_holds_when_the_shortest_bytes_are_unspellable() -> None:
    tokenizer = smollm2_tokenizer()
    engine = StructuringEngine(tokenizer)
    schema = {
        "type": "object",
        "properties": {PLANE4_KEY: {"type": "integer"}},
        "required": [PLANE4_KEY],
        "additionalProperties": False,
    }
    engine.configure(schema)
    assert engine.completion_token_ids() is not None
    source, check = LogitSource(engine), validator(schema)
    for seed in range(10):
        outcome = run_case(engine, source, seed, greedy=False, bias=0.0, budget=40)
        assert check_case(outcome, check, 40) == [], json.dumps(schema)


def test_the_escaped_key_is_accepted_and_valid() -> None:
    """The escaped spelling of the same key is what a model can write: it is accepted."""
    engine = StructuringEngine(smollm2_tokenizer())
    schema = {"type": "object", "properties": {PLANE4_KEY: {"const": 1}}, "required": [PLANE4_KEY]}
    engine.configure(schema)
    text = json.dumps({PLANE4_KEY: 1})  # '{"0\\ud8c0\\udc00": 1}'
    assert engine.consume_text(text) and engine.has_reached_accept_state
    assert engine.get_structured_output() == {PLANE4_KEY: 1}


def nested(depth: int) -> tuple[dict[str, Any], Any]:
    schema: dict[str, Any] = {"type": "integer"}
    instance: Any = 1
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
        instance = {"a": instance}
    return schema, instance


def test_nesting_depth_100_compiles() -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    schema, instance = nested(100)
    engine.configure(schema)
    assert engine.consume_text(json.dumps(instance)) and engine.has_reached_accept_state


def test_nesting_depth_200_compiles() -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    schema, instance = nested(200)
    engine.configure(schema)
    assert engine.consume_text(json.dumps(instance)) and engine.has_reached_accept_state


def test_nesting_beyond_the_limit_is_a_schema_error() -> None:
    engine = StructuringEngine(smollm2_tokenizer())
    with pytest.raises(SchemaError):
        engine.configure(nested(5_000)[0])
