"""AnyStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.any import AnyStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.number import NumberStateMachine
from pse.types.string import StringStateMachine


def test_api_string_or_number(harness):
    any_state_machine = AnyStateMachine([StringStateMachine(), NumberStateMachine()])
    assert harness.matches(any_state_machine, '"hello"')
    assert harness.matches(any_state_machine, "-12.5e3")
    assert not harness.matches(any_state_machine, "true")
    assert not harness.matches(any_state_machine, '"unterminated')
    assert harness.value(any_state_machine, '"hello"') == "hello"
    assert harness.value(any_state_machine, "42") == 42


def test_guide_json_literals(harness):
    json_literal_sm = AnyStateMachine(
        [PhraseStateMachine("true"), PhraseStateMachine("false"), PhraseStateMachine("null")]
    )
    for text in ("true", "false", "null"):
        assert harness.matches(json_literal_sm, text)
    for text in ("True", "nul", "nulll", "", "truefalse"):
        assert not harness.matches(json_literal_sm, text)
    # The value is the raw text parsed as JSON.
    assert harness.value(json_literal_sm, "true") is True
    assert harness.value(json_literal_sm, "null") is None


def test_repr_and_graph_shape():
    a, b = PhraseStateMachine("a"), PhraseStateMachine("b")
    sm = AnyStateMachine([a, b])
    assert repr(sm) == "Any"
    assert sm.start_state == 0
    assert sm.end_states == ["$"]
    assert [(edge[0].phrase, edge[1]) for edge in sm.state_graph[0]] == [("a", "$"), ("b", "$")]


def test_shared_prefixes_are_explored_in_parallel(harness):
    sm = AnyStateMachine([PhraseStateMachine("abc"), PhraseStateMachine("abd")])
    assert len(harness.alive(harness.run(sm, "ab"))) == 2
    assert harness.matches(sm, "abc")
    assert harness.matches(sm, "abd")
    assert not harness.matches(sm, "abe")


@given(
    options=st.lists(st.text(alphabet="xyz", min_size=1, max_size=4), min_size=1, max_size=5),
    text=st.text(alphabet="xyz", max_size=5),
)
def test_any_is_union_property(harness, options, text):
    sm = AnyStateMachine([PhraseStateMachine(o) for o in options])
    assert harness.matches(sm, text) == (text in options)
    if text:
        assert harness.is_prefix(sm, text) == any(o.startswith(text) for o in options)
