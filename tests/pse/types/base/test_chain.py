"""ChainStateMachine: docs examples (guide + API page) and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pse.types.base.chain import ChainStateMachine
from pse.types.base.phrase import PhraseStateMachine
from pse.types.json.json_value import JsonStateMachine
from pse.types.string import StringStateMachine
from pse.types.whitespace import WhitespaceStateMachine


def test_guide_a_then_b(harness):
    sm = ChainStateMachine([PhraseStateMachine("A"), PhraseStateMachine("B")])
    assert harness.matches(sm, "AB")
    assert not harness.matches(sm, "A")
    assert not harness.matches(sm, "BA")
    assert not harness.matches(sm, "ABB")


def test_guide_key_value_pattern(harness):
    key_value_sm = ChainStateMachine(
        [
            StringStateMachine(),  # Key
            PhraseStateMachine(":"),  # Separator
            WhitespaceStateMachine(),  # Optional space
            JsonStateMachine(),  # Value
        ]
    )
    assert harness.matches(key_value_sm, '"key": "value"')
    assert harness.matches(key_value_sm, '"key":42')
    assert harness.matches(key_value_sm, '"key": {"nested": [1, 2, null]}')
    assert not harness.matches(key_value_sm, '"key" : 42')  # no whitespace before ':'
    assert not harness.matches(key_value_sm, "key: 42")
    assert harness.value(key_value_sm, '"key": [1, 2]') == '"key": [1, 2]'


def test_api_name_john(harness):
    chain_state_machine = ChainStateMachine(
        [
            StringStateMachine(),  # The key
            WhitespaceStateMachine(),  # Optional whitespace
            PhraseStateMachine(":"),  # The separator
            WhitespaceStateMachine(),  # Optional whitespace
            StringStateMachine(),  # The value
        ]
    )
    assert harness.matches(chain_state_machine, '"name": "John"')
    assert harness.matches(chain_state_machine, '"name":"John"')
    assert harness.matches(chain_state_machine, '"name" :  "John"')
    assert not harness.matches(chain_state_machine, '"name": John')
    assert not harness.matches(chain_state_machine, '"name": "John')


def test_api_optional_chain(harness):
    optional_chain = ChainStateMachine(
        [PhraseStateMachine(","), WhitespaceStateMachine()], is_optional=True
    )
    assert optional_chain.is_optional
    assert harness.matches(optional_chain, ",")
    assert harness.matches(optional_chain, ",  ")
    assert harness.matches(optional_chain, "")
    assert not harness.matches(optional_chain, " ,")
    # Inside a parent, the optional chain may be skipped.
    parent = ChainStateMachine([PhraseStateMachine("a"), optional_chain, PhraseStateMachine("b")])
    assert harness.matches(parent, "ab")
    assert harness.matches(parent, "a, b")
    assert not harness.matches(parent, "a b")


def test_graph_shape():
    a, b, c = PhraseStateMachine("a"), PhraseStateMachine("b"), PhraseStateMachine("c")
    sm = ChainStateMachine([a, b, c])
    assert sm.start_state == 0
    assert sm.end_states == [3]
    assert [[(edge[0].phrase, edge[1]) for edge in sm.state_graph[i]] for i in range(3)] == [
        [("a", 1)],
        [("b", 2)],
        [("c", 3)],
    ]


def test_nested_chains(harness):
    inner = ChainStateMachine([PhraseStateMachine("x"), PhraseStateMachine("y")])
    outer = ChainStateMachine([inner, PhraseStateMachine("-"), inner])
    assert harness.matches(outer, "xy-xy")
    assert not harness.matches(outer, "xy-x")


@given(
    words=st.lists(st.text(alphabet="ab", min_size=1, max_size=3), min_size=1, max_size=5),
    cuts=st.lists(st.integers(0, 15), max_size=5),
)
def test_chain_of_phrases_property(harness, words, cuts):
    sm = ChainStateMachine([PhraseStateMachine(w) for w in words])
    text = "".join(words)
    assert harness.matches(sm, text)
    assert harness.accepting(harness.run_chunks(sm, harness.chunked(text, cuts)))
    assert not harness.matches(sm, text + "a")
    assert not harness.matches(sm, text[:-1])
