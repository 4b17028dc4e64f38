"""ParseResult invariants and the IdentityParser."""

from __future__ import annotations

import pytest
from pgents import IdentityParser, InvariantError, ParserConfig, ParseResult


def test_success_needs_value_and_confidence() -> None:
    with pytest.raises(InvariantError):
        ParseResult(True, None, confidence=0.5)
    with pytest.raises(InvariantError):
        ParseResult(True, 1, confidence=0.0)


def test_failure_needs_error() -> None:
    with pytest.raises(InvariantError):
        ParseResult(False)
    assert ParseResult.fail("boom").error == "boom"


def test_partial_and_repairs_lower_confidence() -> None:
    with pytest.raises(InvariantError):
        ParseResult(True, 1, confidence=1.0, partial=True)
    with pytest.raises(InvariantError):
        ParseResult(True, 1, confidence=1.0, repairs=["x"])
    with pytest.raises(InvariantError):
        ParseResult(True, 1, confidence=1.5)


def test_ok_with_none_value_is_a_failure() -> None:
    result = ParseResult.ok(None, 0.9)
    assert not result.success and result.error


def test_replace_rechecks() -> None:
    result = ParseResult.ok(1, 1.0)
    with pytest.raises(InvariantError):
        result.replace(partial=True)
    assert result.as_partial(3).confidence < 1.0


def test_identity() -> None:
    parser = IdentityParser()
    assert parser.parse("abc").value == "abc"
    assert parser.parse("abc").confidence == 1.0
    results = list(parser.configure(stream_chunk_size=1).parse_stream(["a", "b"]))
    assert [r.value for r in results] == ["a", "ab", "ab"]
    assert [r.partial for r in results] == [True, True, False]
    assert results[-1].stream_position == 2


def test_configure_returns_a_copy() -> None:
    parser = IdentityParser()
    short = parser.configure(max_input_chars=2)
    assert parser.config == ParserConfig()
    assert not short.parse("abc").success
    assert parser.parse("abc").success
    with pytest.raises(ValueError):
        ParserConfig(min_confidence=2.0)


def test_non_str_input_fails_gracefully() -> None:
    assert not IdentityParser().parse(b"bytes").success  # type: ignore[arg-type]
