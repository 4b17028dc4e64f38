"""KeyValueStateMachine: docs examples (datatypes page)."""

from __future__ import annotations

import pytest

from pse.types.base.phrase import PhraseStateMachine
from pse.types.integer import IntegerStateMachine
from pse.types.key_value import KeyValueStateMachine
from pse.types.string import StringStateMachine


def test_basic_key_value_parsing(harness):
    kv_sm = KeyValueStateMachine()
    assert harness.value(kv_sm, '"name": "Alice"') == ("name", "Alice")
    assert harness.value(kv_sm, '"age": 30') == ("age", 30)
    assert harness.value(kv_sm, '"active": true') == ("active", True)
    assert harness.value(kv_sm, '"data": {"x": 1, "y": 2}') == ("data", {"x": 1, "y": 2})


def test_whitespace_and_escapes(harness):
    kv_sm = KeyValueStateMachine()
    assert harness.value(kv_sm, '"k" :\n [null]') == ("k", [None])
    assert harness.value(kv_sm, r'"a\"b": "c"') == ('a"b', "c")
    assert not harness.matches(kv_sm, "name: 1")
    assert not harness.matches(kv_sm, '"name" 1')
    assert not harness.matches(kv_sm, '"name":')


def test_optional_key_value(harness):
    optional_kv_sm = KeyValueStateMachine(is_optional=True)
    assert optional_kv_sm.is_optional
    assert harness.matches(optional_kv_sm, "")
    assert harness.matches(optional_kv_sm, '"a": 1')


def test_default_sequence_shape():
    kv_sm = KeyValueStateMachine()
    assert len(kv_sm.state_machines) == 5
    assert isinstance(kv_sm.state_machines[0], StringStateMachine)
    assert kv_sm.state_machines[2] == PhraseStateMachine(":")


def test_custom_sequence(harness):
    kv_sm = KeyValueStateMachine(
        [StringStateMachine(), PhraseStateMachine("="), IntegerStateMachine()]
    )
    assert harness.value(kv_sm, '"n"=007') == ("n", 7)
    with pytest.raises(ValueError):
        KeyValueStateMachine([StringStateMachine()], value_state_machine=IntegerStateMachine())


def test_partial_value(harness):
    kv_sm = KeyValueStateMachine()
    values = {s.get_current_value() for s in harness.alive(harness.run(kv_sm, '"key": '))}
    assert ("key", None) in values
