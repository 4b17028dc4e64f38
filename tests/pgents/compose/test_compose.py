"""Fallback, Fusion, Switch and Sequential with the spec's confidence rules."""

from __future__ import annotations

import time

import pytest
from pgents import (
    AnchorBasedParser,
    FallbackParser,
    FusionParser,
    IdentityParser,
    JsonRepairParser,
    ParseResult,
    SequentialParser,
    StackBalancingParser,
    SwitchParser,
)
from pgents.compose.fallback import position_factor


def test_fallback_discounts_by_position() -> None:
    parser = FallbackParser(AnchorBasedParser(), JsonRepairParser())
    result = parser.parse('{"a": 1}')
    assert result.value == {"a": 1}
    assert result.confidence == pytest.approx(0.85 * 0.9)
    assert [position_factor(i) for i in (0, 1, 5, 9)] == [1.0, 0.9, 0.5, 0.5]


def test_fallback_min_confidence() -> None:
    messy = "{'a': 1, b: [1, 2"
    parser = FallbackParser(JsonRepairParser(), StackBalancingParser())
    result = parser.parse(messy)
    assert result.success and result.metadata["below_min_confidence"]
    assert not FallbackParser(AnchorBasedParser()).parse("no anchors").success


def test_fusion_averages() -> None:
    result = FusionParser(JsonRepairParser(), StackBalancingParser()).parse('{"a": 1}')
    assert result.value == {"a": 1}
    assert result.confidence == pytest.approx((0.85 + 0.75) / 2)


def test_switch_routes() -> None:
    parser = SwitchParser(
        [(lambda t: t.lstrip().startswith("{"), JsonRepairParser())], AnchorBasedParser()
    )
    assert parser.parse('{"a": 1}').metadata["route"] == 0
    assert parser.parse("###ITEM: x").metadata["route"] == "default"
    assert not SwitchParser([]).parse("x").success
    # the spec's mapping form: {condition: parser}, tried in order
    mapping = SwitchParser(
        {lambda t: t.startswith("###"): AnchorBasedParser(), lambda t: True: JsonRepairParser()}
    )
    assert mapping.parse("###ITEM: x").metadata["route"] == 0
    assert mapping.parse('{"a": 1}').value == {"a": 1}


def test_fallback_and_fusion_respect_the_budget() -> None:
    failing = AnchorBasedParser(anchor="###NEVER:")
    chain = FallbackParser(failing, failing, JsonRepairParser())
    assert chain.parse('{"a": 1}').success
    capped = chain.configure(max_attempts=2).parse('{"a": 1}')
    assert not capped.success and "max_attempts (2) reached" in (capped.error or "")
    fused = FusionParser(JsonRepairParser(), StackBalancingParser()).configure(max_attempts=1)
    assert fused.parse('{"a": 1}').metadata["fused"] == ["json-repair"]


def test_timeout_stops_further_attempts() -> None:
    class Slow(IdentityParser):
        def _parse(self, text: str) -> ParseResult[str]:
            time.sleep(0.02)
            return ParseResult.fail("slow and wrong", "slow")

    chain = FallbackParser(Slow(), Slow(), Slow(), JsonRepairParser()).configure(timeout_ms=30)
    result = chain.parse('{"a": 1}')
    assert not result.success and "timed out" in (result.error or "")
    assert FallbackParser(Slow(), JsonRepairParser()).parse('{"a": 1}').success


def test_sequential_multiplies() -> None:
    def validate(value: object) -> ParseResult[object]:
        return ParseResult.ok(value, 0.9, "validate")

    result = SequentialParser(IdentityParser(), validate, validate).parse("x")
    assert result.confidence == pytest.approx(0.81)
