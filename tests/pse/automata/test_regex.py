"""regex_dfa / pattern_dfa against Python's ``re`` where the syntax coincides."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core.errors import SchemaError

from pse.automata import pattern_dfa, regex_dfa

from .conftest import accepts

# (ECMA pattern, equivalent Python pattern)
PATTERNS = [
    ("^[a-c]+é$", r"^[a-c]+é\Z"),
    ("ab|c", "ab|c"),
    ("^(ab)*c?$", r"^(ab)*c?\Z"),
    ("a.c", "a.c"),
    ("^\\d{2,4}-\\w+$", r"^[0-9]{2,4}-[A-Za-z0-9_]+\Z"),
    ("[^a-z]x", "[^a-z]x"),
    ("^(?:é|ü|😀){2}$", r"^(?:é|ü|😀){2}\Z"),
    ("^a{3}$", r"^a{3}\Z"),
    ("x+?y", "x+?y"),
    ("^$", r"^\Z"),
    ("a$|^b", r"a\Z|^b"),
    ("(?<n>ab)\\.", r"(?P<n>ab)\."),
    ("[\\u00e0-\\u00ff]b", "[\u00e0-\u00ff]b"),
    ("\\x41\\u{1F600}", "A\U0001f600"),
    ("^[^😀]*$", r"^[^😀]*\Z"),
    # lookaheads right after a leading ^
    ("^(?!ab)[a-c]+$", r"^(?!ab)[a-c]+\Z"),
    ("^(?=.*x)(?!.*y).{0,5}$", r"^(?=.*x)(?!.*y).{0,5}\Z"),
    ("^(?!a|b$)", r"^(?!a|b\Z)"),
]
ALPHABET = "abcxyAB-_.é😀ü\n0123"


@pytest.mark.parametrize(("ecma", "python"), PATTERNS)
@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=7))
def test_matches_python_re(ecma: str, python: str, text: str) -> None:
    expected = re.search(python, text, re.DOTALL if "." not in ecma else 0) is not None
    assert pattern_dfa(ecma).accepts(text) == expected
    if text:  # the native machine needs at least one byte
        assert accepts(regex_dfa(ecma), text) == expected


def test_anchored() -> None:
    assert pattern_dfa("ab", anchored=True).accepts("ab")
    assert not pattern_dfa("ab", anchored=True).accepts("xab")
    assert pattern_dfa("ab").accepts("xabx")


def test_unicode_classes() -> None:
    assert pattern_dfa("^\\p{Letter}cole$").accepts("école")
    assert not pattern_dfa("^\\d$").accepts("\u07c0")
    assert pattern_dfa("^\\p{digit}+$").accepts("\u09ea\u09e8")
    assert not pattern_dfa("^\\S$").accepts("\ufeff")
    assert pattern_dfa("^\\W$").accepts("é")
    assert pattern_dfa("^\\cC$").accepts("\x03")
    assert pattern_dfa("^\\uD83D\\uDE00$").accepts("😀")


@pytest.mark.parametrize(
    "pattern",
    [
        "(?=a)",
        "(?!a)",
        "a(?=b)",
        "^(?=a)*",
        "(?<=a)b",
        "(a)\\1",
        "\\bword",
        "\\k<n>",
        "(?i)a",
        "a**",
        "(",
        "[a",
        "\\q",
    ],
)
def test_unsupported(pattern: str) -> None:
    with pytest.raises(SchemaError) as info:
        pattern_dfa(pattern)
    assert info.value.code == "unsupported-pattern"


def test_too_large() -> None:
    with pytest.raises(SchemaError) as info:
        pattern_dfa("a.{40}$")
    assert info.value.code == "automaton-too-large"
