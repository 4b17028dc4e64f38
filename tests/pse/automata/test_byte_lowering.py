"""The native lowerings (``lower_utf8``, ``lower_json_string``) against ``json`` and UTF-8."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pse_core.errors import SchemaError

from pse.automata import pattern_dfa
from pse.automata.dfa import ByteTable, CpDfa, lower_utf8
from pse.automata.json_string import lower_json_string

from .conftest import accepts

# Patterns whose DFAs cross every UTF-8 length and the surrogate-pair escapes.
PATTERNS = ["^[a-z😀é]{0,3}$", "^[^a]$", "^(\U0010ffff|\u0800|\x7f|\x80)+$", '^["\\\\/]?$']
TEXT = st.text(st.sampled_from(list('aé😀\U0010ffff\u0800\x7f\x80"\\/b\n')), max_size=4)


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=60, deadline=None)
@given(text=TEXT)
def test_json_literals_follow_the_code_point_dfa(pattern: str, text: str) -> None:
    dfa = pattern_dfa(pattern)
    machine = lower_json_string(dfa, "pattern").machine(0)
    expected = dfa.accepts(text)
    for spelling in (json.dumps(text), json.dumps(text, ensure_ascii=False)):
        assert accepts(machine, spelling) == expected, spelling


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=60, deadline=None)
@given(text=TEXT)
def test_utf8_table_follows_the_code_point_dfa(pattern: str, text: str) -> None:
    dfa = pattern_dfa(pattern)
    table = lower_utf8(dfa, "pattern")
    if not text:  # a machine is walked by at least one byte; row 0 decides ""
        assert table.accepting[0] == dfa.accepts("")
        return
    assert accepts(table.machine(0), text) == dfa.accepts(text)


def test_unpaired_surrogate_escapes_are_rejected() -> None:
    machine = lower_json_string(pattern_dfa("^.$"), "pattern").machine(0)
    assert accepts(machine, '"\\ud83d\\ude00"')
    assert accepts(machine, '"\\uD83D\\uDE00"')
    assert not accepts(machine, '"\\ud83d"')
    assert not accepts(machine, '"\\ude00"')


def test_rows_are_views_of_the_packed_table() -> None:
    table = lower_utf8(CpDfa([[(0x61, 0x61, 1)], []], [False, True]), "pattern")
    assert isinstance(table, ByteTable)
    assert len(table.rows) == 2 == len(table.accepting)
    assert b"".join(r.tobytes() for r in table.rows) == table.packed
    assert table.rows[0][0x61] == 1 and table.rows[0][0x62] == -1


def test_too_many_rows_is_a_schema_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import pse.automata.json_string as js

    monkeypatch.setattr(js, "MAX_BYTE_STATES", 3)
    with pytest.raises(SchemaError) as info:
        js.lower_json_string(pattern_dfa("^[a-z]{5}$"), "format")
    assert info.value.code == "automaton-too-large" and info.value.keyword == "format"
