"""PhraseStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pse_core._core import StateMachine

from pse.types.base.phrase import PhraseStateMachine


def test_guide_keyword_and_delimiter(harness):
    keyword_sm = PhraseStateMachine("class")
    delimiter_sm = PhraseStateMachine("---")
    assert harness.matches(keyword_sm, "class")
    assert not harness.matches(keyword_sm, "clas")
    assert not harness.matches(keyword_sm, "classes")
    assert not harness.matches(keyword_sm, "Class")
    assert harness.matches(delimiter_sm, "---")
    assert not harness.matches(delimiter_sm, "--")


def test_guide_examples_true_and_fence(harness):
    assert harness.matches(PhraseStateMachine("true"), "true")
    fence = PhraseStateMachine("```json\n")
    assert harness.matches(fence, "```json\n")
    assert not harness.matches(fence, "```json")


def test_api_greeting(harness):
    greeting = PhraseStateMachine("Hello, World!")
    assert harness.matches(greeting, "Hello, World!")
    assert not harness.matches(greeting, "Hello, world!")
    assert harness.value(greeting, "Hello, World!") == "Hello, World!"


def test_api_optional_phrase(harness):
    optional_phrase = PhraseStateMachine("Optional text", is_optional=True)
    assert optional_phrase.is_optional
    assert harness.matches(optional_phrase, "Optional text")
    # An optional root may be skipped: the empty output is accepted.
    assert harness.matches(optional_phrase, "")


def test_api_case_insensitive(harness):
    case_insensitive = PhraseStateMachine("HELLO", is_case_sensitive=False)
    for text in ("HELLO", "hello", "HeLlO"):
        assert harness.matches(case_insensitive, text)
    assert not harness.matches(case_insensitive, "HELL0")
    assert not harness.matches(PhraseStateMachine("HELLO"), "hello")


def test_empty_phrase_raises_value_error():
    with pytest.raises(ValueError):
        PhraseStateMachine("")


def test_repr_and_equality():
    assert repr(PhraseStateMachine("value")) == "Phrase('value')"
    assert PhraseStateMachine("a") == PhraseStateMachine("a")
    assert PhraseStateMachine("a") != PhraseStateMachine("b")
    assert hash(PhraseStateMachine("a")) == hash(PhraseStateMachine("a"))
    assert PhraseStateMachine("a").phrase == "a"


def test_partial_match_survives_and_value_is_text(harness):
    sm = PhraseStateMachine("Hello")
    steppers = harness.run(sm, "Hel")
    assert harness.alive(steppers)
    assert not harness.accepting(steppers)
    assert steppers[0].get_current_value() == "Hel"
    assert harness.value(sm, "Hello") == "Hello"


def test_unicode_phrase(harness):
    sm = PhraseStateMachine("héllo 世界 🎉")
    assert harness.matches(sm, "héllo 世界 🎉")
    assert not harness.matches(sm, "hello 世界 🎉")


@given(
    phrase=st.text(min_size=1, max_size=12),
    cuts=st.lists(st.integers(0, 12), max_size=6),
)
def test_chunking_invariance(harness, phrase, cuts):
    sm = PhraseStateMachine(phrase)
    chunks = harness.chunked(phrase, cuts)
    assert harness.accepting(harness.run_chunks(sm, chunks))
    assert harness.matches(sm, phrase)


@given(phrase=st.text(min_size=1, max_size=8), other=st.text(min_size=1, max_size=8))
def test_only_the_phrase_is_accepted(harness, phrase, other):
    sm = PhraseStateMachine(phrase)
    assert harness.matches(sm, other) == (other == phrase)
    assert harness.is_prefix(sm, other) == phrase.startswith(other)


def test_advance_all_basic_is_static():
    steppers = PhraseStateMachine("ab").get_steppers()
    steppers = StateMachine.advance_all_basic(steppers, "a")
    steppers = StateMachine.advance_all_basic(steppers, "b")
    assert any(s.has_reached_accept_state() for s in steppers)
