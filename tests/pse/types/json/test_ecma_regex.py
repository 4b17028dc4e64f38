"""format: regex: ECMA-262 pattern syntax (Unicode mode) and viable prefixes."""

from __future__ import annotations

import pytest
from _support.json_schema import compiled, valid
from pse_core._core import StateMachine

from pse.types.json.ecma_regex import valid as regex_valid
from pse.types.json.ecma_regex import viable

GOOD = [
    "",
    "([abc])+\\s+$",
    "(?<name>x)",
    "(?<n>a)\\k<n>",
    "\\k<n>(?<n>a)",  # a reference may precede its group
    "a{2,3}?b*?",
    "(?=a)(?!b)(?<=c)(?<!d)",
    "[\\d-]|[a-z\\-]",
    "\\u{1F600}\\uD83D\\x41\\cJ\\0\\p{L}\\P{Lu}",
    "^a|b$",
    "(a)\\1",
    "a/b",
]
BAD = [
    "^(abc]",
    "(?i)abc",
    "(?ims)abc",
    "*a",
    "a**",
    "a{3,2}",
    "]",
    "a{",
    "(?=a)*",
    "\\q",
    "(a)\\2",
    "\\k<x>",
    "(?<n>a)(?<n>b)",
    "[z-a]",
    "[\\d-z]",
    "\\00",
    ")",
]


@pytest.mark.parametrize("pattern", GOOD)
def test_valid_patterns(pattern: str) -> None:
    assert regex_valid(pattern)
    assert all(viable(pattern[:end]) for end in range(len(pattern) + 1))
    assert valid(compiled({"type": "string", "format": "regex"}), pattern)


@pytest.mark.parametrize("pattern", BAD)
def test_invalid_patterns(pattern: str) -> None:
    assert not regex_valid(pattern)
    assert not valid(compiled({"type": "string", "format": "regex"}), pattern)


def test_dead_prefixes_are_masked() -> None:
    machine = compiled({"type": "string", "format": "regex"})
    assert StateMachine.advance_all_basic(machine.get_steppers(), '"(a|[b')  # unfinished: alive
    for dead in ('"*', '"a{3,2}', '"(?i', '"\\\\q'):
        assert not StateMachine.advance_all_basic(machine.get_steppers(), dead), dead
