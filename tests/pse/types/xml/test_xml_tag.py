"""XMLTagStateMachine: docs examples (formats page)."""

from __future__ import annotations

import pytest

from pse.types.base.chain import ChainStateMachine
from pse.types.xml.xml_tag import XMLTagStateMachine


def test_opening_and_closing(harness):
    person_tag_sm = XMLTagStateMachine(tag_name="person")
    person_closing_tag_sm = XMLTagStateMachine(tag_name="person", closing_tag=True)
    assert isinstance(person_tag_sm, ChainStateMachine)
    assert harness.matches(person_tag_sm, "<person>")
    assert not harness.matches(person_tag_sm, "</person>")
    assert harness.matches(person_closing_tag_sm, "</person>")
    assert not harness.matches(person_closing_tag_sm, "<person>")


def test_simple_h1(harness):
    h1_tag_sm = XMLTagStateMachine(tag_name="h1")
    # This will match "<h1>" but not "<h2>" or "<H1>"
    assert harness.matches(h1_tag_sm, "<h1>")
    assert not harness.matches(h1_tag_sm, "<h2>")
    assert not harness.matches(h1_tag_sm, "<H1>")


def test_no_attributes_whitespace_or_self_closing(harness):
    sm = XMLTagStateMachine("br")
    for text in ('<br class="x">', "< br>", "<br >", "<br/>"):
        assert not harness.matches(sm, text), text


def test_chunked_and_value(harness):
    sm = XMLTagStateMachine("data", closing_tag=True)
    steppers = harness.run_chunks(sm, ["</d", "at", "a>"])
    assert [s.get_current_value() for s in harness.accepting(steppers)] == ["</data>"]
    assert harness.value(sm, "</data>") == "</data>"


def test_empty_tag_name_raises():
    with pytest.raises(ValueError):
        XMLTagStateMachine("")
