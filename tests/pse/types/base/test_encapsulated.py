"""EncapsulatedStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.encapsulated import EncapsulatedStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.base.wait_for import WaitFor
from pse.types.json.json_value import JsonStateMachine
from pse.types.object import ObjectStateMachine
from pse.types.string import StringStateMachine


def test_guide_json_in_tags(harness):
    sm = EncapsulatedStateMachine(JsonStateMachine(), delimiters=("<json>", "</json>"))
    assert harness.matches(sm, '<json>{"a": [1, 2]}</json>')
    assert harness.value(sm, '<json>{"a": [1, 2]}</json>') == {"a": [1, 2]}
    assert not harness.matches(sm, "<json>{bad}</json>")
    assert not harness.matches(sm, '{"a": 1}')


def test_guide_json_block(harness):
    json_block_sm = EncapsulatedStateMachine(
        state_machine=JsonStateMachine(),
        delimiters=("```json\n", "\n```"),
    )
    text = '```json\n{"name": "Alice", "tags": ["x"]}\n```'
    assert harness.matches(json_block_sm, text)
    assert harness.value(json_block_sm, text) == {"name": "Alice", "tags": ["x"]}
    assert not harness.matches(json_block_sm, '```json\n{"name": "Alice"}```')


def test_guide_optional_xml(harness):
    optional_xml_sm = EncapsulatedStateMachine(
        state_machine=StringStateMachine(),
        delimiters=("<data>", "</data>"),
        is_optional=True,
    )
    assert harness.matches(optional_xml_sm, '<data>"payload"</data>')
    assert harness.value(optional_xml_sm, '<data>"payload"</data>') == "payload"
    assert harness.matches(optional_xml_sm, "")
    assert not harness.matches(optional_xml_sm, "<data>payload</data>")


def test_api_json_code_block_with_buffer(harness):
    json_code_block = EncapsulatedStateMachine(
        ObjectStateMachine(),
        delimiters=("```json\n", "\n```"),
        buffer_length=0,
    )
    text = 'Sure, here it is:\n```json\n{"ok": true}\n```'
    assert harness.matches(json_code_block, text)
    assert harness.value(json_code_block, text) == {"ok": True}
    assert harness.matches(json_code_block, '```json\n{"ok": true}\n```')
    assert not harness.matches(json_code_block, "```json\n[1]\n```")


def test_api_xml_content(harness):
    xml_content = EncapsulatedStateMachine(
        StringStateMachine(), delimiters=("<content>", "</content>")
    )
    assert harness.value(xml_content, '<content>"hi \\"there\\""</content>') == 'hi "there"'
    assert not harness.matches(xml_content, '<content>"hi"</contents>')


def test_api_delayed_content(harness):
    delayed_content = EncapsulatedStateMachine(
        StringStateMachine(),
        delimiters=("<START>", "<END>"),
        buffer_length=10,
        is_optional=True,
    )
    assert harness.matches(delayed_content, 'ten chars!<START>"x"<END>')
    assert not harness.matches(delayed_content, 'short<START>"x"<END>')
    assert harness.matches(delayed_content, "")


def test_default_delimiters_and_keywords(harness):
    sm = EncapsulatedStateMachine(PhraseStateMachine("code"))
    assert sm.delimiters == ("```", "```")
    assert harness.matches(sm, "```code```")
    kw = EncapsulatedStateMachine(
        left_delimiter="```python\n",
        right_delimiter="\n```",
        state_machine=PhraseStateMachine("pass"),
    )
    assert harness.matches(kw, "```python\npass\n```")
    assert not harness.matches(kw, "```\npass\n```")


def test_graph_shape():
    inner = PhraseStateMachine("x")
    sm = EncapsulatedStateMachine(inner, delimiters=("<", ">"), buffer_length=3)
    (first,) = sm.state_graph[0]
    assert isinstance(first[0], WaitFor)
    assert first[0].buffer_length == 3
    assert first[1] == 1
    assert [target for _, target in sm.state_graph[1]] == [2]
    assert [target for _, target in sm.state_graph[2]] == ["$"]
    assert sm.end_states == ["$"]


def test_value_before_and_during_content(harness):
    sm = EncapsulatedStateMachine(StringStateMachine(), delimiters=("<s>", "</s>"))
    (stepper,) = harness.alive(harness.run(sm, "<s"))
    assert stepper.get_current_value() is None
    values = {s.get_current_value() for s in harness.alive(harness.run(sm, '<s>"abc'))}
    assert values == {"abc"}


@given(
    body=st.text(alphabet="ab c", max_size=10),
    cuts=st.lists(st.integers(0, 30), max_size=6),
)
def test_chunking_property(harness, body, cuts):
    sm = EncapsulatedStateMachine(StringStateMachine(), delimiters=("<<", ">>"))
    text = "<<" + '"' + body + '"' + ">>"
    steppers = harness.run_chunks(sm, harness.chunked(text, cuts))
    assert [s.get_current_value() for s in harness.accepting(steppers)][:1] == [body]
