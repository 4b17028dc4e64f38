"""Built-in automata (``type: integer`` alone, each ``format`` alone) outlive the
compile caches and match what the caches' own construction builds."""

from __future__ import annotations

import json

import pytest
from pse_core.errors import SchemaError

import pse.automata as automata
from pse.automata import format_dfa, number_machine, string_machine
from pse.automata.formats import SUPPORTED_FORMATS, format_pattern
from pse.automata.json_string import lower_json_string
from pse.automata.numbers import number_dfa

from .conftest import accepts


def clear_caches() -> None:
    for value in vars(automata).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def test_kept_across_cache_clears() -> None:
    date = string_machine(format="date")
    integer = number_machine(integer=True)
    clear_caches()
    assert string_machine(format="date") is date
    assert number_machine(integer=True) is integer
    assert format_dfa("date") is format_dfa("date")


@pytest.mark.parametrize("fmt", sorted(SUPPORTED_FORMATS - {"hostname"}))
def test_format_machine_is_the_pattern_machine(fmt: str) -> None:
    reference = automata.pattern_dfa(format_pattern(fmt), True, "format")
    assert format_dfa(fmt).trans == reference.trans
    assert format_dfa(fmt).accepting == reference.accepting
    table = lower_json_string(reference, "format")
    built = string_machine(format=fmt)
    assert built.state_count == len(table.accepting)


@pytest.mark.parametrize(
    ("text", "ok"),
    [("1", True), ("-20", True), ("1.0", True), ("1e2", True), ("1.5", False), ("1e-1", False)],
)
def test_integer_alone(text: str, ok: bool) -> None:
    assert accepts(number_machine(integer=True), text) == ok
    assert number_dfa(integer=True).accepts(text) == ok


def test_constrained_integers_are_not_kept() -> None:
    low = number_machine(integer=True, minimum=3)
    clear_caches()
    assert number_machine(integer=True, minimum=3) is not low
    assert accepts(low, "3") and not accepts(low, "2")


def test_a_format_with_lengths_is_built_per_schema() -> None:
    exact = string_machine(format="date", min_length=10, max_length=10)
    assert exact is not string_machine(format="date")
    assert accepts(exact, json.dumps("2024-01-01"))
    with pytest.raises(SchemaError, match="no string"):  # no date has 9 characters
        string_machine(format="date", max_length=9)
