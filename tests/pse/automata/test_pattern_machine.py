"""pattern_string_machine (one native call) against string_dfa's general path."""

from __future__ import annotations

import json
import random

import pytest

from pse.automata import string_dfa
from pse.automata.json_string import lower_json_string
from pse.automata.regex import pattern_string_machine

from .conftest import accepts

PATTERNS = [
    "^[A-Z]{3}-[0-9]{4}$",
    "^[a-z][a-z0-9_]*$",
    "^#[0-9a-f]{6}$",
    "a|b|cd*",
    "x{0,3}y?z+",
    "[^abc]+",
    "(ab|a)*b",
    "^[\\u4e00-\\u9fff]{1,4}$",
    "^\\p{Lu}\\p{Ll}*$",
    "\\d+",
    "😀|é",
    "^$",
]
LENGTHS = [(0, None), (3, 16), (0, 2), (2, None), (4, 4), (0, 0)]
LETTERS = ["a", "b", "x", "y", "z", "A", "Q", "0", "7", "-", "#", "_", "é", "中", "😀", '"', "\\"]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize(("low", "high"), LENGTHS)
def test_the_native_machine_is_the_general_one(pattern: str, low: int, high: int | None) -> None:
    native = pattern_string_machine(pattern, low, high)
    dfa = string_dfa(pattern, low, high, None)
    if dfa.is_empty():
        assert native is None  # the general path says why (unsatisfiable)
        return
    general = lower_json_string(dfa, "pattern").machine(0)
    assert native is not None
    assert native.state_count == general.state_count
    assert native.byte_classes == general.byte_classes
    rng = random.Random(f"{pattern}/{low}/{high}")
    for _ in range(200):
        value = "".join(rng.choice(LETTERS) for _ in range(rng.randint(0, 7)))
        for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
            assert accepts(native, text) == accepts(general, text), text


@pytest.mark.parametrize(
    ("pattern", "low", "high"),
    [
        ("^(?=.*x)[a-z]{2,5}$", 0, None),  # a lookahead: products in Python
        ("[", 0, None),  # a syntax error: raised by the general path
        ("^a$", 2, None),  # no string at all
        ("a*", 60_000, None),  # the length counter past MAX_LENGTH_STATES
    ],
)
def test_the_general_path_decides_the_rest(pattern: str, low: int, high: int | None) -> None:
    assert pattern_string_machine(pattern, low, high) is None
