"""CharacterStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.character import CharacterStateMachine

DIGITS = "0123456789"


def test_guide_digit(harness):
    digit_sm = CharacterStateMachine(whitelist_charset=DIGITS)
    assert harness.matches(digit_sm, "7")
    assert harness.matches(digit_sm, "0123")
    assert not harness.matches(digit_sm, "12a")
    assert not harness.matches(digit_sm, "")


def test_guide_optional_whitespace_up_to_ten(harness):
    whitespace_sm = CharacterStateMachine(
        whitelist_charset=" \t\n\r",
        char_limit=10,
        is_optional=True,
    )
    assert harness.matches(whitespace_sm, "")
    assert harness.matches(whitespace_sm, " \t\n\r")
    assert harness.matches(whitespace_sm, " " * 10)
    assert not harness.matches(whitespace_sm, " " * 11)
    assert not harness.matches(whitespace_sm, " x")


def test_guide_non_quote(harness):
    non_quote_sm = CharacterStateMachine(blacklist_charset='"')
    assert harness.matches(non_quote_sm, "anything at all, even 'single' quotes")
    assert not harness.matches(non_quote_sm, 'say "hi"')


def test_guide_abc_limit_five(harness):
    sm = CharacterStateMachine(whitelist_charset="abc", char_limit=5)
    assert harness.matches(sm, "abcab")
    assert not harness.matches(sm, "abcabc")
    assert not harness.matches(sm, "abd")


def test_api_any_char(harness):
    any_char_sm = CharacterStateMachine()
    assert harness.matches(any_char_sm, "x")
    assert harness.matches(any_char_sm, 'Any text: "quotes", 世界, \n newlines 🎉')
    assert not harness.matches(any_char_sm, "")


def test_api_lowercase(harness):
    alpha_sm = CharacterStateMachine(whitelist_charset=string.ascii_lowercase)
    assert harness.matches(alpha_sm, "hello")
    assert not harness.matches(alpha_sm, "Hello")
    assert not harness.matches(alpha_sm, "hello world")


def test_api_no_digits(harness):
    no_digits_sm = CharacterStateMachine(blacklist_charset=DIGITS)
    assert harness.matches(no_digits_sm, "abc def")
    assert not harness.matches(no_digits_sm, "abc1")


def test_api_identifier(harness):
    identifier_sm = CharacterStateMachine(
        whitelist_charset=string.ascii_letters + DIGITS + "_",
        char_min=1,
        char_limit=64,
        case_sensitive=True,
    )
    assert harness.matches(identifier_sm, "my_var_1")
    assert harness.matches(identifier_sm, "a" * 64)
    assert not harness.matches(identifier_sm, "a" * 65)
    assert not harness.matches(identifier_sm, "my-var")
    assert not harness.matches(identifier_sm, "")
    assert identifier_sm.char_min == 1
    assert identifier_sm.char_limit == 64


def test_api_word_graylist(harness):
    word_sm = CharacterStateMachine(graylist_charset=" \t\n.,:;!?")
    assert harness.matches(word_sm, "word")
    # A graylist character is allowed only as the first character of the run.
    assert harness.matches(word_sm, ".")
    assert not harness.matches(word_sm, "word.")
    assert not harness.matches(word_sm, "two words")
    steppers = harness.run(word_sm, "word.")
    assert not harness.accepting(steppers)


def test_defaults_and_charsets():
    sm = CharacterStateMachine(whitelist_charset="ab", blacklist_charset="c", graylist_charset="d")
    assert sm.charset == {"a", "b"}
    assert sm.blacklist_charset == {"c"}
    assert sm.graylist_charset == {"d"}
    default = CharacterStateMachine()
    assert default.char_min == 0
    assert default.char_limit == 0
    assert not default.is_optional


def test_char_min(harness):
    sm = CharacterStateMachine(whitelist_charset="x", char_min=3)
    assert not harness.matches(sm, "xx")
    assert harness.is_prefix(sm, "xx")
    assert harness.matches(sm, "xxx")
    assert harness.matches(sm, "xxxxxx")


def test_case_insensitive(harness):
    sm = CharacterStateMachine(whitelist_charset="abc", case_sensitive=False)
    assert harness.matches(sm, "aBcA")
    assert not harness.matches(CharacterStateMachine(whitelist_charset="abc"), "aB")


def test_value_is_json_or_raw(harness):
    sm = CharacterStateMachine(whitelist_charset=DIGITS + "abc")
    assert harness.value(sm, "42") == 42
    assert harness.value(sm, "4a2") == "4a2"


@given(
    text=st.text(alphabet="abc0123", min_size=1, max_size=20),
    cuts=st.lists(st.integers(0, 20), max_size=6),
)
def test_whitelist_property_and_chunking(harness, text, cuts):
    sm = CharacterStateMachine(whitelist_charset="abc")
    expected = set(text) <= set("abc")
    assert harness.matches(sm, text) == expected
    assert bool(harness.accepting(harness.run_chunks(sm, harness.chunked(text, cuts)))) == expected


@given(text=st.text(min_size=1, max_size=20), limit=st.integers(1, 10))
def test_limit_property(harness, text, limit):
    sm = CharacterStateMachine(blacklist_charset="#", char_limit=limit)
    expected = "#" not in text and len(text) <= limit
    assert harness.matches(sm, text) == expected


@given(text=st.text(alphabet="ab .!", min_size=1, max_size=8))
def test_graylist_property(harness, text):
    sm = CharacterStateMachine(graylist_charset=" .!")
    expected = len(text) == 1 or not any(c in " .!" for c in text[1:])
    assert harness.matches(sm, text) == expected
