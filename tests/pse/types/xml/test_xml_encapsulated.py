"""XMLEncapsulatedStateMachine: docs examples (formats page)."""

from __future__ import annotations

from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine
from pse.types.xml.xml_encapsulated import XMLEncapsulatedStateMachine


def test_text_element(harness):
    text_element_sm = XMLEncapsulatedStateMachine(
        tag_name="p",
        state_machine=PhraseStateMachine("Hello world"),
        min_buffer_length=-1,
        is_optional=False,
    )
    assert harness.matches(text_element_sm, "<p>Hello world</p>")
    assert harness.value(text_element_sm, "<p>Hello world</p>") == "Hello world"
    assert not harness.matches(text_element_sm, "<p>Hello world</div>")
    assert not harness.matches(text_element_sm, "<p>Hello world")
    assert not harness.matches(text_element_sm, "intro <p>Hello world</p>")
    assert not harness.matches(text_element_sm, "")


def test_json_in_xml(harness):
    json_in_xml_sm = XMLEncapsulatedStateMachine(tag_name="data", state_machine=JsonStateMachine())
    # This will match: <data>{"key": "value"}</data>
    assert harness.value(json_in_xml_sm, '<data>{"key": "value"}</data>') == {"key": "value"}
    assert not harness.matches(json_in_xml_sm, '<data>{"key": value}</data>')


def test_nested_elements(harness):
    paragraph_sm = XMLEncapsulatedStateMachine(
        tag_name="p", state_machine=PhraseStateMachine("Sample text")
    )
    div_with_paragraph_sm = XMLEncapsulatedStateMachine(tag_name="div", state_machine=paragraph_sm)
    # This will match: <div><p>Sample text</p></div>
    assert harness.matches(div_with_paragraph_sm, "<div><p>Sample text</p></div>")
    assert harness.value(div_with_paragraph_sm, "<div><p>Sample text</p></div>") == "Sample text"
    assert not harness.matches(div_with_paragraph_sm, "<div><p>Sample text</div></p>")


def test_optional_element(harness):
    optional_element_sm = XMLEncapsulatedStateMachine(
        tag_name="optional",
        state_machine=PhraseStateMachine("Some content"),
        is_optional=True,
    )
    # Will match both "<optional>Some content</optional>" and empty string
    assert harness.matches(optional_element_sm, "<optional>Some content</optional>")
    assert harness.matches(optional_element_sm, "")


def test_min_buffer_length(harness):
    sm = XMLEncapsulatedStateMachine("a", PhraseStateMachine("x"), min_buffer_length=0)
    assert harness.matches(sm, "Some preamble <a>x</a>")
    assert harness.matches(sm, "<a>x</a>")


def test_chunked(harness):
    sm = XMLEncapsulatedStateMachine("t", JsonStateMachine())
    steppers = harness.run_chunks(sm, ["<", "t>[1,", " 2]</", "t", ">"])
    assert harness.values(steppers) == [[1, 2]]
